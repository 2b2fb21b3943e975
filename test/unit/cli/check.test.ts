import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { writeTree } from "../../helpers/files.js";

const S = "examples/article/schemas";
const DOCS = ["--old-docs", "examples/article/docs/old", "--new-docs", "examples/article/docs/new"];

describe("schemawatch check", () => {
  it("prints the article's five lines for v1 to v2 and exits 0", async () => {
    const result = await runCli(["check", `${S}/v1.json`, `${S}/v2.json`, ...DOCS]);
    expect(result.stdout).toBe(
      [
        "backward  a-basic.json against new schema: ok",
        "backward  b-click.json against new schema: ok",
        "forward   a-basic.json against old schema: ok",
        "forward   b-amount.json against old schema: FAIL (additionalProperties at root)",
        "forward   c-buy.json   against old schema: FAIL (enum at /event)",
        "backward: 2 documents ok; forward: 2 of 3 fail NEW→OLD (information; --strict makes them fatal)",
        "",
      ].join("\n"),
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
  });

  it("exits 1 when the new schema adds a required property", async () => {
    const result = await runCli(["check", `${S}/v1.json`, `${S}/v2-breaking.json`, ...DOCS]);
    expect(result.code).toBe(1);
    expect(result.stdout.split("\n")[0]).toBe(
      "backward  a-basic.json against new schema: FAIL (required at root)",
    );
    expect(result.stderr).toContain("2 document(s) valid under the old schema fail the new one");
  });

  it("makes forward failures fatal with --strict", async () => {
    const result = await runCli(["check", `${S}/v1.json`, `${S}/v2.json`, ...DOCS, "--strict"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("2 new document(s) fail the old schema");
  });

  it("prints JSON with every result", async () => {
    const result = await runCli(["check", `${S}/v1.json`, `${S}/v2.json`, ...DOCS, "--format", "json"]);
    const json = JSON.parse(result.stdout);
    expect(json.ok).toBe(true);
    expect(json.backwardFailures).toBe(0);
    expect(json.forwardFailures).toBe(2);
    expect(json.results[4]).toEqual({
      direction: "forward",
      document: "c-buy.json",
      passed: false,
      keyword: "enum",
      instancePath: "/event",
    });
  });

  it("exits 2 naming a document that is not JSON", async () => {
    const dir = await writeTree({ "old/broken.json": "{not json", "new/a.json": { id: 1, event: "view" } });
    const result = await runCli([
      "check",
      `${S}/v1.json`,
      `${S}/v2.json`,
      "--old-docs",
      `${dir}/old`,
      "--new-docs",
      `${dir}/new`,
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/broken\.json: not valid JSON/);
    expect(result.stdout).toBe("");
  });

  it("exits 2 naming a schema that does not compile", async () => {
    const dir = await writeTree({ "bad.json": { type: "objekt" } });
    const result = await runCli(["check", `${S}/v1.json`, `${dir}/bad.json`, ...DOCS]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/bad\.json: does not compile/);
  });

  it("exits 2 naming an unreadable file", async () => {
    const result = await runCli(["check", `${S}/v1.json`, `${S}/missing.json`, ...DOCS]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/missing\.json: cannot read file/);
  });

  it("exits 2 naming a documents folder that does not exist", async () => {
    const result = await runCli([
      "check",
      `${S}/v1.json`,
      `${S}/v2.json`,
      "--old-docs",
      "nope",
      "--new-docs",
      "nope",
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/nope: cannot read documents folder/);
  });

  it("never passes vacuously: a folder without .json documents is bad input, named", async () => {
    const dir = await writeTree({
      "empty/.keep": "",
      "notes/readme.txt": "x",
      "new/a.json": { id: 1, event: "view" },
    });
    for (const folder of ["empty", "notes"]) {
      const result = await runCli([
        "check",
        `${S}/v1.json`,
        `${S}/v2.json`,
        "--old-docs",
        `${dir}/${folder}`,
        "--new-docs",
        `${dir}/new`,
      ]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`${dir}/${folder}: no .json documents in this folder`);
      expect(result.stdout).toBe("");
    }
    const noNew = await runCli([
      "check",
      `${S}/v1.json`,
      `${S}/v2.json`,
      "--old-docs",
      `${dir}/new`,
      "--new-docs",
      `${dir}/empty`,
    ]);
    expect(noNew.code).toBe(2);
    expect(noNew.stderr).toContain(`${dir}/empty: no .json documents`);
  });

  it("sums up a failing run and a strict one in its last line", async () => {
    const breaking = await runCli(["check", `${S}/v1.json`, `${S}/v2-breaking.json`, ...DOCS]);
    expect(breaking.stdout.trimEnd().split("\n").at(-1)).toBe(
      "backward: 2 of 2 fail OLD→NEW; forward: 2 of 3 fail NEW→OLD (information; --strict makes them fatal)",
    );
    const strict = await runCli(["check", `${S}/v1.json`, `${S}/v2.json`, ...DOCS, "--strict"]);
    expect(strict.stdout.trimEnd().split("\n").at(-1)).toBe(
      "backward: 2 documents ok; forward: 2 of 3 fail NEW→OLD (fatal with --strict)",
    );
    const json = JSON.parse(
      (await runCli(["check", `${S}/v1.json`, `${S}/v2.json`, ...DOCS, "--format", "json"])).stdout,
    );
    expect([json.backwardChecked, json.forwardChecked, json.summary]).toEqual([
      2,
      3,
      "backward: 2 documents ok; forward: 2 of 3 fail NEW→OLD (information; --strict makes them fatal)",
    ]);
  });

  it("checks OLD and NEW that share an $id each against its own schema", async () => {
    const id = "https://example.com/schemas/event.json";
    const dir = await writeTree({
      "old.json": {
        $id: id,
        properties: { n: { $ref: "#/definitions/n" } },
        definitions: { n: { type: "integer" } },
      },
      "new.json": {
        $id: id,
        properties: { n: { $ref: "#/definitions/n" } },
        definitions: { n: { type: "string" } },
      },
      "old-docs/a.json": { n: 1 },
      "new-docs/b.json": { n: "1" },
    });
    const result = await runCli([
      "check",
      `${dir}/old.json`,
      `${dir}/new.json`,
      "--old-docs",
      `${dir}/old-docs`,
      "--new-docs",
      `${dir}/new-docs`,
    ]);
    expect(result.stdout).toBe(
      [
        "backward  a.json       against new schema: FAIL (type at /n)",
        "forward   b.json       against old schema: FAIL (type at /n)",
        "backward: 1 of 1 fail OLD→NEW; forward: 1 of 1 fail NEW→OLD (information; --strict makes them fatal)",
        "",
      ].join("\n"),
    );
    expect(result.code).toBe(1);
  });

  it("reads schemas without $schema as draft-07 unless --default-dialect says otherwise", async () => {
    const dir = await writeTree({
      "old.json": { type: "array", items: [{ type: "string" }] },
      "new.json": { type: "array", items: [{ type: "string" }], additionalItems: false },
      "old-docs/a.json": ["a", 1],
      "new-docs/b.json": ["b"],
    });
    const args = [
      "check",
      `${dir}/old.json`,
      `${dir}/new.json`,
      "--old-docs",
      `${dir}/old-docs`,
      "--new-docs",
      `${dir}/new-docs`,
    ];
    const draft07 = await runCli(args);
    expect(draft07.stdout.split("\n")[0]).toBe(
      "backward  a.json       against new schema: FAIL (additionalItems at root)",
    );
    const modern = await runCli([...args, "--default-dialect", "2020-12"]);
    expect(modern.code).toBe(2);
    expect(modern.stderr).toContain(`${dir}/old.json: does not compile: #/items: must be object,boolean`);
    const bad = await runCli([...args, "--default-dialect", "draft-3"]);
    expect(bad.stderr).toContain("--default-dialect: unknown dialect 'draft-3'");
  });

  it("exits 2 with usage help for a missing flag or an unknown one", async () => {
    const missing = await runCli(["check", `${S}/v1.json`, `${S}/v2.json`]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--old-docs DIR is required");
    const unknown = await runCli(["check", "--bogus"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown flag --bogus");
    expect(unknown.stderr).toContain("schemawatch check --help");
  });

  it("prints help with --help and exits 0", async () => {
    const result = await runCli(["check", "--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: schemawatch check OLD NEW/);
  });
});

describe("schemawatch (top level)", () => {
  it("prints the version", async () => {
    const result = await runCli(["--version"]);
    expect(result.stdout).toBe("0.1.0\n");
    expect(result.code).toBe(0);
  });

  it("lists commands in --help", async () => {
    const result = await runCli(["--help"]);
    expect(result.code).toBe(0);
    const listed = [...result.stdout.matchAll(/^ {2}([a-z-]+) {2,}/gm)].map((m) => m[1]);
    expect(listed).toEqual([
      "run",
      "report",
      "readiness",
      "check",
      "matrix",
      "diff",
      "corpus",
      "registry",
      "prune",
      "demo-produce",
    ]);
  });

  it("exits 2 for an unknown command", async () => {
    const result = await runCli(["frobnicate"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "schemawatch: unknown command 'frobnicate'. Run 'schemawatch --help' for the list.\n",
    );
  });

  it("refuses an Avro schema: it validates JSON documents, and diff compares Avro", async () => {
    const pay = { type: "record", name: "Pay", fields: [{ name: "id", type: "string" }] };
    const dir = await writeTree({ "a.avsc": pay, "b.avsc": pay });
    const result = await runCli(["check", `${dir}/a.avsc`, `${dir}/b.avsc`, ...DOCS]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `schemawatch check: ${dir}/a.avsc is avro: check validates JSON documents; diff compares it\n`,
    );
  });

  it("reads a .proto file's imports as diff does, then refuses it the same way; a missing import is named", async () => {
    const pay = `syntax = "proto3";\npackage shop;\nimport "common/money.proto";\nmessage Pay { Money amount = 1; }\n`;
    const money = `syntax = "proto3";\npackage shop;\nmessage Money { int64 units = 1; }\n`;
    const dir = await writeTree({ "a.proto": pay, "b.proto": pay, "common/money.proto": money });
    const result = await runCli(["check", `${dir}/a.proto`, `${dir}/b.proto`, ...DOCS]);
    expect([result.code, result.stderr]).toEqual([
      2,
      `schemawatch check: ${dir}/a.proto is protobuf: check validates JSON documents; diff compares it\nRun 'schemawatch check --help' for usage.\n`,
    ]);
    const bare = await writeTree({ "a.proto": pay, "b.proto": pay });
    const missing = await runCli(["check", `${bare}/a.proto`, `${bare}/b.proto`, ...DOCS]);
    expect([missing.code, missing.stderr]).toEqual([
      2,
      `schemawatch check: ${bare}/a.proto: imports "common/money.proto", which is in none of the folders it is looked for in: ${bare}\n`,
    ]);
  });
});
