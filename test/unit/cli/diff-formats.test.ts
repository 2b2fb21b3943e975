import { describe, expect, it } from "vitest";
import { diffCommand } from "../../../src/cli/commands/diff.js";
import { isSchemawatchError } from "../../../src/errors.js";
import { writeTree } from "../../helpers/files.js";

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

const PAY_1 = { type: "record", name: "Pay", fields: [{ name: "id", type: "string" }] };
const PAY_2 = {
  type: "record",
  name: "Pay",
  fields: [
    { name: "id", type: "string" },
    { name: "amount", type: "long" },
  ],
};
const PAY_2_DEFAULT = {
  type: "record",
  name: "Pay",
  fields: [
    { name: "id", type: "string" },
    { name: "amount", type: "long", default: 0 },
  ],
};

const proto = (amount: string) =>
  `syntax = "proto3";\npackage pay;\nmessage Pay { string id = 1; ${amount} amount = 2; }\n`;

describe("schemawatch diff OLD NEW on Avro files", () => {
  it("names the break, its rule and place, and the witness as JSON and bytes; the major bump is declared", async () => {
    const dir = await writeTree({ "pay-1.0.avsc": PAY_1, "pay-2.0.avsc": PAY_2 });
    const result = await diff(`${dir}/pay-1.0.avsc`, `${dir}/pay-2.0.avsc`);
    expect(result.stdout).toBe(
      [
        `${dir}/pay-1.0.avsc -> ${dir}/pay-2.0.avsc (policy strict)`,
        "  backward  forward   change",
        "  BREAKS    ok        missing-default at /amount",
        "                      the reader has a field the writer does not write, and no default to fill it",
        '                      witness (backward): {"record":{"id":""},"hex":"00","base64":"AA=="}',
        "compatibility FORWARD: upgrade producers first; the new schema rejects some old records",
        "backward breaks, forward ok; needs a major bump",
        "declared major (1.0.0 -> 2.0.0): ok",
        "",
      ].join("\n"),
    );
    expect(result.code).toBe(0);
  });

  it("exits 1 when the declared bump understates the break, and prints the same in JSON", async () => {
    const dir = await writeTree({ "pay-1.0.avsc": PAY_1, "pay-1.1.avsc": PAY_2 });
    const result = await diff(`${dir}/pay-1.0.avsc`, `${dir}/pay-1.1.avsc`, "--format", "json");
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({
      old: `${dir}/pay-1.0.avsc`,
      new: `${dir}/pay-1.1.avsc`,
      policy: "strict",
      compatibility: "FORWARD",
      backward: "breaks",
      forward: "ok",
      bump: "major",
      declared: "minor",
      ok: false,
      changes: [
        {
          kind: "missing-default",
          path: "/amount",
          backward: "breaks",
          forward: "ok",
          reason: "the reader has a field the writer does not write, and no default to fill it",
          breaksUnder: "both",
          witness: { backward: { record: { id: "" }, hex: "00", base64: "AA==" } },
        },
      ],
    });
  });

  it("reads a field added with a default as compatible both ways but not whole: FULL, a minor bump", async () => {
    const dir = await writeTree({ "pay-1.0.avsc": PAY_1, "pay-1.1.avsc": PAY_2_DEFAULT });
    const result = await diff(`${dir}/pay-1.0.avsc`, `${dir}/pay-1.1.avsc`);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        `${dir}/pay-1.0.avsc -> ${dir}/pay-1.1.avsc (policy strict)`,
        "  backward  forward   change",
        "  ok        ok        schema-changed at the root",
        "                      each side reads every record the other writes, but drops or defaults some of what it wrote (Avro schema resolution)",
        "compatibility FULL: safe to deploy in any order",
        "backward ok, forward ok; needs a minor bump",
        "declared minor (1.0.0 -> 1.1.0): ok",
        "",
      ].join("\n"),
    );
  });

  it("calls a change no record reads differently either way a patch: a doc, a field moved, an alias", async () => {
    const docs = {
      ...PAY_2_DEFAULT,
      doc: "A payment.",
      fields: [
        { name: "amount", type: "long", default: 0, doc: "In cents." },
        { name: "id", type: "string", aliases: ["payment_id"] },
      ],
    };
    const dir = await writeTree({ "pay-1.1.avsc": PAY_2_DEFAULT, "pay-1.1.1.avsc": docs });
    const result = await diff(`${dir}/pay-1.1.avsc`, `${dir}/pay-1.1.1.avsc`);
    expect([result.code, result.stdout]).toEqual([
      0,
      [
        `${dir}/pay-1.1.avsc -> ${dir}/pay-1.1.1.avsc (policy strict)`,
        "  backward  forward   change",
        "  ok        ok        schema-changed at the root",
        "                      each side reads every record the other writes, whole: nothing dropped or defaulted (Avro schema resolution)",
        "compatibility FULL: safe to deploy in any order",
        "backward ok, forward ok; needs a patch bump",
        "declared patch (1.1.0 -> 1.1.1): ok",
        "",
      ].join("\n"),
    ]);
    // A patch release may not add a field, even with a default: records carry it.
    const added = await writeTree({ "pay-1.0.avsc": PAY_1, "pay-1.0.1.avsc": PAY_2_DEFAULT });
    const understated = await diff(`${added}/pay-1.0.avsc`, `${added}/pay-1.0.1.avsc`);
    expect(understated.code).toBe(1);
    expect(understated.stdout).toContain(
      "declared patch (1.0.0 -> 1.0.1): FAIL: the release number understates the change\n",
    );
  });

  it("gives the same verdicts under --policy lenient (a record carries only its writer's fields), and says the policy", async () => {
    const dir = await writeTree({ "pay-1.0.avsc": PAY_1, "pay-1.1.avsc": PAY_2 });
    const strict = await diff(`${dir}/pay-1.0.avsc`, `${dir}/pay-1.1.avsc`, "--format", "json");
    const lenient = await diff(
      `${dir}/pay-1.0.avsc`,
      `${dir}/pay-1.1.avsc`,
      "--format",
      "json",
      "--policy",
      "lenient",
    );
    expect(lenient.code).toBe(1);
    expect(JSON.parse(lenient.stdout)).toEqual({ ...JSON.parse(strict.stdout), policy: "lenient" });
    expect(JSON.parse(lenient.stdout).changes.map((c: { breaksUnder?: string }) => c.breaksUnder)).toEqual([
      "both",
    ]);
  });
});

describe("schemawatch diff OLD NEW on Protobuf files", () => {
  it("shows both witnesses of a field's type change with the message, JSON view and bytes", async () => {
    const dir = await writeTree({ "pay-1.0.proto": proto("int64"), "pay-1.1.proto": proto("string") });
    const result = await diff(`${dir}/pay-1.0.proto`, `${dir}/pay-1.1.proto`);
    expect(result.stdout).toBe(
      [
        `${dir}/pay-1.0.proto -> ${dir}/pay-1.1.proto (policy strict)`,
        "  backward  forward   change",
        "  BREAKS    BREAKS    field-type-changed at pay.Pay.amount(#2)",
        "                      int64 becomes string; backward: misreads (type_reinterpreted at /amount); forward: misreads (type_reinterpreted at /amount)",
        '                      witness (backward): {"message":"pay.Pay","record":{"amount":"-1"},"hex":"10ffffffffffffffffff01","base64":"EP///////////wE="}',
        '                      witness (forward): {"message":"pay.Pay","record":{"amount":"é"},"hex":"1202c3a9","base64":"EgLDqQ=="}',
        "compatibility NONE: needs a coordinated release or a new major version side by side",
        "backward breaks, forward breaks; needs a major bump",
        "declared minor (1.0.0 -> 1.1.0): FAIL: the release number understates the change",
        "",
      ].join("\n"),
    );
    expect(result.code).toBe(1);
  });

  it("says no changes for the same file twice and exits 0", async () => {
    const dir = await writeTree({ "a.proto": proto("int64"), "b.proto": proto("int64") });
    const result = await diff(`${dir}/a.proto`, `${dir}/b.proto`, "--expect", "patch");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("  no changes\n");
    expect(result.stdout).toContain("backward ok, forward ok; needs a none bump\n");
  });

  it("calls comments and layout a patch, and a field added a minor (its records carry more)", async () => {
    const commented = `// Payments.\nsyntax = "proto3";\npackage pay;\n\n/** A payment. */\nmessage Pay {\n  string id = 1; // the key\n  int64 amount = 2;\n}\n`;
    const added = `syntax = "proto3";\npackage pay;\nmessage Pay { string id = 1; int64 amount = 2; string note = 3; }\n`;
    const dir = await writeTree({
      "pay-1.0.proto": proto("int64"),
      "pay-1.0.1.proto": commented,
      "pay-1.0.2.proto": added,
    });
    const patch = await diff(`${dir}/pay-1.0.proto`, `${dir}/pay-1.0.1.proto`);
    expect([patch.code, patch.stdout]).toEqual([
      0,
      [
        `${dir}/pay-1.0.proto -> ${dir}/pay-1.0.1.proto (policy strict)`,
        "  backward  forward   change",
        "  ok        ok        schema-changed at pay",
        "                      the files differ, but no message, field or enum value a record carries does (comments, options, layout)",
        "compatibility FULL: safe to deploy in any order",
        "backward ok, forward ok; needs a patch bump",
        "declared patch (1.0.0 -> 1.0.1): ok",
        "",
      ].join("\n"),
    ]);
    const minor = await diff(`${dir}/pay-1.0.proto`, `${dir}/pay-1.0.2.proto`);
    expect(minor.code).toBe(1);
    expect(minor.stdout.split("\n").slice(-4)).toEqual([
      "compatibility FULL: safe to deploy in any order",
      "backward ok, forward ok; needs a minor bump",
      "declared patch (1.0.0 -> 1.0.2): FAIL: the release number understates the change",
      "",
    ]);
  });

  it("gives the same verdicts under --policy lenient, each break breaking under both", async () => {
    const dir = await writeTree({ "pay-1.0.proto": proto("int64"), "pay-2.0.proto": proto("string") });
    const args = [`${dir}/pay-1.0.proto`, `${dir}/pay-2.0.proto`, "--format", "json"];
    const strict = JSON.parse((await diff(...args)).stdout) as { changes: { breaksUnder?: string }[] };
    const lenient = await diff(...args, "--policy", "lenient");
    expect(lenient.code).toBe(0);
    expect(JSON.parse(lenient.stdout)).toEqual({ ...strict, policy: "lenient" });
    expect(strict.changes.map((c) => c.breaksUnder)).toEqual(["both"]);
  });

  it("reads each file's imports from its own folder (google/protobuf without a file) and compares the types they give", async () => {
    const money = (currency: string) =>
      `syntax = "proto3";\npackage shop;\nmessage Money { int64 units = 1; ${currency} currency = 2; }\n`;
    const pay = `syntax = "proto3";\npackage shop;\nimport "common/money.proto";\nimport "google/protobuf/timestamp.proto";\nmessage Pay { Money amount = 1; google.protobuf.Timestamp at = 2; }\n`;
    const dir = await writeTree({
      "v1/common/money.proto": money("string"),
      "v1/pay-1.0.proto": pay,
      "v2/common/money.proto": money("bytes"),
      "v2/pay-1.1.proto": pay,
    });
    const result = await diff(`${dir}/v1/pay-1.0.proto`, `${dir}/v2/pay-1.1.proto`);
    expect(result.stdout).toBe(
      [
        `${dir}/v1/pay-1.0.proto -> ${dir}/v2/pay-1.1.proto (policy strict)`,
        "  backward  forward   change",
        // The change is in the imported file: Money.currency, string in v1's and bytes in v2's.
        "  ok        BREAKS    field-type-changed at shop.Money.currency(#2)",
        "                      string becomes bytes; forward: misreads (not_utf8 at /currency)",
        '                      witness (forward): {"message":"shop.Money","record":{"currency":"/w=="},"hex":"1201ff","base64":"EgH/"}',
        "compatibility BACKWARD: upgrade consumers first; old consumers reject some new records",
        "backward ok, forward breaks; needs a minor bump",
        "declared minor (1.0.0 -> 1.1.0): ok",
        "",
      ].join("\n"),
    );
    expect(result.code).toBe(0);
  });

  it("calls enum values of an imported file that swap numbers a major change, where a patch was declared", async () => {
    const status = (on: number, off: number) =>
      `syntax = "proto3";\npackage shop;\nenum Status { UNKNOWN = 0; ON = ${on}; OFF = ${off}; }\n`;
    const device = `syntax = "proto3";\npackage shop;\nimport "common/status.proto";\nmessage Device { Status status = 1; }\n`;
    const dir = await writeTree({
      "v1/common/status.proto": status(1, 2),
      "v1/device-1.0.proto": device,
      "v2/common/status.proto": status(2, 1),
      "v2/device-1.0.1.proto": device,
    });
    const result = await diff(`${dir}/v1/device-1.0.proto`, `${dir}/v2/device-1.0.1.proto`);
    expect([result.code, result.stdout]).toEqual([
      1,
      [
        `${dir}/v1/device-1.0.proto -> ${dir}/v2/device-1.0.1.proto (policy strict)`,
        "  backward  forward   change",
        "  BREAKS    BREAKS    enum-value-renumbered at shop.Status.ON(=2)",
        "                      ON moves from 1 to 2, so the meaning changes though every record decodes: a new reader reads OLD's ON (1) as OFF, an old reader reads NEW's ON (2) as OFF",
        "  BREAKS    BREAKS    enum-value-renumbered at shop.Status.OFF(=1)",
        "                      OFF moves from 2 to 1, so the meaning changes though every record decodes: a new reader reads OLD's OFF (2) as ON, an old reader reads NEW's OFF (1) as ON",
        "compatibility NONE: needs a coordinated release or a new major version side by side",
        "backward breaks, forward breaks; needs a major bump",
        "declared patch (1.0.0 -> 1.0.1): FAIL: the release number understates the change",
        "",
      ].join("\n"),
    ]);
  });

  it("compares two files of enums only (a registry's shared enum subject): a swapped number is a major change", async () => {
    const dir = await writeTree({
      "status-1.0.proto": `syntax = "proto3";\npackage shop;\nenum Status { UNKNOWN = 0; ON = 1; OFF = 2; }\n`,
      "status-1.0.1.proto": `syntax = "proto3";\npackage shop;\nenum Status { UNKNOWN = 0; ON = 2; OFF = 1; PAUSED = 3; }\n`,
    });
    const result = await diff(`${dir}/status-1.0.proto`, `${dir}/status-1.0.1.proto`);
    expect([result.code, result.stdout, result.stderr]).toEqual([
      1,
      [
        `${dir}/status-1.0.proto -> ${dir}/status-1.0.1.proto (policy strict)`,
        "  backward  forward   change",
        "  BREAKS    BREAKS    enum-value-renumbered at shop.Status.ON(=2)",
        "                      ON moves from 1 to 2, so the meaning changes though every record decodes: a new reader reads OLD's ON (1) as OFF, an old reader reads NEW's ON (2) as OFF",
        "  BREAKS    BREAKS    enum-value-renumbered at shop.Status.OFF(=1)",
        "                      OFF moves from 2 to 1, so the meaning changes though every record decodes: a new reader reads OLD's OFF (2) as ON, an old reader reads NEW's OFF (1) as ON",
        "  ok        ok        enum-value-added at shop.Status.PAUSED(=3)",
        "                      an old reader gets a number it has no name for (loses its name)",
        "compatibility NONE: needs a coordinated release or a new major version side by side",
        "backward breaks, forward breaks; needs a major bump",
        "declared patch (1.0.0 -> 1.0.1): FAIL: the release number understates the change",
        "",
      ].join("\n"),
      "",
    ]);
  });

  it("speaks of the files that import two files of enums only, not of records, when an enum goes or comes", async () => {
    const both = `syntax = "proto3";\npackage shop;\nenum Status { UNKNOWN = 0; ON = 1; }\nenum Kind { NONE = 0; }\n`;
    const kind = `syntax = "proto3";\npackage shop;\nenum Kind { NONE = 0; }\n`;
    const dir = await writeTree({ "both.proto": both, "kind.proto": kind });
    const removed = await diff(`${dir}/both.proto`, `${dir}/kind.proto`);
    expect([removed.code, removed.stdout, removed.stderr]).toEqual([
      1,
      [
        `${dir}/both.proto -> ${dir}/kind.proto (policy strict)`,
        "  backward  forward   change",
        "  BREAKS    ok        enum-removed at shop.Status",
        "                      enum Status is removed: a file that imports OLD and uses Status cannot be read with NEW",
        "compatibility FORWARD: upgrade producers first (of the files that import it); NEW lacks some of what OLD declares",
        "backward breaks, forward ok; needs a major bump",
        "no declared version (give $id or file names a semver, or pass --expect): FAIL: a change that can break a file that imports OLD",
        "",
      ].join("\n"),
      "",
    ]);
    const added = await diff(`${dir}/kind.proto`, `${dir}/both.proto`);
    expect(added.stdout.split("\n").slice(4, 7)).toEqual([
      "compatibility BACKWARD: upgrade consumers first (of the files that import it); OLD lacks some of what NEW declares",
      "backward ok, forward breaks; needs a minor bump",
      "no declared version (give $id or file names a semver, or pass --expect): ok",
    ]);
    // One side with a message: its records are what the verdict speaks of, as for any message file.
    const withMessage = await writeTree({
      "a.proto": `${kind}message Order { Kind kind = 1; }\n`,
      "b.proto": `${both}message Order { Kind kind = 1; }\n`,
    });
    const records = await diff(`${withMessage}/b.proto`, `${withMessage}/a.proto`);
    expect(records.stdout).toContain("compatibility FULL: safe to deploy in any order\n");
    const message = await diff(`${withMessage}/a.proto`, `${dir}/kind.proto`);
    expect(message.stdout).toContain(
      "compatibility FORWARD: upgrade producers first; the new schema rejects some old records\n",
    );
  });

  it("calls a message file followed by a file of enums only a removed message, which breaks OLD's records", async () => {
    const dir = await writeTree({
      "order-1.0.proto": `syntax = "proto3";\npackage shop;\nenum Status { UNKNOWN = 0; ON = 1; }\nmessage Order { Status status = 1; }\n`,
      "order-1.1.proto": `syntax = "proto3";\npackage shop;\nenum Status { UNKNOWN = 0; ON = 1; }\n`,
    });
    const result = await diff(`${dir}/order-1.0.proto`, `${dir}/order-1.1.proto`);
    expect([result.code, result.stdout, result.stderr]).toEqual([
      1,
      [
        `${dir}/order-1.0.proto -> ${dir}/order-1.1.proto (policy strict)`,
        "  backward  forward   change",
        "  BREAKS    ok        message-removed at shop.Order",
        "                      the message is removed; backward: misreads (message_unknown at the record)",
        '                      witness (backward): {"message":"shop.Order","record":{},"hex":"","base64":""}',
        "compatibility FORWARD: upgrade producers first; the new schema rejects some old records",
        "backward breaks, forward ok; needs a major bump",
        "declared minor (1.0.0 -> 1.1.0): FAIL: the release number understates the change",
        "",
      ].join("\n"),
      "",
    ]);
  });

  it("exits 2 on a file that declares neither a message nor an enum, naming it", async () => {
    const enums = `syntax = "proto3";\npackage shop;\nenum Status { UNKNOWN = 0; ON = 1; }\n`;
    const dir = await writeTree({
      "status-1.0.proto": enums,
      "status-1.1.proto": `syntax = "proto3";\npackage shop;\n`,
    });
    const result = await diff(`${dir}/status-1.0.proto`, `${dir}/status-1.1.proto`);
    expect([result.code, result.stdout, result.stderr]).toEqual([
      2,
      "",
      `SCHEMA_INVALID: ${dir}/status-1.1.proto: declares neither a message nor an enum: nothing in it is a record or what a record holds`,
    ]);
  });

  it("exits 2 naming the importing file and the import when no folder holds it", async () => {
    const pay = `syntax = "proto3";\npackage shop;\nimport "common/money.proto";\nmessage Pay { Money amount = 1; }\n`;
    const dir = await writeTree({ "pay-1.0.proto": pay, "pay-1.1.proto": pay });
    const result = await diff(`${dir}/pay-1.0.proto`, `${dir}/pay-1.1.proto`);
    expect([result.code, result.stderr]).toEqual([
      2,
      `SCHEMA_INVALID: ${dir}/pay-1.0.proto: imports "common/money.proto", which is in none of the folders it is looked for in: ${dir}`,
    ]);
  });
});

describe("schemawatch diff --help", () => {
  it("says how Avro and Protobuf files are compared", async () => {
    const result = await diff("--help");
    expect(result.stdout).toContain(
      "Two .avsc files (Avro) or two .proto files (Protobuf) are compared by their format's own rules, chosen\n" +
        "by the files' extension: backward when NEW reads every record OLD writes, forward the reverse. Each\n" +
        "break names its rule and place and shows a record that proves it, as JSON and as the bytes its writer\n" +
        "writes (hex and base64). Files of two formats are refused; --docs and --monitor apply to JSON only.\n",
    );
    expect(result.stdout).toContain("  schemawatch diff pay-1.0.avsc pay-2.0.avsc\n");
  });
});

describe("schemawatch diff refuses what it cannot compare", () => {
  it("refuses two files of different formats, naming both", async () => {
    const dir = await writeTree({ "pay.avsc": PAY_1, "pay.proto": proto("int64") });
    const result = await diff(`${dir}/pay.avsc`, `${dir}/pay.proto`);
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr:
        `USAGE: schemawatch diff: ${dir}/pay.avsc is avro but ${dir}/pay.proto is protobuf: ` +
        "diff compares two versions of one format\nRun 'schemawatch diff --help' for usage.",
    });
  });

  it("refuses a JSON Schema beside an Avro file the same way", async () => {
    const dir = await writeTree({ "pay.json": { type: "object" }, "pay.avsc": PAY_1 });
    const result = await diff(`${dir}/pay.json`, `${dir}/pay.avsc`);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${dir}/pay.json is json but ${dir}/pay.avsc is avro`);
  });

  it("refuses --docs on Avro files: documents are JSON", async () => {
    const dir = await writeTree({ "a.avsc": PAY_1, "b.avsc": PAY_2, "docs/one.json": { id: "x" } });
    const result = await diff(`${dir}/a.avsc`, `${dir}/b.avsc`, "--docs", `${dir}/docs`);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--docs reads JSON documents; ${dir}/b.avsc is avro`);
  });

  it("exits 2 naming the file for an Avro file avsc refuses", async () => {
    const dir = await writeTree({ "a.avsc": PAY_1, "b.avsc": { type: "record", name: "Pay" } });
    const result = await diff(`${dir}/a.avsc`, `${dir}/b.avsc`);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^SCHEMA_INVALID: .*b\.avsc/);
  });
});

describe("schemawatch diff --config on an Avro subject", () => {
  it("checks every version against every earlier one by Avro's rules, the bumps by file name", async () => {
    const dir = await writeTree({
      "schemas/pay/1.0.avsc": PAY_1,
      "schemas/pay/1.1.avsc": PAY_2_DEFAULT,
      "schemas/pay/1.2.avsc": PAY_2,
      "config.yaml": "subjects:\n  - name: pay\n    topics: [pay]\n    schemas: schemas/pay\n",
    });
    const result = await diff("--config", `${dir}/config.yaml`);
    expect(result.stdout.split("\n").filter((line) => line.startsWith("pay "))).toEqual([
      "pay 1.0.0 -> 1.1.0               FULL      needs minor, declared minor: ok",
      "pay 1.0.0 -> 1.2.0               FORWARD   needs major, declared minor: FAIL",
      // 1.1 wrote amount already: dropping its default changes no record either side reads (a patch).
      "pay 1.1.0 -> 1.2.0               FULL      needs patch, declared minor: ok",
    ]);
    expect(result.stdout).toContain("    BREAKS    ok        missing-default at /amount\n");
    expect(result.code).toBe(1);
  });
});
