import draft04 from "ajv-draft-04/dist/refs/json-schema-draft-04.json" with { type: "json" };
import draft06 from "ajv/dist/refs/json-schema-draft-06.json" with { type: "json" };
import draft07 from "ajv/dist/refs/json-schema-draft-07.json" with { type: "json" };
import schema2019 from "ajv/dist/refs/json-schema-2019-09/schema.json" with { type: "json" };
import applicator2019 from "ajv/dist/refs/json-schema-2019-09/meta/applicator.json" with { type: "json" };
import content2019 from "ajv/dist/refs/json-schema-2019-09/meta/content.json" with { type: "json" };
import core2019 from "ajv/dist/refs/json-schema-2019-09/meta/core.json" with { type: "json" };
import format2019 from "ajv/dist/refs/json-schema-2019-09/meta/format.json" with { type: "json" };
import metadata2019 from "ajv/dist/refs/json-schema-2019-09/meta/meta-data.json" with { type: "json" };
import validation2019 from "ajv/dist/refs/json-schema-2019-09/meta/validation.json" with { type: "json" };
import schema2020 from "ajv/dist/refs/json-schema-2020-12/schema.json" with { type: "json" };
import applicator2020 from "ajv/dist/refs/json-schema-2020-12/meta/applicator.json" with { type: "json" };
import content2020 from "ajv/dist/refs/json-schema-2020-12/meta/content.json" with { type: "json" };
import core2020 from "ajv/dist/refs/json-schema-2020-12/meta/core.json" with { type: "json" };
import format2020 from "ajv/dist/refs/json-schema-2020-12/meta/format-annotation.json" with { type: "json" };
import metadata2020 from "ajv/dist/refs/json-schema-2020-12/meta/meta-data.json" with { type: "json" };
import unevaluated2020 from "ajv/dist/refs/json-schema-2020-12/meta/unevaluated.json" with { type: "json" };
import validation2020 from "ajv/dist/refs/json-schema-2020-12/meta/validation.json" with { type: "json" };
import type { SchemaDocument } from "./compiler.js";
import { engineOf, type Dialect } from "./dialect.js";
import { published } from "./meta.js";
import { walkSchemas } from "./walk.js";

/** A meta-schema document, known by its `$id` without the empty fragment drafts 04 to 07 write. */
function document(json: Record<string, unknown>): SchemaDocument {
  const id = String(json["$id"] ?? json["id"]).replace(/#$/, "");
  return { uri: id, json, name: id };
}

const BY_ENGINE: Readonly<Record<string, readonly SchemaDocument[]>> = {
  "draft-04": [document(draft04)],
  "draft-07": [document(published(draft06)), document(published(draft07))],
  "2019-09": [
    schema2019,
    applicator2019,
    content2019,
    core2019,
    format2019,
    metadata2019,
    validation2019,
  ].map(document),
  "2020-12": [
    schema2020,
    applicator2020,
    content2020,
    core2020,
    format2020,
    metadata2020,
    unevaluated2020,
    validation2020,
  ].map(document),
};

/**
 * The published meta-schemas of a dialect's engine, as documents a `$ref` may reach: schemawatch holds
 * them, so a schema that refers to its dialect's meta-schema (`"$ref": "http://json-schema.org/
 * draft-07/schema#"`) compiles without fetching anything.
 */
export function metaDocuments(dialect: Dialect): readonly SchemaDocument[] {
  return BY_ENGINE[engineOf(dialect)] ?? [];
}

const REF_KEYS = ["$ref", "$dynamicRef", "$recursiveRef"];

/** Does a reference in the documents name a meta-schema's host? Only then are they added. */
export function mayReachMeta(documents: readonly { readonly json: unknown }[]): boolean {
  let found = false;
  for (const { json } of documents) {
    walkSchemas(json, (node) => {
      for (const key of REF_KEYS) {
        const ref = node[key];
        if (typeof ref === "string" && ref.includes("json-schema.org/")) found = true;
      }
    });
  }
  return found;
}
