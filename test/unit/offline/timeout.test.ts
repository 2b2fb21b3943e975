// The offline commands validate within the live monitor's time budget: a document crafted against a
// pattern that backtracks stops the command with a message naming it, instead of a command that hangs.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { writeTree } from "../../helpers/files.js";

const EVIL = "a".repeat(40) + "!";

/** OLD has a linear pattern; NEW the same check with a backreference, left to the native engine. */
async function tree() {
  const schema = (pattern: string) => ({
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: { name: { type: "string", pattern } },
  });
  return writeTree({
    "old.json": schema("^(a+)+$"),
    "new.json": schema("^((a+)+)\\1?$"),
    "old-docs/a-ok.json": { name: "aaa" },
    "old-docs/b-evil.json": { name: EVIL },
    "new-docs/a-ok.json": { name: "aa" },
    "new-docs/b-evil.json": { name: EVIL },
  });
}

describe("the offline commands' time budget", () => {
  it("check: stops at the document past the budget, naming it and the pattern, exit 2", async () => {
    const root = await tree();
    const result = await runCli([
      "check",
      join(root, "old.json"),
      join(root, "new.json"),
      "--old-docs",
      join(root, "old-docs"),
      "--new-docs",
      join(root, "new-docs"),
    ]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      `schemawatch check: ${join(root, "old-docs/b-evil.json")}: its validation against ${join(root, "new.json")} ` +
        "did not finish within 100 ms (validationTimeout) and was stopped; the schema's patterns that " +
        "backtrack (lookaround or backreferences, which the linear-time engine cannot run): pattern at " +
        `${join(root, "new.json")}#/properties/name/pattern /^((a+)+)\\1?$/; rewrite them without lookaround and backreferences\n`,
    );
  });

  it("check: the nested quantifier the linear engine runs is judged, not stopped", async () => {
    const root = await tree();
    const result = await runCli([
      "check",
      join(root, "old.json"),
      join(root, "old.json"),
      "--old-docs",
      join(root, "old-docs"),
      "--new-docs",
      join(root, "new-docs"),
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout.split("\n")).toContain(
      "backward  b-evil.json  against new schema: FAIL (pattern at /name)",
    );
  });

  it("matrix and diff --docs stop the same way", async () => {
    const root = await tree();
    const matrix = await runCli([
      "matrix",
      "--schema",
      join(root, "old.json"),
      join(root, "new.json"),
      "--doc",
      join(root, "new-docs/a-ok.json"),
      join(root, "new-docs/b-evil.json"),
    ]);
    expect(matrix.code).toBe(2);
    expect(matrix.stderr).toContain(
      `${join(root, "new-docs/b-evil.json")}: its validation against ${join(root, "new.json")} did not finish within 100 ms`,
    );
    const diff = await runCli([
      "diff",
      join(root, "old.json"),
      join(root, "new.json"),
      "--docs",
      join(root, "new-docs"),
    ]);
    expect(diff.code).toBe(2);
    expect(diff.stderr).toContain(`${join(root, "new-docs/b-evil.json")}: its validation against`);
    expect(diff.stderr).toContain("#/properties/name/pattern /^((a+)+)\\1?$/");
  });

  it("report --source: a replayed capture's crafted records count as timeout, and the report ends", async () => {
    const line = (offset: number, name: string, version?: string) =>
      JSON.stringify({
        topic: "events",
        partition: 0,
        offset,
        timestamp: 1796112000000 + offset * 1000,
        key: null,
        headers: { producer: "partner", ...(version ? { "schema-version": version } : {}) },
        value: { name },
      });
    const capture = [line(0, "aaa", "1.1"), line(1, EVIL, "1.1"), line(2, EVIL), line(3, "aa", "1.0")];
    const dir = await writeTree({
      "capture.ndjson": capture.join("\n") + "\n",
      "schemas/1.0.json": {
        $id: "https://example.com/h/1.0.json",
        properties: { name: { pattern: "^(a+)+$" } },
      },
      "schemas/1.1.json": {
        $id: "https://example.com/h/1.1.json",
        properties: { name: { pattern: "^((a+)+)\\1?$" } },
      },
      "config.yaml": `validationTimeout: 50ms
subjects:
  - name: hostile
    topics: [events]
    schemas: schemas
    versions:
      "1.0.0": { status: deprecated }
      "1.1.0": { status: active }
`,
    });
    const result = await runCli([
      "report",
      "--config",
      join(dir, "config.yaml"),
      "--source",
      `file:${join(dir, "capture.ndjson")}`,
      "--format",
      "json",
    ]);
    expect([result.code, result.stderr]).toEqual([0, ""]);
    const report = JSON.parse(result.stdout) as {
      subjects: Array<{ records: number; unknownUse: Array<{ reason: string; records: number }> }>;
      decodeErrors: Record<string, Record<string, number>>;
    };
    // All four counted; the two crafted ones as timeout, the undeclared one also unknown use.
    expect(report.subjects[0]!.records).toBe(4);
    expect(report.decodeErrors["events"]).toEqual({ timeout: 2 });
    expect(report.subjects[0]!.unknownUse.map((u) => [u.reason, u.records])).toEqual([["timeout", 1]]);
  });
});
