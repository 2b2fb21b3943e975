// `schemawatch registry export` against a real Apicurio Registry (SCHEMA_REGISTRY_URL): registered
// versions become schema files and a config snippet that the folder catalog loads as it is.
import { readFile, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { describe, expect, it } from "vitest";
import { parse } from "yaml";

import { loadCatalog } from "../../../src/catalog/load.js";
import { loadConfig } from "../../../src/config/load.js";
import { runCli } from "../../helpers/cli.js";
import { writeTree } from "../../helpers/files.js";
import {
  freshSubject,
  register,
  registryUrl,
  setState,
  softDelete,
  startProxy,
} from "../../helpers/registry.js";

const url = registryUrl();

async function configFor(subject: string, extra = ""): Promise<{ dir: string; config: string }> {
  const dir = await writeTree({ "schemas/.keep": "" });
  const config = join(dir, "schemawatch.yaml");
  await writeFile(
    config,
    `registries:
  main:
    url: ${url}
subjects:
  - name: order
    topics: [orders]
    schemas: schemas
    registry:
      name: main
      subject: ${subject}
${extra}`,
  );
  return { dir, config };
}

describe("schemawatch registry export", () => {
  it("writes every version and its references, and a snippet the folder catalog loads", async () => {
    const addressSubject = freshSubject("address");
    const subject = freshSubject("order");
    const addressId = "https://example.com/schemas/address.json";
    const address = {
      $id: addressId,
      title: addressSubject,
      type: "object",
      properties: { street: { type: "string" } },
    };
    await register(url, addressSubject, address);
    const v1 = { title: subject, type: "object", properties: { ship: { $ref: addressId } } };
    const v2 = {
      title: subject,
      type: "object",
      properties: { ship: { $ref: addressId }, note: { type: "string" } },
    };
    const v3 = { title: subject, type: "object", properties: { id: { type: "integer" } }, required: ["id"] };
    const reference = [{ name: addressId, subject: addressSubject, version: 1 }];
    const id1 = await register(url, subject, v1, reference);
    const id2 = await register(url, subject, v2, reference);
    const id3 = await register(url, subject, v3);
    await softDelete(url, subject, 1);
    await setState(url, subject, 2, "DEPRECATED");
    const { dir, config } = await configFor(
      subject,
      '      versions:\n        "2": { deprecatedSince: "2026-11-01" }\n',
    );

    const out = join(dir, "catalog");
    const result = await runCli(["registry", "export", "--config", config, "--out", out]);
    expect(result).toEqual({
      code: 0,
      stdout: `order: 3 versions, 4 files\nwrote ${out}/schemawatch-snippet.yaml\n`,
      stderr: "",
    });
    expect((await readdir(join(out, "order"))).sort()).toEqual(["1.json", "2.json", "3.json", "references"]);
    expect(JSON.parse(await readFile(join(out, "order", "2.json"), "utf8"))).toEqual(v2);
    expect(
      JSON.parse(await readFile(join(out, "order", "references", `${addressSubject}-1.json`), "utf8")),
    ).toEqual(address);
    const snippet = await readFile(join(out, "schemawatch-snippet.yaml"), "utf8");
    expect(parse(snippet)).toEqual({
      shared: ["order/references"],
      subjects: [
        {
          name: "order",
          topics: ["orders"],
          schemas: "order",
          versions: {
            "1": { status: "retired", file: "1.json", confluentId: id1 },
            "2": { status: "deprecated", file: "2.json", deprecatedSince: "2026-11-01", confluentId: id2 },
            "3": { status: "active", file: "3.json", confluentId: id3 },
          },
        },
      ],
    });

    // The snippet is a working folder catalog: wire ids map to versions, and refs resolve.
    await writeFile(join(out, "config.yaml"), snippet);
    const catalog = await loadCatalog(await loadConfig(join(out, "config.yaml")));
    expect([...catalog.byConfluentId].map(([id, v]) => [id, v.version.text, v.status])).toEqual([
      [id1, "1.0.0", "retired"],
      [id2, "2.0.0", "deprecated"],
      [id3, "3.0.0", "active"],
    ]);
    const v2Validate = catalog.byConfluentId.get(id2)!.validate;
    expect(v2Validate({ ship: { street: "Main St" } })).toBe(true);
    expect(v2Validate({ ship: { street: 7 } })).toBe(false);
  });

  it("notes what the folder catalog may not resolve and what it cannot label", async () => {
    const streetSubject = freshSubject("street");
    const subject = freshSubject("order");
    await register(url, streetSubject, { title: streetSubject, type: "object", properties: { name: {} } });
    await register(
      url,
      subject,
      {
        $id: "https://example.com/order/1.0.json",
        title: subject,
        properties: { s: { $ref: "street.json" } },
      },
      [{ name: "street.json", subject: streetSubject, version: 1 }],
    );
    await register(url, subject, { title: subject, properties: { t: {} } });
    const { dir, config } = await configFor(subject, "      labels: semver\n");
    const result = await runCli(["registry", "export", "--config", config, "--out", join(dir, "out")]);
    const notes = [
      `${subject} version 2 (id ${await idOf(subject, 2)}): its $id names no semver version; give it one in the config: registry.versions."2".label`,
      `order 1.0.0: $ref 'street.json' (${streetSubject}/1) resolves by that name in the registry; the folder catalog resolves $ref by $id, which is missing`,
    ];
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(notes.map((n) => `note: ${n}\n`).join(""));
    const snippet = await readFile(join(dir, "out", "schemawatch-snippet.yaml"), "utf8");
    expect(snippet.split("\n").filter((line) => line.startsWith("# note: "))).toEqual(
      notes.map((n) => `# note: ${n}`),
    );
    expect(Object.keys(parse(snippet).subjects[0].versions)).toEqual(["1.0.0"]);
  });

  it("says which subjects it found nothing for", async () => {
    const { config } = await configFor(freshSubject("x"));
    const result = await runCli([
      "registry",
      "export",
      "--config",
      config,
      "--out",
      "/tmp/unused",
      "--subject",
      "nope",
    ]);
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr: `schemawatch registry: ${config}: no subject 'nope' with a registry (subjects[].registry)\n`,
    });
  });
});

describe("diff and check against registered versions", () => {
  /** An order subject whose two versions reference an address subject by the name address.json. */
  async function registered() {
    const addressSubject = freshSubject("address");
    const subject = freshSubject("order");
    await register(url, addressSubject, {
      title: addressSubject,
      type: "object",
      properties: { street: { type: "string" } },
      required: ["street"],
    });
    const reference = [{ name: "address.json", subject: addressSubject, version: 1 }];
    const properties = { id: { type: "integer" }, ship: { $ref: "address.json" } };
    await register(url, subject, { title: subject, type: "object", properties, required: ["id"] }, reference);
    await register(
      url,
      subject,
      {
        title: subject,
        type: "object",
        properties: { ...properties, note: { type: "string" } },
        required: ["id"],
      },
      reference,
    );
    // A proposal written out in full: a file has no registry references to lean on.
    const proposed = {
      title: subject,
      type: "object",
      properties: {
        id: { type: "integer" },
        ship: { type: "object", properties: { street: { type: "string" } } },
      },
      required: ["id", "ship"],
    };
    const dir = await writeTree({
      "proposed.json": JSON.stringify(proposed),
      "docs/old/a.json": JSON.stringify({ id: 1, ship: { street: "Main" } }),
      "docs/old/b.json": JSON.stringify({ id: 2 }),
      "docs/new/a.json": JSON.stringify({ id: 3, ship: { street: "Side" } }),
    });
    return { subject, dir, host: new URL(url).host };
  }

  it("diff compares a proposed file with the latest registered version, references resolved", async () => {
    const { subject, dir, host } = await registered();
    const result = await runCli([
      "diff",
      "--registry",
      url,
      "--subject",
      subject,
      "--version",
      "latest",
      join(dir, "proposed.json"),
      "--format",
      "json",
    ]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(1);
    const json = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(json).toMatchObject({
      old: `registry:${host}/${subject}/versions/2`,
      new: join(dir, "proposed.json"),
      backward: "breaks",
      ok: false,
    });
    expect(json["changes"]).toContainEqual(
      expect.objectContaining({ kind: "required-added", path: "/required/1", backward: "breaks" }),
    );
  });

  it("diff compares two registered versions, and --registry-side puts a registered version on the NEW side", async () => {
    const { subject, dir, host } = await registered();
    const both = await runCli([
      "diff",
      "--registry",
      url,
      "--subject",
      subject,
      "--version",
      "1",
      "--version",
      "2",
      "--policy",
      "lenient",
      "--format",
      "json",
    ]);
    expect(both.stderr).toBe("");
    expect(both.code).toBe(0);
    expect(JSON.parse(both.stdout)).toMatchObject({
      old: `registry:${host}/${subject}/versions/1`,
      new: `registry:${host}/${subject}/versions/2`,
      compatibility: "FULL",
      ok: true,
    });
    const reversed = await runCli([
      "diff",
      join(dir, "proposed.json"),
      "--registry",
      url,
      "--subject",
      subject,
      "--version",
      "1",
      "--registry-side",
      "new",
      "--format",
      "json",
    ]);
    // Version 1's address.json requires a street, which the proposal does not.
    expect(reversed.code).toBe(1);
    expect(JSON.parse(reversed.stdout)).toMatchObject({
      old: join(dir, "proposed.json"),
      new: `registry:${host}/${subject}/versions/1`,
      backward: "breaks",
    });
  });

  it("check validates documents against a registered version of a named registry that needs credentials", async () => {
    const { subject, dir } = await registered();
    const auth = `Basic ${Buffer.from("ci:ci-secret").toString("base64")}`;
    const proxy = await startProxy(url, (request, response) => {
      if (request.headers["authorization"] === auth) return true;
      response.writeHead(401).end();
      return false;
    });
    try {
      await writeFile(join(dir, "secret"), "ci-secret\n");
      await writeFile(
        join(dir, "schemawatch.yaml"),
        `registries:\n  main:\n    url: ${proxy.url}\n    auth: { type: basic, username: ci, passwordFile: secret }\nsubjects:\n  - name: order\n    topics: [orders]\n    registry: { name: main, subject: ${subject} }\n`,
      );
      const result = await runCli([
        "check",
        "--config",
        join(dir, "schemawatch.yaml"),
        "--registry",
        "main",
        "--subject",
        subject,
        "--version",
        "1",
        join(dir, "proposed.json"),
        "--old-docs",
        join(dir, "docs/old"),
        "--new-docs",
        join(dir, "docs/new"),
        "--format",
        "json",
      ]);
      expect(result.code).toBe(1);
      expect(JSON.parse(result.stdout)).toMatchObject({
        old: `registry:main/${subject}/versions/1`,
        backwardChecked: 2,
        backwardFailures: 1,
        forwardChecked: 1,
        forwardFailures: 0,
        ok: false,
      });
    } finally {
      await proxy.close();
    }
  });

  it("diff --config checks every registered version of a registry subject against the earlier ones", async () => {
    const { subject, dir } = await registered();
    await writeFile(
      join(dir, "schemawatch.yaml"),
      `registries:\n  main: { url: "${url}" }\nsubjects:\n  - name: order\n    topics: [orders]\n    registry: { name: main, subject: ${subject} }\n`,
    );
    const result = await runCli(["diff", "--config", join(dir, "schemawatch.yaml")]);
    expect(result.stderr).toBe("");
    // Registry version numbers are no semver releases: the bump is not checked against them.
    expect(result.code).toBe(1);
    expect(result.stdout.split("\n")[0]).toBe(
      "order 1 -> 2                     FORWARD   needs major, no declared version: FAIL",
    );
  });

  it("refuses credentials in a --registry URL without repeating them", async () => {
    const result = await runCli([
      "diff",
      "--registry",
      "http://u:hunter2@127.0.0.1:1",
      "--subject",
      "s",
      "--version",
      "1",
      "x.json",
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("put credentials in a registry of --config");
    expect(result.stderr).not.toContain("hunter2");
  });
});

async function idOf(subject: string, version: number): Promise<number> {
  const response = await fetch(`${url}/subjects/${subject}/versions/${version}`);
  return ((await response.json()) as { id: number }).id;
}
