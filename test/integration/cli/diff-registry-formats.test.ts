// `schemawatch diff --registry R --subject S [NEW]` on AVRO and PROTOBUF subjects of the real Apicurio
// Registry (SCHEMA_REGISTRY_URL): each version compared by its own format's diff, and the registry asked
// about NEW with NEW's own schemaType (sent as JSON, an Avro schema was checked as a JSON Schema).
import { join } from "node:path";
import { writeFile } from "node:fs/promises";

import { describe, expect, it } from "vitest";

import { runCli } from "../../helpers/cli.js";
import { writeTree } from "../../helpers/files.js";
import { freshSubject, register, registryUrl, setCompatibility } from "../../helpers/registry.js";

const url = registryUrl();

const PAY_1 = { type: "record", name: "Pay", fields: [{ name: "id", type: "string" }] };
const PAY_2 = {
  type: "record",
  name: "Pay",
  fields: [
    { name: "id", type: "string" },
    { name: "amount", type: "long" },
  ],
};
const proto = (amount: string) =>
  `syntax = "proto3";\npackage pay;\nmessage Pay { string id = 1; ${amount} amount = 2; }\n`;

async function json(args: string[]): Promise<{ code: number; report: Record<string, unknown> }> {
  const result = await runCli(["diff", "--registry", url, ...args, "--format", "json"]);
  expect(result.stderr).toBe("");
  return { code: result.code, report: JSON.parse(result.stdout) as Record<string, unknown> };
}

describe("schemawatch diff --registry on an AVRO subject", () => {
  it("agrees with the registry that a field added without a default breaks backward, with the witness", async () => {
    const subject = freshSubject("diff-avro");
    await setCompatibility(url, subject, "BACKWARD");
    // No schemaType: AVRO, as Confluent's clients register it.
    await register(url, subject, PAY_1, [], "AVRO");
    const dir = await writeTree({ "pay-2.avsc": PAY_2 });
    const { code, report } = await json(["--subject", subject, join(dir, "pay-2.avsc")]);
    expect(report).toMatchObject({
      subject,
      level: "BACKWARD",
      registryVerdict: { compatible: false, against: "latest" },
      schemawatch: { verdict: "breaks" },
      disagreement: null,
      ok: false,
    });
    const versions = (report["schemawatch"] as { versions: Record<string, unknown>[] }).versions;
    expect(versions[0]).toMatchObject({
      version: 1,
      compatibility: "FORWARD",
      backward: "breaks",
      forward: "ok",
      changes: [
        {
          kind: "missing-default",
          path: "/amount",
          backward: "breaks",
          forward: "ok",
          witness: { backward: { record: { id: "" }, hex: "00", base64: "AA==" } },
        },
      ],
    });
    expect(code).toBe(1);
  });

  it("compares the subject's two registered versions, the registry answering for the latest", async () => {
    const subject = freshSubject("diff-avro");
    await setCompatibility(url, subject, "NONE");
    await register(url, subject, PAY_1, [], "AVRO");
    await register(url, subject, PAY_2, [], "AVRO");
    await setCompatibility(url, subject, "FORWARD");
    const { report } = await json(["--subject", subject]);
    expect(report).toMatchObject({
      level: "FORWARD",
      registryVerdict: { compatible: true, against: 1 },
      schemawatch: { verdict: "ok" },
      disagreement: null,
      ok: true,
    });
    const versions = (report["schemawatch"] as { versions: Record<string, unknown>[] }).versions;
    expect(versions).toMatchObject([
      {
        version: 1,
        compatibility: "FORWARD",
        changes: [{ kind: "missing-default", path: "/amount", backward: "breaks", forward: "ok" }],
      },
    ]);
  });
});

describe("schemawatch diff --registry R --subject S --version V NEW on an AVRO subject", () => {
  it("compares the registered version with the file by Avro's rules", async () => {
    const subject = freshSubject("diff-avro");
    await register(url, subject, PAY_1, [], "AVRO");
    const dir = await writeTree({ "pay-2.avsc": PAY_2 });
    const args = ["diff", "--registry", url, "--subject", subject, "--version", "1", join(dir, "pay-2.avsc")];
    const result = await runCli(args);
    expect(result.stdout.split("\n").slice(1)).toEqual([
      "  backward  forward   change",
      "  BREAKS    ok        missing-default at /amount",
      "                      the reader has a field the writer does not write, and no default to fill it",
      '                      witness (backward): {"record":{"id":""},"hex":"00","base64":"AA=="}',
      "compatibility FORWARD: upgrade producers first; the new schema rejects some old records",
      "backward breaks, forward ok; needs a major bump",
      "no declared version (give $id or file names a semver, or pass --expect): FAIL: a change that can break OLD records",
      "",
    ]);
    expect(result.code).toBe(1);
  });
});

describe("schemawatch diff --registry on a PROTOBUF subject", () => {
  it("sends NEW as PROTOBUF: the registry and the diff both see a field's type change", async () => {
    const subject = freshSubject("diff-proto");
    await setCompatibility(url, subject, "BACKWARD");
    await register(url, subject, proto("int64"), [], "PROTOBUF");
    const dir = await writeTree({ ".keep": "" });
    const path = join(dir, "pay-2.proto");
    await writeFile(path, proto("string"));
    const { code, report } = await json(["--subject", subject, path]);
    expect(report).toMatchObject({
      registryVerdict: { compatible: false, against: "latest" },
      schemawatch: { verdict: "breaks" },
      disagreement: null,
      ok: false,
    });
    const versions = (report["schemawatch"] as { versions: Record<string, unknown>[] }).versions;
    expect(versions[0]).toMatchObject({
      compatibility: "NONE",
      changes: [{ kind: "field-type-changed", path: "pay.Pay.amount(#2)" }],
    });
    expect(code).toBe(1);
  });

  it("compares the versions of a shared enum's subject (a file of enums only): a swapped number breaks both ways", async () => {
    const subject = freshSubject("diff-proto-enum");
    const status = (on: number, off: number) =>
      `syntax = "proto3";\npackage shop;\nenum Status { UNKNOWN = 0; ON = ${on}; OFF = ${off}; }\n`;
    await setCompatibility(url, subject, "NONE");
    await register(url, subject, status(1, 2), [], "PROTOBUF");
    await register(url, subject, status(2, 1), [], "PROTOBUF");
    await setCompatibility(url, subject, "BACKWARD");
    const { code, report } = await json(["--subject", subject]);
    expect(report).toMatchObject({ schemawatch: { verdict: "breaks" }, ok: false });
    const versions = (report["schemawatch"] as { versions: Record<string, unknown>[] }).versions;
    expect(versions).toMatchObject([
      {
        version: 1,
        compatibility: "NONE",
        bump: "major",
        changes: [
          {
            kind: "enum-value-renumbered",
            path: "shop.Status.ON(=2)",
            backward: "breaks",
            forward: "breaks",
          },
          {
            kind: "enum-value-renumbered",
            path: "shop.Status.OFF(=1)",
            backward: "breaks",
            forward: "breaks",
          },
        ],
      },
    ]);
    expect(code).toBe(1);
  });

  it("refuses an Avro file against a PROTOBUF subject, naming both", async () => {
    const subject = freshSubject("diff-proto");
    await register(url, subject, proto("int64"), [], "PROTOBUF");
    const dir = await writeTree({ "pay.avsc": PAY_1 });
    const result = await runCli(["diff", "--registry", url, "--subject", subject, join(dir, "pay.avsc")]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `/${subject}/versions/1 is protobuf but ${join(dir, "pay.avsc")} is avro: diff compares two versions of one format`,
    );
  });
});
