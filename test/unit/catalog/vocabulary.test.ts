import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../../src/catalog/load.js";
import { parseConfig } from "../../../src/config/load.js";
import { writeTree } from "../../helpers/files.js";

// A `$schema` that names a meta-schema schemawatch does not hold is refused at start-up, naming the
// version's file and the URI; one the catalog holds (a shared schema) is read in the dialect it
// declares, with the vocabularies its `$vocabulary` lists (the suite's metaschema-no-validation.json).

const META = "https://example.com/meta/no-validation.json";

/** A 2020-12 meta-schema with the vocabularies given (core always). */
const meta = (vocabularies: Record<string, boolean>) => ({
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: META,
  $vocabulary: { "https://json-schema.org/draft/2020-12/vocab/core": true, ...vocabularies },
  $dynamicAnchor: "meta",
  allOf: [{ $ref: "https://json-schema.org/draft/2020-12/meta/core" }],
});

const APPLICATOR = "https://json-schema.org/draft/2020-12/vocab/applicator";

const order = {
  $schema: META,
  properties: { internal: false, amount: { type: "integer", minimum: 10 } },
};

async function load(files: Record<string, unknown>, shared: boolean) {
  const yaml =
    "subjects:\n  - name: pay\n    topics: [pay]\n    schemas: schemas/pay\n" +
    (shared ? "shared: [schemas/meta]\n" : "");
  const dir = await writeTree({ ...files, "config.yaml": yaml });
  return { dir, load: () => loadCatalog(parseConfig(yaml, `${dir}/config.yaml`)) };
}

describe("a $schema that names a meta-schema of the catalog's own", () => {
  it("is a start-up error naming the version's file and the URI when the catalog does not hold it", async () => {
    const { dir, load: start } = await load({ "schemas/pay/1.0.0.json": order }, false);
    await expect(start()).rejects.toThrow(
      `${dir}/schemas/pay/1.0.0.json: its $schema '${META}' is a meta-schema schemawatch does not hold: ` +
        "it holds those of drafts 04, 06, 07, 2019-09 and 2020-12, and any the catalog's shared schemas are " +
        "(add that meta-schema to `shared` in the config, or declare one of those dialects)",
    );
  });

  it("is read in the meta-schema's dialect with only the vocabularies it lists, when a shared schema", async () => {
    const { load: start } = await load(
      {
        "schemas/pay/1.0.0.json": order,
        "schemas/meta/no-validation.json": meta({ [APPLICATOR]: true }),
      },
      true,
    );
    const version = (await start()).subjects.get("pay")!.versions[0]!;
    expect(version.file.dialect).toBe("2020-12");
    // The applicator vocabulary still applies (`internal: false`); the validation one does not.
    expect([{ amount: 20 }, { amount: 1 }, { amount: "x" }, { internal: 1 }].map(version.validate)).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });

  it("honours the validation vocabulary where the meta-schema lists it, and ignores an optional unknown one", async () => {
    const { load: start } = await load(
      {
        "schemas/pay/1.0.0.json": order,
        "schemas/meta/no-validation.json": meta({
          [APPLICATOR]: true,
          "https://json-schema.org/draft/2020-12/vocab/validation": true,
          "https://example.com/vocab/custom": false,
        }),
      },
      true,
    );
    const version = (await start()).subjects.get("pay")!.versions[0]!;
    expect([{ amount: 20 }, { amount: 1 }, { amount: "x" }, { internal: 1 }].map(version.validate)).toEqual([
      true,
      false,
      false,
      false,
    ]);
  });

  it("refuses a meta-schema that requires a vocabulary schemawatch does not implement", async () => {
    const { dir, load: start } = await load(
      {
        "schemas/pay/1.0.0.json": order,
        "schemas/meta/no-validation.json": meta({ "https://example.com/vocab/custom": true }),
      },
      true,
    );
    await expect(start()).rejects.toThrow(
      `${dir}/schemas/pay/1.0.0.json: its meta-schema ${dir}/schemas/meta/no-validation.json requires the ` +
        "vocabulary https://example.com/vocab/custom, which schemawatch does not implement",
    );
  });
});
