import { Ajv, type ErrorObject } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import Ajv04Module from "ajv-draft-04";
import draft06 from "ajv/dist/refs/json-schema-draft-06.json" with { type: "json" };
import draft07 from "ajv/dist/refs/json-schema-draft-07.json" with { type: "json" };
import type { Dialect } from "./dialect.js";

type MetaValidator = ((schema: unknown) => boolean) & { errors?: ErrorObject[] | null };

const META_IDS: Readonly<Record<Dialect, string>> = {
  "draft-04": "http://json-schema.org/draft-04/schema",
  "draft-06": "http://json-schema.org/draft-06/schema",
  "draft-07": "http://json-schema.org/draft-07/schema",
  "2019-09": "https://json-schema.org/draft/2019-09/schema",
  "2020-12": "https://json-schema.org/draft/2020-12/schema",
};

/**
 * ajv bundles drafts 06 and 07 with `enum` tightened to `minItems: 1, uniqueItems: true`; the published
 * meta-schemas allow an empty or repeated `enum` (the drafts say SHOULD), and so do registries.
 */
export function published(meta: Record<string, unknown>): Record<string, unknown> {
  const properties = meta["properties"] as Record<string, Record<string, unknown>>;
  const { minItems: _min, uniqueItems: _unique, ...enumRule } = properties["enum"] ?? {};
  return { ...meta, properties: { ...properties, enum: enumRule } };
}

/** Where a schema breaks its dialect's meta-schema: pointer, messages and the rule that failed. */
export interface MetaProblem {
  readonly pointer: string;
  readonly messages: readonly string[];
  readonly rule: string;
}

/**
 * The meta-schema of every dialect, compiled once per instance on first use. Schemas are checked here,
 * against the published meta-schemas, instead of by the ajv that compiles them: one check per schema,
 * and each version's compiler stays cheap to build.
 */
export class MetaSchemas {
  readonly #validators = new Map<Dialect, MetaValidator>();

  /** The first place a schema breaks the meta-schema of `dialect`, or undefined when it is valid. */
  check(schema: unknown, dialect: Dialect): MetaProblem | undefined {
    const validate = this.#validator(dialect);
    if (validate(schema)) return undefined;
    return describe(validate.errors ?? []);
  }

  #validator(dialect: Dialect): MetaValidator {
    let validate = this.#validators.get(dialect);
    if (!validate) {
      validate = build(dialect);
      this.#validators.set(dialect, validate);
    }
    return validate;
  }
}

function build(dialect: Dialect): MetaValidator {
  const options = { strict: false, allErrors: true, logger: false, validateFormats: false } as const;
  let ajv: Ajv | Ajv2019 | Ajv2020 | InstanceType<typeof Ajv04Module.default>;
  if (dialect === "draft-04") ajv = new Ajv04Module.default(options);
  else if (dialect === "2019-09") ajv = new Ajv2019(options);
  else if (dialect === "2020-12") ajv = new Ajv2020(options);
  else {
    ajv = new Ajv({ ...options, meta: false });
    ajv.addMetaSchema(published(draft06));
    ajv.addMetaSchema(published(draft07));
  }
  const validate = ajv.getSchema(META_IDS[dialect]);
  if (!validate) throw new Error(`the ${dialect} meta-schema is missing from ajv`);
  return validate as MetaValidator;
}

/** The deepest failure is the most precise one; `anyOf`'s own summary adds nothing to its branches'. */
function describe(errors: readonly ErrorObject[]): MetaProblem {
  const depth = (e: ErrorObject) => (e.instancePath === "" ? 0 : e.instancePath.split("/").length);
  const deepest = Math.max(0, ...errors.map(depth));
  const here = errors.filter((e) => depth(e) === deepest);
  const summaries = new Set(["anyOf", "oneOf", "allOf", "not", "if", "$ref", "$dynamicRef"]);
  const specific = here.filter((e) => !summaries.has(e.keyword));
  const chosen = specific.length > 0 ? specific : here;
  const messages = [...new Set(chosen.map((e) => e.message ?? e.keyword))];
  const first = chosen[0];
  return {
    pointer: first?.instancePath ?? "",
    messages,
    rule: first ? `${first.keyword} at ${first.schemaPath}` : "unknown",
  };
}
