// `--ref FILE|DIR` and `--ref URL=FILE` (src/cli/commands/schema-refs.ts): the documents a schema's
// `$ref`s name by URL, for `diff` and `check`. Without them the `$ref` is refused, naming the URL and
// the schema that holds it; nothing is fetched from the network (the URLs here resolve nowhere).
import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { writeTree } from "../../helpers/files.js";

const MONEY = "https://schemas.invalid/money.json";
const order = (maximum: number) => ({
  $id: "https://schemas.invalid/order.json",
  type: "object",
  properties: { total: { $ref: MONEY }, note: { type: "string", maxLength: maximum } },
});
const money = { $id: MONEY, type: "integer", minimum: 0 };

async function tree(): Promise<string> {
  return writeTree({
    "old.json": order(10),
    "new.json": order(5),
    "refs/money.json": money,
    // The same document without its $id: found only by a URL=FILE mapping.
    "plain/money.json": { type: "integer", minimum: 0 },
    "docs/a.json": { total: 3, note: "abcdefg" },
  });
}

describe("diff and check with a $ref to another schema by URL", () => {
  it("are refused without --ref, naming the URL and the schema that holds it", async () => {
    const dir = await tree();
    for (const args of [
      ["diff", `${dir}/old.json`, `${dir}/new.json`],
      [
        "check",
        `${dir}/old.json`,
        `${dir}/new.json`,
        "--old-docs",
        `${dir}/docs`,
        "--new-docs",
        `${dir}/docs`,
      ],
    ]) {
      const result = await runCli(args);
      expect(result.code, args[0]).toBe(2);
      expect(result.stderr).toBe(
        `schemawatch ${args[0]}: ${dir}/old.json: #/properties/total/$ref: can't resolve reference ${MONEY} ` +
          `from id https://schemas.invalid/order.json (remote refs are never fetched; put the referenced schema ` +
          `in the catalog or its shared files); give the referenced schema with --ref FILE|DIR\n`,
      );
    }
  });

  it("decide with --ref DIR (matched by $id), --ref FILE, and --ref URL=FILE", async () => {
    const dir = await tree();
    for (const ref of [`${dir}/refs`, `${dir}/refs/money.json`, `${MONEY}=${dir}/plain/money.json`]) {
      const result = await runCli([
        "diff",
        `${dir}/old.json`,
        `${dir}/new.json`,
        "--ref",
        ref,
        "--format",
        "json",
      ]);
      expect(result.code, ref).toBe(1);
      const json = JSON.parse(result.stdout) as { backward: string; forward: string; changes: unknown[] };
      expect({ backward: json.backward, forward: json.forward }).toEqual({
        backward: "breaks",
        forward: "ok",
      });
      expect(json.changes).toEqual([
        {
          kind: "max-length-decreased",
          path: "/properties/note/maxLength",
          backward: "breaks",
          forward: "ok",
          reason: "maxLength 10 -> 5: a tighter limit rejects some documents OLD accepted",
          breaksUnder: "both",
          witness: { backward: { note: "aaaaaa" } },
        },
      ]);
    }
    const checked = await runCli([
      "check",
      `${dir}/old.json`,
      `${dir}/new.json`,
      "--old-docs",
      `${dir}/docs`,
      "--new-docs",
      `${dir}/docs`,
      "--ref",
      `${dir}/refs`,
    ]);
    expect(checked.code).toBe(1);
    expect(checked.stdout).toBe(
      "backward  a.json       against new schema: FAIL (maxLength at /note)\n" +
        "forward   a.json       against old schema: ok\n" +
        "backward: 1 of 1 fail OLD→NEW; forward: 1 document ok\n",
    );
  });

  it("refuses two documents for one URL", async () => {
    const dir = await tree();
    const result = await runCli([
      "diff",
      `${dir}/old.json`,
      `${dir}/new.json`,
      "--ref",
      `${dir}/refs`,
      "--ref",
      `${MONEY}=${dir}/plain/money.json`,
    ]);
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr: `schemawatch diff: --ref: ${dir}/refs/money.json and ${dir}/plain/money.json both stand for ${MONEY}; a $ref to it would be ambiguous\n`,
    });
  });
});
