import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../../src/catalog/load.js";
import { parseConfig } from "../../../src/config/load.js";
import { isDeferred } from "../../../src/catalog/deferred.js";
import { evaluate } from "../../../src/engine/evaluate.js";
import { parseVersion } from "../../../src/catalog/version.js";
import { writeTree } from "../../helpers/files.js";

const v1 = {
  $id: "https://example.com/schemas/event/1.0.json",
  type: "object",
  properties: { id: { type: "integer" }, event: { enum: ["view", "click"] } },
  required: ["id", "event"],
  additionalProperties: false,
};
const v11 = {
  $id: "https://example.com/schemas/event/1.1.json",
  type: "object",
  properties: {
    id: { type: "integer" },
    event: { enum: ["view", "click", "buy"] },
    amount: { type: "number" },
  },
  required: ["id", "event"],
  additionalProperties: false,
};

async function catalogFrom(files: Record<string, unknown>, yaml: string) {
  const dir = await writeTree({ ...files, "config.yaml": yaml });
  return { dir, load: async () => loadCatalog(parseConfig(yaml, `${dir}/config.yaml`)) };
}

const CONFIG = `subjects:
  - name: event
    topics: [events]
    schemas: schemas/event
`;

describe("catalog loading", () => {
  it("takes versions from $id, sorts them and applies statuses from the config", async () => {
    const { load } = await catalogFrom(
      { "schemas/event/b.json": v11, "schemas/event/a.json": v1 },
      CONFIG +
        `    versions:\n      "1.0": { status: deprecated, deprecatedSince: "2026-11-01", confluentId: 7 }\n`,
    );
    const catalog = await load();
    const subject = catalog.subjects.get("event")!;
    expect(subject.versions.map((v) => [v.version.text, v.status])).toEqual([
      ["1.0.0", "deprecated"],
      ["1.1.0", "active"],
    ]);
    expect(catalog.subjectByTopic.get("events")).toBe(subject);
    expect(catalog.byConfluentId.get(7)?.version.text).toBe("1.0.0");
    expect(subject.versions[0]?.deprecatedSince).toBe("2026-11-01");
  });

  it("takes the version from the file name when there is no $id, and from the config's file key first", async () => {
    const { $id: _a, ...plain1 } = v1;
    const { $id: _b, ...plain2 } = v11;
    const { load } = await catalogFrom(
      { "schemas/event/1.0.json": plain1, "schemas/event/latest.json": plain2 },
      CONFIG + `    versions:\n      "1.1.0": { status: candidate, file: latest.json }\n`,
    );
    const subject = (await load()).subjects.get("event")!;
    expect(subject.versions.map((v) => `${v.version.text}:${v.status}:${v.file.name}`)).toEqual([
      "1.0.0:active:1.0.json",
      "1.1.0:candidate:latest.json",
    ]);
  });

  it("leaves retired versions out of evaluation", async () => {
    const { load } = await catalogFrom(
      { "schemas/event/a.json": v1, "schemas/event/b.json": v11 },
      CONFIG + `    versions:\n      "1.0.0": { status: retired }\n`,
    );
    const subject = (await load()).subjects.get("event")!;
    expect(subject.readers.map((v) => v.version.text)).toEqual(["1.1.0"]);
  });

  it("resolves refs between files of the catalog and local $defs", async () => {
    const { load } = await catalogFrom(
      {
        "schemas/event/1.0.json": {
          $id: "https://example.com/schemas/event/1.0.json",
          type: "object",
          properties: { money: { $ref: "../common/money.json" }, id: { $ref: "#/$defs/id" } },
          $defs: { id: { type: "integer" } },
        },
        "schemas/common/money.json": {
          $id: "https://example.com/schemas/common/money.json",
          type: "object",
          required: ["cents"],
          properties: { cents: { type: "integer" } },
        },
      },
      CONFIG + "shared: [schemas/common]\n",
    );
    const subject = (await load()).subjects.get("event")!;
    const [ok] = evaluate({ id: 1, money: { cents: 5 } }, subject);
    const [bad] = evaluate({ id: 1, money: { cents: "5" } }, subject);
    const [badId] = evaluate({ id: "x" }, subject);
    expect(ok?.passed).toBe(true);
    expect([bad?.keyword, bad?.instancePath]).toEqual(["type", "/money/cents"]);
    expect([badId?.keyword, badId?.instancePath]).toEqual(["type", "/id"]);
  });

  it("resolves relative refs between files that have no $id, by file location", async () => {
    const { load } = await catalogFrom(
      {
        "schemas/event/1.0.json": { properties: { tag: { $ref: "../common/tag.json" } } },
        "schemas/common/tag.json": { type: "string", maxLength: 3 },
      },
      CONFIG + "shared: [schemas/common/tag.json]\n",
    );
    const subject = (await load()).subjects.get("event")!;
    expect(evaluate({ tag: "abcd" }, subject)[0]).toMatchObject({ passed: false, keyword: "maxLength" });
  });

  it("loads versions that share one $id, each with its own $refs", async () => {
    const shared = "https://example.com/schemas/event.json";
    const version = (amount: string) => ({
      $id: shared,
      type: "object",
      properties: { amount: { $ref: "#/definitions/amount" } },
      definitions: { amount: { type: amount } },
    });
    const { load } = await catalogFrom(
      {
        "schemas/event/1.0.json": version("integer"),
        "schemas/event/1.1.json": version("number"),
        "schemas/event/2.0.json": version("string"),
      },
      CONFIG,
    );
    const subject = (await load()).subjects.get("event")!;
    expect(subject.versions.map((v) => [v.version.text, v.file.baseId])).toEqual([
      ["1.0.0", shared],
      ["1.1.0", shared],
      ["2.0.0", shared],
    ]);
    const passes = (doc: unknown) => evaluate(doc, subject).map((r) => r.passed);
    expect(passes({ amount: 1 })).toEqual([true, true, false]);
    expect(passes({ amount: 1.5 })).toEqual([false, true, false]);
    expect(passes({ amount: "1" })).toEqual([false, false, true]);
  });

  it("stops on two shared schemas with one $id, since a $ref to it would be ambiguous", async () => {
    const { dir, load } = await catalogFrom(
      {
        "schemas/event/1.0.json": v1,
        "schemas/common/a.json": { $id: "https://example.com/common.json", type: "string" },
        "schemas/common/b.json": { $id: "https://example.com/common.json", type: "integer" },
      },
      CONFIG + "shared: [schemas/common]\n",
    );
    await expect(load()).rejects.toThrow(
      `${dir}/schemas/common/b.json: its id https://example.com/common.json is already used by the shared schema ${dir}/schemas/common/a.json`,
    );
  });

  it("reads schemas without $schema as draft-07, or as the config's defaultDialect says", async () => {
    const tuple = { type: "array", items: [{ type: "string" }], additionalItems: false };
    const { load } = await catalogFrom({ "schemas/event/1.0.json": tuple }, CONFIG);
    const subject = (await load()).subjects.get("event")!;
    expect(subject.versions[0]?.file.dialect).toBe("draft-07");
    expect(evaluate(["a", "b"], subject)[0]).toMatchObject({ passed: false, keyword: "additionalItems" });
    const modern = await catalogFrom(
      { "schemas/event/1.0.json": { prefixItems: [{ type: "string" }], items: false } },
      "defaultDialect: 2020-12\n" + CONFIG,
    );
    const other = (await modern.load()).subjects.get("event")!;
    expect(other.versions[0]?.file.dialect).toBe("2020-12");
    expect(evaluate(["a", "b"], other)[0]).toMatchObject({ passed: false, keyword: "items" });
  });

  it("stops on a schema that does not compile, naming the file", async () => {
    const { dir, load } = await catalogFrom({ "schemas/event/1.0.json": { type: 12 } }, CONFIG);
    await expect(load()).rejects.toMatchObject({
      code: "SCHEMA_INVALID",
      message: expect.stringContaining(`${dir}/schemas/event/1.0.json: does not compile`),
    });
  });

  it("stops on two files claiming one version", async () => {
    const { dir, load } = await catalogFrom(
      {
        "schemas/event/a.json": v1,
        "schemas/event/b.json": { ...v1, $id: "https://example.com/other/event/1.0.0.json" },
      },
      CONFIG,
    );
    await expect(load()).rejects.toMatchObject({
      code: "SCHEMA_DUPLICATE_VERSION",
      message: `${dir}/schemas/event/b.json: claims event 1.0.0, which ${dir}/schemas/event/a.json already claims`,
    });
  });

  it("stops on a file whose version cannot be told", async () => {
    const { dir, load } = await catalogFrom({ "schemas/event/latest.json": { type: "object" } }, CONFIG);
    await expect(load()).rejects.toMatchObject({
      code: "VERSION_INVALID",
      message: expect.stringContaining(
        `${dir}/schemas/event/latest.json: cannot tell which version of event this is`,
      ),
    });
  });

  it("stops on a version key that is not semver", async () => {
    const { load } = await catalogFrom(
      { "schemas/event/1.0.json": v1 },
      CONFIG + `    versions:\n      "1.0.0-": { status: active }\n`,
    );
    await expect(load()).rejects.toMatchObject({ code: "CONFIG_INVALID" });
  });

  it("stops on a missing schema file that the config names", async () => {
    const { dir, load } = await catalogFrom(
      { "schemas/event/1.0.json": v1 },
      CONFIG + `    versions:\n      "2.0.0": { status: candidate, file: 2.0.json }\n`,
    );
    await expect(load()).rejects.toMatchObject({
      code: "FILE_UNREADABLE",
      message: `${dir}/schemas/event/2.0.json: schema file of event 2.0.0 not found in ${dir}/schemas/event`,
    });
  });

  it("says that a schema file the config names is a directory, or lies outside the folder", async () => {
    const { dir, load } = await catalogFrom(
      { "schemas/event/1.0.json": v1, "schemas/event/2.0/2.0.json": v11, "schemas/other/2.1.json": v11 },
      CONFIG + `    versions:\n      "2.0.0": { status: candidate, file: "2.0" }\n`,
    );
    await expect(load()).rejects.toMatchObject({
      code: "FILE_UNREADABLE",
      message: `${dir}/schemas/event/2.0: schema file of event 2.0.0 is a directory, not a file: name the schema file inside it`,
    });
    const outside = await catalogFrom(
      { "schemas/event/1.0.json": v1, "schemas/other/2.1.json": v11 },
      CONFIG + `    versions:\n      "2.1.0": { status: candidate, file: ../other/2.1.json }\n`,
    );
    await expect(outside.load()).rejects.toThrow(
      `${outside.dir}/schemas/other/2.1.json: schema file of event 2.1.0 is not one of the schema files directly in ${outside.dir}/schemas/event, where the subject's schema files are read`,
    );
  });

  it("says that a .json entry of the folder that is a directory is one", async () => {
    const { dir, load } = await catalogFrom(
      { "schemas/event/1.0.json": v1, "schemas/event/1.1.json/inner.json": v11 },
      CONFIG,
    );
    await expect(load()).rejects.toThrow(
      `${dir}/schemas/event/1.1.json: cannot read file: is a directory, not a file`,
    );
  });

  it("stops on a version the config lists without any file", async () => {
    const { dir, load } = await catalogFrom(
      { "schemas/event/1.0.json": v1 },
      CONFIG + `    versions:\n      "3.0.0": { status: candidate }\n`,
    );
    await expect(load()).rejects.toThrow(
      `${dir}/schemas/event: no schema file for event 3.0.0, which the config lists`,
    );
  });

  it("stops on a missing schema folder", async () => {
    const { dir, load } = await catalogFrom({}, CONFIG);
    await expect(load()).rejects.toThrow(`${dir}/schemas/event: cannot read subject event schema folder`);
  });

  it("stops on a schema file that is not JSON", async () => {
    const { dir, load } = await catalogFrom({ "schemas/event/1.0.json": "{" }, CONFIG);
    await expect(load()).rejects.toThrow(`${dir}/schemas/event/1.0.json: not valid JSON`);
  });
});

describe("evaluate", () => {
  it("checks every non-retired version with the direction relative to the writer", async () => {
    const { load } = await catalogFrom({ "schemas/event/a.json": v1, "schemas/event/b.json": v11 }, CONFIG);
    const subject = (await load()).subjects.get("event")!;
    const newDoc = { id: 1, event: "buy", amount: 3 };
    expect(
      evaluate(newDoc, subject, parseVersion("1.1", "t")).map((r) => [
        r.reader.version.text,
        r.direction,
        r.passed,
        r.keyword,
        r.instancePath,
      ]),
    ).toEqual([
      ["1.0.0", "forward", false, "additionalProperties", ""],
      ["1.1.0", "conformance", true, null, null],
    ]);
    expect(
      evaluate({ id: 1, event: "view" }, subject, parseVersion("1.0", "t")).map((r) => [
        r.direction,
        r.passed,
      ]),
    ).toEqual([
      ["conformance", true],
      ["backward", true],
    ]);
    expect(evaluate({ id: 1 }, subject).map((r) => [r.direction, r.keyword])).toEqual([
      ["undeclared", "required"],
      ["undeclared", "required"],
    ]);
  });
});

describe("a catalog of 1 000 versions", () => {
  /** 200 subjects of five versions, each version with a shared `$ref` and a pattern; `bad` replaces one. */
  async function large(bad: { subject: number; version: number; json: unknown }) {
    const files: Record<string, unknown> = {
      "shared/money.json": { type: "number", minimum: 0 },
    };
    let yaml = "shared: [shared]\nsubjects:\n";
    for (let s = 0; s < 200; s++) {
      yaml += `  - name: s${s}\n    topics: [t${s}]\n    schemas: schemas/s${s}\n`;
      for (let v = 0; v < 5; v++) {
        files[`schemas/s${s}/1.${v}.json`] =
          s === bad.subject && v === bad.version
            ? bad.json
            : {
                type: "object",
                properties: {
                  id: { type: "string", pattern: "^[a-z]+-[0-9]+$" },
                  amount: { $ref: "../../shared/money.json" },
                  [`f${v}`]: { $ref: "#/definitions/field" },
                },
                definitions: { field: { type: "string", maxLength: v + 1 } },
              };
      }
    }
    return catalogFrom(files, yaml);
  }

  it("loads with every version waiting for its first use, judging as a compiled one", async () => {
    const { load } = await large({ subject: -1, version: -1, json: {} });
    const catalog = await load();
    const versions = [...catalog.subjects.values()].flatMap((s) => s.versions);
    expect(versions).toHaveLength(1000);
    expect(versions.filter((v) => isDeferred(v.validate))).toHaveLength(1000);
    const subject = catalog.subjects.get("s137")!;
    expect(
      evaluate({ id: "ab-1", amount: -1, f2: "x" }, subject).map((r) => [
        r.reader.version.text,
        r.passed,
        r.keyword,
      ]),
    ).toEqual([
      ["1.0.0", false, "minimum"],
      ["1.1.0", false, "minimum"],
      ["1.2.0", false, "minimum"],
      ["1.3.0", false, "minimum"],
      ["1.4.0", false, "minimum"],
    ]);
    expect(evaluate({ id: "ab-1", f1: "xyz" }, subject).map((r) => r.passed)).toEqual([
      true,
      false,
      true,
      true,
      true,
    ]);
  });

  it("still stops loading at a bad version deep inside it, naming the file", async () => {
    const bad = [
      [
        { properties: { a: { $ref: "#/definitions/missing" } } },
        /s173\/1\.3\.json: #\/properties\/a\/\$ref: can't resolve reference #\/definitions\/missing/,
      ],
      [
        { properties: { a: { $ref: "../../shared/cash.json" } } },
        /s173\/1\.3\.json: #\/properties\/a\/\$ref: can.t resolve reference \.\.\/\.\.\/shared\/cash\.json/,
      ],
      [
        { properties: { a: { type: "string", pattern: "([a-z]" } } },
        /s173\/1\.3\.json: #\/properties\/a\/pattern: does not compile: \/\(\[a-z\]\/ is not a regular expression/,
      ],
      [
        { properties: { a: { type: "strung" } } },
        /s173\/1\.3\.json: does not compile: #\/properties\/a\/type/,
      ],
    ] as const;
    for (const [json, message] of bad) {
      const { load } = await large({ subject: 173, version: 3, json });
      await expect(load()).rejects.toThrow(message);
    }
  });
});

describe("catalog loading of Avro files", () => {
  const pay = (fields: unknown[]) => ({ type: "record", name: "Pay", namespace: "shop", fields });
  const PAY_CONFIG = `subjects:
  - name: pay
    topics: [pay]
    schemas: schemas/pay
`;

  it("reads .avsc files beside nothing else as one Avro subject, versions from their file names", async () => {
    const { load } = await catalogFrom(
      {
        "schemas/pay/pay-1.0.avsc": pay([{ name: "id", type: "long" }]),
        "schemas/pay/pay-2.0.AVSC": pay([
          { name: "id", type: "long" },
          { name: "currency", type: "string", default: "EUR" },
        ]),
        "schemas/pay/README.md": "not a schema",
      },
      PAY_CONFIG,
    );
    const subject = (await load()).subjects.get("pay")!;
    expect(subject.format.name).toBe("avro");
    expect(subject.versions.map((v) => [v.version.text, v.file.name, v.schema?.format])).toEqual([
      ["1.0.0", "pay-1.0.avsc", "avro"],
      ["2.0.0", "pay-2.0.AVSC", "avro"],
    ]);
    // The page shows the Avro schema as written.
    expect(subject.versions[0]!.file.json).toEqual(pay([{ name: "id", type: "long" }]));
  });

  it("stops at a subject whose files are of two formats, naming both files", async () => {
    const { dir, load } = await catalogFrom(
      {
        "schemas/pay/1.0.avsc": pay([{ name: "id", type: "long" }]),
        "schemas/pay/2.0.json": { type: "object" },
      },
      PAY_CONFIG,
    );
    await expect(load()).rejects.toThrow(
      `${dir}/schemas/pay/2.0.json: pay 2.0.0 is json, but ${dir}/schemas/pay/1.0.avsc (1.0.0) is avro: a subject's versions are all of one format`,
    );
  });

  it("stops at an .avsc file avsc refuses, naming it", async () => {
    const { dir, load } = await catalogFrom(
      { "schemas/pay/1.0.avsc": pay([{ name: "id", type: "lng" }]) },
      PAY_CONFIG,
    );
    await expect(load()).rejects.toMatchObject({
      code: "SCHEMA_INVALID",
      message: expect.stringMatching(
        new RegExp(`^${dir}/schemas/pay/1\\.0\\.avsc: not a valid Avro schema: .*lng`),
      ),
    });
  });
});
