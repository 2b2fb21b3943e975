import { Ajv, type AnySchema, type ErrorObject, type Options } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import Ajv04Module from "ajv-draft-04";
import formatsModule from "ajv-formats";
import draft06MetaSchema from "ajv/dist/refs/json-schema-draft-06.json" with { type: "json" };
import { SchemawatchError, messageOf } from "../errors.js";
import { idKeyword, type Dialect } from "./dialect.js";
import type { SchemaFile } from "./schema-file.js";

/** A compiled schema: true when the document is valid, with the first failure otherwise. */
export interface Validator {
  (document: unknown): boolean;
  errors?: ErrorObject[] | null;
}

type AjvInstance = Ajv | Ajv2019 | Ajv2020 | InstanceType<typeof Ajv04Module.default>;

const OPTIONS: Options = {
  // Real schemas carry vendor keywords (x-…) and unknown formats; rejecting them would refuse valid
  // catalogs. Syntax errors are still caught because every schema is checked against its meta-schema.
  strict: false,
  // The first failing keyword is what is reported; stopping there keeps validation cheap.
  allErrors: false,
  validateFormats: true,
  // Remote refs are never fetched: no loadSchema is configured, so an unknown ref fails compilation.
};

function createAjv(dialect: Dialect): AjvInstance {
  const ajv: AjvInstance =
    dialect === "draft-04"
      ? new Ajv04Module.default(OPTIONS)
      : dialect === "2019-09"
        ? new Ajv2019(OPTIONS)
        : dialect === "2020-12"
          ? new Ajv2020(OPTIONS)
          : new Ajv(OPTIONS);
  if (dialect === "draft-06" || dialect === "draft-07") ajv.addMetaSchema(draft06MetaSchema);
  formatsModule.default(ajv as Ajv);
  return ajv;
}

/**
 * One ajv instance per JSON Schema dialect, holding every schema file of a catalog so that refs between
 * files resolve by `$id` (or, for files without one, by their file URL). Each file compiles once.
 */
export class SchemaSet {
  readonly #instances = new Map<string, AjvInstance>();
  readonly #files = new Map<string, SchemaFile>();
  readonly #compiled = new Map<string, Validator>();

  #instanceFor(dialect: Dialect): AjvInstance {
    // Drafts 06 and 07 share an instance so refs between them resolve.
    const key = dialect === "draft-06" ? "draft-07" : dialect;
    let ajv = this.#instances.get(key);
    if (!ajv) {
      ajv = createAjv(dialect);
      this.#instances.set(key, ajv);
    }
    return ajv;
  }

  /** Registers a file so other files can `$ref` it; throws when another file already holds its id. */
  add(file: SchemaFile): void {
    const existing = this.#files.get(file.baseId);
    if (existing) {
      throw new SchemawatchError(
        "SCHEMA_INVALID",
        `${file.path}: its id ${file.baseId} is already used by ${existing.path}`,
      );
    }
    const schema: AnySchema =
      typeof file.json === "boolean" || file.declaredId
        ? file.json
        : { ...file.json, [idKeyword(file.dialect)]: file.baseId };
    try {
      this.#instanceFor(file.dialect).addSchema(schema, file.declaredId ? undefined : file.baseId);
    } catch (error) {
      throw new SchemawatchError("SCHEMA_INVALID", `${file.path}: ${describeAjvError(error)}`, {
        cause: error,
      });
    }
    this.#files.set(file.baseId, file);
  }

  /** Compiles a registered file (once); throws a SCHEMA_INVALID error naming the file. */
  compile(file: SchemaFile): Validator {
    const cached = this.#compiled.get(file.baseId);
    if (cached) return cached;
    if (!this.#files.has(file.baseId)) this.add(file);
    let validator: Validator | undefined;
    try {
      validator = this.#instanceFor(file.dialect).getSchema(file.baseId);
    } catch (error) {
      throw new SchemawatchError("SCHEMA_INVALID", `${file.path}: ${describeAjvError(error)}`, {
        cause: error,
      });
    }
    if (!validator) {
      throw new SchemawatchError("SCHEMA_INVALID", `${file.path}: schema did not compile`);
    }
    this.#compiled.set(file.baseId, validator);
    return validator;
  }
}

function describeAjvError(error: unknown): string {
  const message = messageOf(error);
  if (/can't resolve reference/i.test(message)) {
    return `${message} (remote refs are never fetched; put the referenced schema in the catalog)`;
  }
  return `does not compile: ${message}`;
}

/** The first failure of the last validation: the keyword and the instance path (JSON Pointer). */
export function firstFailure(validator: Validator): { keyword: string; instancePath: string } {
  const error = validator.errors?.[0];
  return { keyword: error?.keyword ?? "unknown", instancePath: error?.instancePath ?? "" };
}
