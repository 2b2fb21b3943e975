// `schemawatch diff --registry R --subject S [NEW]` against the real Apicurio Registry
// (SCHEMA_REGISTRY_URL): the registry's own compatibility check beside schemawatch's evidence, on both
// sides of the registry's rules.
import { join } from "node:path";
import { writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

import { describe, expect, it } from "vitest";

import { runCli } from "../../helpers/cli.js";
import { writeTree } from "../../helpers/files.js";
import { freshSubject, register, registryUrl, setCompatibility } from "../../helpers/registry.js";

const url = registryUrl();

const V1 = {
  type: "object",
  properties: { id: { type: "integer" }, name: { type: "string", maxLength: 10 } },
  required: ["id"],
};

/** A subject at `level` with V1 registered, and a folder for NEW files. */
async function subjectWith(level: string, ...more: unknown[]): Promise<{ subject: string; dir: string }> {
  const subject = freshSubject("diff-registry");
  await setCompatibility(url, subject, level);
  await register(url, subject, V1);
  for (const schema of more) await register(url, subject, schema);
  return { subject, dir: await writeTree({ ".keep": "" }) };
}

async function file(dir: string, name: string, schema: unknown): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, JSON.stringify(schema));
  return path;
}

async function json(args: string[]): Promise<{ code: number; report: Record<string, unknown> }> {
  const result = await runCli(["diff", "--registry", url, ...args, "--format", "json"]);
  expect(result.stderr).toBe("");
  return { code: result.code, report: JSON.parse(result.stdout) as Record<string, unknown> };
}

describe("schemawatch diff --registry R --subject S", () => {
  it("shows a break the registry would accept, with its witness (BACKWARD, an if/then added)", async () => {
    const { subject, dir } = await subjectWith("BACKWARD");
    const conditional = { ...V1, if: { properties: { id: { const: 1 } } }, then: { required: ["name"] } };
    const path = await file(dir, "if.json", conditional);
    const { code, report } = await json(["--subject", subject, path]);
    expect(code).toBe(1);
    expect(report).toMatchObject({
      subject,
      level: "BACKWARD",
      levelSource: "subject",
      directions: ["backward"],
      transitive: false,
      registryVerdict: { compatible: true, against: "latest" },
      schemawatch: { verdict: "breaks" },
      disagreement: "registry-accepts-breaking",
      witness: { version: 1, direction: "backward", kind: "if-added", path: "/if", document: { id: 1 } },
      ok: false,
    });
    const text = await runCli(["diff", "--registry", url, "--subject", subject, path]);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain("registry:    compatible: it would register it\n");
    expect(text.stdout).toContain(
      "DISAGREE: the registry would accept a change that breaks backward against version 1:\n",
    );
    expect(text.stdout).toContain('  witness (backward): {"id":1}\n');
  });

  it("shows a rejection of a change proven safe, with the proof (BACKWARD, a format annotation)", async () => {
    const { subject, dir } = await subjectWith("BACKWARD");
    const annotated = {
      ...V1,
      properties: { ...V1.properties, name: { type: "string", maxLength: 10, format: "email" } },
    };
    const path = await file(dir, "format.json", annotated);
    const { code, report } = await json(["--subject", subject, path]);
    expect(code).toBe(1);
    expect(report).toMatchObject({
      registryVerdict: { compatible: false },
      schemawatch: { verdict: "ok" },
      disagreement: "registry-rejects-safe",
      proof: [{ version: 1, kind: "format-added", path: "/properties/name/format" }],
      ok: false,
    });
  });

  it("agrees where both reject (a required property) and where both accept (a description)", async () => {
    const { subject, dir } = await subjectWith("BACKWARD");
    const required = await file(dir, "required.json", { ...V1, required: ["id", "name"] });
    const rejected = await json(["--subject", subject, required]);
    expect(rejected.code).toBe(1);
    expect(rejected.report).toMatchObject({
      registryVerdict: { compatible: false },
      schemawatch: { verdict: "breaks" },
      disagreement: null,
      ok: false,
    });
    const described = await file(dir, "described.json", { ...V1, description: "an order" });
    const accepted = await json(["--subject", subject, described]);
    expect(accepted.code).toBe(0);
    expect(accepted.report).toMatchObject({
      registryVerdict: { compatible: true },
      schemawatch: { verdict: "ok" },
      disagreement: null,
      ok: true,
    });
  });

  it("checks every earlier version under a transitive level, and the latest version when NEW is left out", async () => {
    const v2 = { ...V1, description: "v2" };
    const { subject, dir } = await subjectWith("FORWARD_TRANSITIVE", v2);
    // Forward: old consumers of v1 and v2 must read NEW's documents; a closed object rejects extra keys.
    const closed = await file(dir, "closed.json", { ...V1, additionalProperties: false });
    const { code, report } = await json(["--subject", subject, closed]);
    expect(code).toBe(0);
    expect(report).toMatchObject({
      level: "FORWARD_TRANSITIVE",
      directions: ["forward"],
      transitive: true,
      registryVerdict: { compatible: true },
      schemawatch: { verdict: "ok" },
      disagreement: null,
      ok: true,
    });
    const versions = (report["schemawatch"] as { versions: { version: number; forward: string }[] }).versions;
    expect(versions.map((v) => [v.version, v.forward])).toEqual([
      [1, "ok"],
      [2, "ok"],
    ]);
    const latest = await json(["--subject", subject]);
    expect(latest.code).toBe(0);
    expect(latest.report).toMatchObject({
      new: expect.stringMatching(/\/versions\/2$/) as unknown,
      registryVerdict: { compatible: true, against: 1 },
      schemawatch: { verdict: "ok" },
    });
  });

  it("check --registry names a document proving a break the registry would accept", async () => {
    const { subject } = await subjectWith("BACKWARD");
    const conditional = { ...V1, if: { properties: { id: { const: 1 } } }, then: { required: ["name"] } };
    const dir = await writeTree({
      "new.json": JSON.stringify(conditional),
      "old/one.json": JSON.stringify({ id: 1 }),
      "old/two.json": JSON.stringify({ id: 2 }),
      "new/named.json": JSON.stringify({ id: 1, name: "a" }),
    });
    const args = [
      "check",
      "--registry",
      url,
      "--subject",
      subject,
      "--version",
      "latest",
      join(dir, "new.json"),
    ];
    const docs = ["--old-docs", join(dir, "old"), "--new-docs", join(dir, "new")];
    const result = await runCli([...args, ...docs, "--format", "json"]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({
      backwardFailures: 1,
      registry: {
        level: "BACKWARD",
        levelSource: "subject",
        compatible: true,
        against: "latest",
        breaking: { direction: "backward", document: "one.json" },
        disagreement: "registry-accepts-breaking",
      },
    });
    const text = await runCli([...args, ...docs]);
    expect(text.stdout).toContain(
      "registry (BACKWARD, subject): compatible: it would register NEW\n" +
        "DISAGREE: the registry would accept NEW, but one.json proves it breaks backward (valid under OLD, rejected by NEW)\n",
    );
  });

  it("--monitor: a removed property's live hint, once however many versions NEW is checked against, through the monitor's subject that follows the registry subject", async () => {
    const { subject, dir } = await subjectWith("BACKWARD_TRANSITIVE", { ...V1, description: "v2" });
    // A monitor's /api/status, as served for a subject `orders` that follows this registry subject.
    const drained = {
      kind: "drained",
      yes: true,
      reasons: [],
      field: "/name",
      fieldKind: "deprecated",
      version: "2",
      producers: [],
      evidence: { window: "7d", lastCarried: "2026-11-27T14:05Z", coveredSince: "2026-11-01T00:00Z" },
    };
    const status = {
      subjects: [{ subject: "orders", registry: { subject } }],
      fields: { orders: [drained] },
    };
    const server = createServer((_request, response) => {
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify(status));
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    const monitor = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const without = await file(dir, "without-name.json", {
        ...V1,
        properties: { id: { type: "integer" } },
      });
      const hint =
        "removes /name, drained since 2026-11-27T14:05Z: safe (no record carried it for the whole drain window, 7d, every partition observed)";
      const text = await runCli([
        "diff",
        "--registry",
        url,
        "--subject",
        subject,
        without,
        "--monitor",
        monitor,
      ]);
      expect(text.stderr).toBe("");
      expect(text.stdout.split("\n").filter((l) => l.startsWith("live traffic:"))).toEqual([
        `live traffic: ${hint}`,
      ]);
      const { report } = await json(["--subject", subject, without, "--monitor", monitor]);
      const versions = (
        report["schemawatch"] as { versions: { version: number; changes: { live?: { text: string } }[] }[] }
      ).versions;
      expect(
        versions.map((v) => [v.version, v.changes.flatMap((c) => (c.live ? [c.live.text] : []))]),
      ).toEqual([
        [1, [hint]],
        [2, [hint]],
      ]);
      // one registered version as OLD: the same hint under the change
      const pair = await runCli([
        "diff",
        "--registry",
        url,
        "--subject",
        subject,
        "--version",
        "1",
        without,
        "--monitor",
        monitor,
      ]);
      expect(pair.stdout).toContain(`\n                      live traffic: ${hint}\n`);
    } finally {
      await new Promise((done) => server.close(done));
    }
  });
});
