import { Ajv, type Options, type SchemaValidateFunction } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import Ajv04Module from "ajv-draft-04";
import formatsModule from "ajv-formats";
import type { Engine } from "./dialect.js";
import { ajvRegExp } from "./regexp.js";
import { walkSchemas } from "./walk.js";

export type AjvInstance = Ajv | Ajv2019 | Ajv2020 | InstanceType<typeof Ajv04Module.default>;

/** Stands in for `enum: []`, which the drafts allow and ajv refuses to compile: it rejects everything. */
export const EMPTY_ENUM = "$schemawatchEmptyEnum";

const OPTIONS: Options = {
  // Real schemas carry vendor keywords (x-…) and unknown formats; rejecting them would refuse valid
  // catalogs. Syntax errors are still caught: every schema is checked against its meta-schema first.
  strict: false,
  // The first failing keyword is what is reported; stopping there keeps validation cheap.
  allErrors: false,
  // The meta-schema check happens once, before compiling (see MetaSchemas).
  validateSchema: false,
  meta: false,
  logger: false,
  // Only an error's keyword and instance path are read (formats/json.ts, compiler.ts firstFailure): no
  // message is built per failing record (many are concatenated from the keyword's parameters).
  messages: false,
  // Remote refs are never fetched: no loadSchema is configured, so an unknown ref fails compilation.
};

/**
 * A fresh ajv for one version: one per version, so that versions sharing an `$id` never meet. Building
 * one costs well under a millisecond because no meta-schema is compiled here.
 */
export function createAjv(engine: Engine, assertFormats: boolean, ownProperties = false): AjvInstance {
  const options: Options = {
    ...OPTIONS,
    // `required: ["constructor"]` names the document's own property, never what every object inherits;
    // asked only where a schema names such a property (see namesPrototype): it doubles validation time.
    ownProperties,
    validateFormats: assertFormats,
    code: { regExp: ajvRegExp() },
    // Drafts 04 to 07 ignore the keywords beside `$ref` (src/catalog/reading.ts); ajv applies them unless told.
    ignoreKeywordsWithRef: engine === "draft-04" || engine === "draft-07",
  };
  const ajv: AjvInstance =
    engine === "draft-04"
      ? new Ajv04Module.default(options)
      : engine === "2019-09"
        ? new Ajv2019(options)
        : engine === "2020-12"
          ? new Ajv2020(options)
          : new Ajv(options);
  // From draft-06 on `id` is no keyword at all, so a schema may use it for its own data.
  if (engine !== "draft-04") ajv.removeKeyword("id");
  const emptyEnum: SchemaValidateFunction = () => {
    emptyEnum.errors = [
      {
        keyword: "enum",
        message: "must be equal to one of the allowed values",
        params: { allowedValues: [] },
      },
    ];
    return false;
  };
  ajv.addKeyword({ keyword: EMPTY_ENUM, schemaType: "boolean", errors: true, validate: emptyEnum });
  if (assertFormats) {
    formatsModule.default(ajv as Ajv);
    addContentAssertions(ajv);
  }
  return ajv;
}

const KEYED = ["properties", "dependentRequired", "dependentSchemas", "dependencies"];

/** Does a schema name a property every JavaScript object inherits (`constructor`, `toString`, ...)? */
export function namesPrototype(documents: readonly { readonly json: unknown }[]): boolean {
  const inherited = (name: unknown) => typeof name === "string" && name in Object.prototype;
  let found = false;
  for (const { json } of documents) {
    walkSchemas(json, (node) => {
      if (found) return;
      const required = node["required"];
      if (Array.isArray(required) && required.some(inherited)) found = true;
      for (const key of KEYED) {
        const map = node[key];
        if (typeof map !== "object" || map === null) continue;
        for (const [name, value] of Object.entries(map)) {
          if (inherited(name) || (Array.isArray(value) && value.some(inherited))) found = true;
        }
      }
    });
  }
  return found;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const BASE16 = /^(?:[0-9A-Fa-f]{2})*$/;
const BASE32 = /^(?:[A-Z2-7]{8})*(?:[A-Z2-7]{2}={6}|[A-Z2-7]{4}={4}|[A-Z2-7]{5}={3}|[A-Z2-7]{7}=)?$/;

/** The content a string carries once decoded, or undefined when it is not valid in its encoding. */
export function decodeContent(value: string, encoding: unknown): string | undefined {
  const name = typeof encoding === "string" ? encoding.toLowerCase() : undefined;
  if (name === "base64")
    return BASE64.test(value) ? Buffer.from(value, "base64").toString("utf8") : undefined;
  if (name === "base16") return BASE16.test(value) ? Buffer.from(value, "hex").toString("utf8") : undefined;
  if (name === "base32") return BASE32.test(value) ? value : undefined;
  return value;
}

/** Does a string satisfy `contentMediaType` (only JSON is checked) and `contentEncoding`? */
export function passesContent(value: string, encoding: unknown, mediaType: unknown): boolean {
  const decoded = decodeContent(value, encoding);
  if (decoded === undefined) return false;
  if (typeof mediaType !== "string" || !/^application\/(?:[\w.+-]+\+)?json\b/i.test(mediaType)) return true;
  try {
    JSON.parse(decoded);
    return true;
  } catch {
    return false;
  }
}

/**
 * Drafts 04 to 07 let a validator assert `contentEncoding` and `contentMediaType`: base64, base16 and
 * base32 are checked, and `application/json` content must parse. Other encodings and types pass.
 */
function addContentAssertions(ajv: AjvInstance): void {
  for (const keyword of ["contentEncoding", "contentMediaType"]) {
    ajv.removeKeyword(keyword);
    ajv.addKeyword({
      keyword,
      type: "string",
      schemaType: "string",
      validate: (_schema: string, data: string, parent?: Record<string, unknown>) =>
        keyword === "contentEncoding"
          ? decodeContent(data, parent?.["contentEncoding"]) !== undefined
          : passesContent(data, parent?.["contentEncoding"], parent?.["contentMediaType"]),
    });
  }
}
