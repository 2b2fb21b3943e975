import { describe, expect, it } from "vitest";
import { diffCommand } from "../../../src/cli/commands/diff.js";
import { isSchemawatchError } from "../../../src/errors.js";
import { writeTree } from "../../helpers/files.js";

const S = "examples/article/schemas";
const F = "test/unit/diff/fixtures";

/** Runs the command as main does: a thrown SchemawatchError is exit 2 with its message. */
async function diff(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const context = {
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => (stderr += chunk) },
    env: {},
    cwd: process.cwd(),
    stopSignal: new AbortController().signal,
  };
  try {
    return { code: await diffCommand.run(args, context), stdout, stderr };
  } catch (error) {
    if (!isSchemawatchError(error)) throw error;
    return { code: 2, stdout, stderr: `${error.code}: ${error.message}` };
  }
}

describe("schemawatch diff OLD NEW", () => {
  it("gives the article's verdict for v1 -> v2 under lenient and exits 0", async () => {
    const result = await diff(`${S}/v1.json`, `${S}/v2.json`, "--policy", "lenient");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("ok        BREAKS    property-added-closed at /properties/amount");
    expect(result.stdout).toContain("ok        BREAKS    enum-value-added at /properties/event/enum");
    expect(result.stdout).toContain("backward ok, forward breaks; needs a minor bump");
    expect(result.stdout).toContain("declared minor (1.0.0 -> 1.1.0): ok");
  });

  it("prints JSON with compatibility, both directions, the bump and every change", async () => {
    const result = await diff(
      `${S}/v1.json`,
      `${S}/v2-optional-amount.json`,
      "--policy",
      "lenient",
      "--format",
      "json",
    );
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json).toMatchObject({
      compatibility: "BACKWARD",
      backward: "ok",
      forward: "breaks",
      bump: "minor",
    });
    expect(json.changes).toContainEqual({
      kind: "property-added-closed",
      path: "/properties/amount",
      backward: "ok",
      forward: "breaks",
      reason: expect.stringContaining("amount"),
      breaksUnder: "both",
      witness: { forward: { id: 0, event: "view", amount: 0 } },
    });
  });

  it("prints each break's witness under its change", async () => {
    const result = await diff(`${S}/v1.json`, `${S}/v2-required-amount.json`);
    const lines = result.stdout.split("\n");
    const at = lines.findIndex((l) => l.includes("required-added at /required/2"));
    expect(lines.slice(at, at + 3)).toEqual([
      "  BREAKS    ok        required-added at /required/2",
      '                      NEW requires "amount"; OLD documents without it fail NEW',
      '                      witness (backward): {"id":0,"event":"view"}',
    ]);
  });

  it("reads schemas without $schema as draft-07: $ref siblings are ignored, tuples compile", async () => {
    const dir = await writeTree({
      "1.0.json": {
        definitions: { s: { type: "string" } },
        properties: { a: { $ref: "#/definitions/s", maxLength: 5 } },
      },
      "1.1.json": {
        definitions: { s: { type: "string" } },
        properties: { a: { $ref: "#/definitions/s", maxLength: 3 } },
      },
      "t1.json": { type: "array", items: [{ type: "string" }] },
      "t2.json": { type: "array", items: [{ type: "string" }], additionalItems: false },
    });
    const siblings = JSON.parse(
      (await diff(`${dir}/1.0.json`, `${dir}/1.1.json`, "--format", "json")).stdout,
    );
    // Draft-07 ignores keywords beside $ref, and so does the validator (issue 27): no change.
    expect(siblings).toMatchObject({ backward: "ok", forward: "ok", bump: "patch", ok: true });
    expect(siblings.changes.map((c: { kind: string }) => c.kind)).toEqual(["equivalent-rewrite"]);
    const tuple = JSON.parse((await diff(`${dir}/t1.json`, `${dir}/t2.json`, "--format", "json")).stdout);
    expect(tuple.changes[0]).toMatchObject({ kind: "additional-items-closed", backward: "breaks" });
    const modern = await diff(`${dir}/t1.json`, `${dir}/t2.json`, "--default-dialect", "2020-12");
    expect(modern.code).toBe(2);
    expect(modern.stderr).toContain("t1.json: does not compile: #/items: must be object,boolean");
  });

  it("compares OLD and NEW that share an $id, each with its own $refs", async () => {
    const id = "https://example.com/schemas/event.json";
    const version = (type: string) => ({
      $id: id,
      properties: { n: { $ref: "#/definitions/n" } },
      definitions: { n: { type } },
    });
    const dir = await writeTree({ "1.0.json": version("integer"), "1.1.json": version("number") });
    const json = JSON.parse((await diff(`${dir}/1.0.json`, `${dir}/1.1.json`, "--format", "json")).stdout);
    expect(json).toMatchObject({ backward: "ok", forward: "breaks", bump: "minor", ok: true });
    expect(json.changes).toContainEqual(
      expect.objectContaining({ kind: "type-widened", witness: { forward: { n: 0.5 } } }),
    );
  });

  it("treats format as an annotation unless --assert-formats (drafts 04 to 07)", async () => {
    const dir = await writeTree({
      "1.0.json": { type: "string" },
      "1.1.json": { type: "string", format: "email" },
    });
    const plain = JSON.parse((await diff(`${dir}/1.0.json`, `${dir}/1.1.json`, "--format", "json")).stdout);
    expect(plain).toMatchObject({ backward: "ok", forward: "ok", bump: "patch" });
    const asserted = JSON.parse(
      (await diff(`${dir}/1.0.json`, `${dir}/1.1.json`, "--assert-formats", "--format", "json")).stdout,
    );
    expect(asserted).toMatchObject({ backward: "breaks", forward: "ok", bump: "major" });
    expect(asserted.changes[0]).toMatchObject({ kind: "format-added", witness: { backward: "" } });
  });

  it("exits 1 when a breaking change is released as a minor version", async () => {
    const result = await diff(`${S}/v1.json`, `${S}/v2-breaking.json`, "--format", "json");
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ bump: "major", declared: "minor", ok: false });
  });

  it("takes the declared bump from --expect", async () => {
    expect((await diff(`${S}/v1.json`, `${S}/v2-breaking.json`, "--expect", "major")).code).toBe(0);
    const patch = await diff(`${S}/v1.json`, `${S}/v2.json`, "--expect", "patch");
    expect(patch.code).toBe(1);
    expect(patch.stdout).toContain("declared patch (--expect): FAIL");
  });

  it("without a declared version fails only when something breaks backward", async () => {
    const dir = await writeTree({
      "a.json": { type: "string", maxLength: 5 },
      "b.json": { type: "string", maxLength: 9 },
      "c.json": { type: "string", maxLength: 2 },
    });
    expect((await diff(`${dir}/a.json`, `${dir}/b.json`)).code).toBe(0);
    const breaking = await diff(`${dir}/a.json`, `${dir}/c.json`);
    expect(breaking.code).toBe(1);
    expect(breaking.stdout).toContain("no declared version");
  });

  it("settles an undecided pattern change with --docs", async () => {
    // Backward holds (three capitals still match) but patterns are not compared: undecided. Forward a
    // witness proves.
    const without = await diff(`${F}/pattern/old.json`, `${F}/pattern/new.json`, "--format", "json");
    expect(JSON.parse(without.stdout)).toMatchObject({ backward: "undecided", forward: "breaks" });
    const result = await diff(
      `${F}/pattern/old.json`,
      `${F}/pattern/new.json`,
      "--docs",
      `${F}/pattern/docs`,
      "--format",
      "json",
    );
    const json = JSON.parse(result.stdout);
    expect(json).toMatchObject({
      backward: "ok",
      forward: "breaks",
      compatibility: "BACKWARD",
      bump: "minor",
    });
    expect(json.documents).toEqual({
      checked: 3,
      validOld: 2,
      validNew: 3,
      backward: [],
      forward: ["c-digit.json"],
    });
    expect(result.code).toBe(0);
  });

  it("exits 2 naming a file that is not JSON", async () => {
    const dir = await writeTree({ "old.json": "{not json", "new.json": { type: "string" } });
    const result = await diff(`${dir}/old.json`, `${dir}/new.json`);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^NOT_JSON: .*old\.json: not valid JSON/);
  });

  it("exits 2 naming a schema that does not compile", async () => {
    const dir = await writeTree({ "old.json": { type: "string" }, "new.json": { type: 5 } });
    const result = await diff(`${dir}/old.json`, `${dir}/new.json`);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^SCHEMA_INVALID: .*new\.json/);
  });

  it("exits 2 for an unreadable file and for bad flags", async () => {
    const missing = await diff(`${S}/v1.json`, `${S}/nope.json`);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^FILE_UNREADABLE: .*nope\.json/);
    expect((await diff(`${S}/v1.json`, `${S}/v2.json`, "--policy", "loose")).stderr).toMatch(
      /--policy must be one of/,
    );
    expect((await diff(`${S}/v1.json`)).code).toBe(2);
  });

  it("exits 2 when NEW's version is older than OLD's", async () => {
    const result = await diff(`${S}/v2.json`, `${S}/v1.json`);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("is not after");
  });
});

describe("schemawatch diff --config", () => {
  it("checks each version against every earlier one and flags a breaking minor release", async () => {
    const result = await diff("--config", `${F}/config.yaml`, "--subject", "order", "--format", "json");
    expect(result.code).toBe(1);
    const json = JSON.parse(result.stdout);
    const pairs = json.subjects[0].pairs.map((p: Record<string, unknown>) => [
      p["oldVersion"],
      p["newVersion"],
      p["bump"],
      p["declared"],
      p["ok"],
    ]);
    expect(pairs).toEqual([
      ["1.0.0", "1.1.0", "minor", "minor", true],
      ["1.0.0", "1.2.0", "major", "minor", false],
      ["1.1.0", "1.2.0", "major", "minor", false],
    ]);
  });

  it("prints one line per pair and the details of failing ones", async () => {
    const result = await diff("--config", `${F}/config.yaml`);
    expect(result.stdout).toMatch(/order 1\.0\.0 -> 1\.1\.0 +BACKWARD +needs minor, declared minor: ok/);
    expect(result.stdout).toContain("required-added at /required/1");
  });

  it("compares versions that share one $id, each with its own $refs and the shared files", async () => {
    const id = "https://example.com/schemas/order.json";
    const version = (amount: unknown, extra: Record<string, unknown> = {}) => ({
      $id: id,
      type: "object",
      properties: { amount: { $ref: "#/definitions/amount" }, money: { $ref: "common/money.json" } },
      definitions: { amount: amount },
      ...extra,
    });
    const dir = await writeTree({
      "config.yaml":
        "shared: [schemas/common]\nsubjects:\n  - name: order\n    topics: [orders]\n    schemas: schemas/order\n",
      "schemas/order/1.0.json": version({ type: "integer" }),
      "schemas/order/1.1.json": version({ type: "number" }),
      "schemas/order/2.0.json": version({ type: "number" }, { required: ["amount"] }),
      "schemas/common/money.json": { $id: "https://example.com/schemas/common/money.json", type: "string" },
    });
    const result = await diff("--config", `${dir}/config.yaml`, "--format", "json");
    expect(result.code).toBe(0);
    const pairs = JSON.parse(result.stdout).subjects[0].pairs.map((p: Record<string, unknown>) => [
      p["oldVersion"],
      p["newVersion"],
      p["compatibility"],
      p["bump"],
    ]);
    expect(pairs).toEqual([
      ["1.0.0", "1.1.0", "BACKWARD", "minor"],
      ["1.0.0", "2.0.0", "NONE", "major"],
      ["1.1.0", "2.0.0", "FORWARD", "major"],
    ]);
  });

  it("passes on the bundled example catalog", async () => {
    expect((await diff("--config", "examples/config.yaml", "--subject", "event")).code).toBe(0);
  });

  it("exits 2 for an unknown subject", async () => {
    const result = await diff("--config", `${F}/config.yaml`, "--subject", "nope");
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^SUBJECT_UNKNOWN: .*no subject 'nope'/);
  });
});
