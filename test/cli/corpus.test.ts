import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readdir, readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Corpus } from "../../src/corpus/corpus.js";
import { runCli, type CliResult } from "../helpers/cli.js";
import { writeTree } from "../helpers/files.js";

const CAPTURE = "file:examples/traffic/events.ndjson";
const CATALOG = "examples/catalog/event";
const WEB = "1.0.0-web-274fb235a7e5.json";
const MOBILE = "1.1.0-mobile-1f5bd3bd1a8a.json";
const BILLING = "1.1.0-billing-4a41c22baf98.json";

const corpus = (args: readonly string[]): Promise<CliResult> => runCli(["corpus", ...args]);

async function files(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

describe("schemawatch corpus export --source", () => {
  it("replays a capture into one example per shape, writer and producer", async () => {
    const out = await writeTree({});
    const result = await corpus([
      "export",
      "--source",
      CAPTURE,
      "--config",
      "examples/config.yaml",
      "--out",
      out,
    ]);
    expect(result).toEqual({ code: 0, stdout: `wrote 5 shapes of 1 subject to ${out}\n`, stderr: "" });
    expect(await files(out)).toEqual([
      `event/1.0.0/${WEB}`,
      `event/1.1.0/${BILLING}`,
      `event/1.1.0/${MOBILE}`,
      "event/1.1.0/nonconforming/1.1.0-partner-feed-4785fcba46f8.json",
      "event/none/none-legacy-batch-274fb235a7e5.json",
      "index.ndjson",
    ]);
    expect(JSON.parse(await readFile(join(out, `event/1.1.0/${BILLING}`), "utf8"))).toEqual({
      id: 3,
      event: "view",
      amount: 1.5,
    });
  });

  it("makes check fail for a schema change that breaks a shape seen live", async () => {
    const out = await writeTree({});
    await corpus(["export", "--source", CAPTURE, "--config", "examples/config.yaml", "--out", out]);
    // amount narrowed to integer: mobile's whole amounts still pass, billing's 1.5 does not.
    const schemas = await writeTree({
      "1.2.json": {
        ...JSON.parse(await readFile(`${CATALOG}/1.1.json`, "utf8")),
        $id: "https://example.com/schemas/event/1.2.json",
        properties: {
          id: { type: "integer" },
          event: { enum: ["view", "click", "buy"] },
          amount: { type: "integer" },
        },
      },
    });
    const docs = join(out, "event", "1.1.0");
    const narrowed = await runCli([
      "check",
      `${CATALOG}/1.1.json`,
      join(schemas, "1.2.json"),
      "--old-docs",
      docs,
      "--new-docs",
      docs,
    ]);
    expect(narrowed.stdout).toBe(
      [
        `backward  ${BILLING} against new schema: FAIL (type at /amount)`,
        `backward  ${MOBILE} against new schema: ok`,
        `forward   ${BILLING} against old schema: ok`,
        `forward   ${MOBILE} against old schema: ok`,
        "backward: 1 of 2 fail OLD→NEW; forward: 2 documents ok",
        "",
      ].join("\n"),
    );
    expect(narrowed.stderr).toBe(
      "1 document(s) valid under the old schema fail the new one: the change is not backward compatible " +
        "(a major version, or keep producers on the old schema)\n",
    );
    expect(narrowed.code).toBe(1);

    // The candidate 2.0 makes amount required: the web producer, still on 1.0, would break.
    const required = await runCli([
      "check",
      `${CATALOG}/1.0.json`,
      `${CATALOG}/2.0.json`,
      "--old-docs",
      join(out, "event", "1.0.0"),
      "--new-docs",
      docs,
    ]);
    expect(required.stdout).toBe(
      [
        `backward  ${WEB} against new schema: FAIL (required at root)`,
        `forward   ${BILLING} against old schema: FAIL (additionalProperties at root)`,
        `forward   ${MOBILE} against old schema: FAIL (additionalProperties at root)`,
        "backward: 1 of 1 fail OLD→NEW; forward: 2 of 2 fail NEW→OLD (information; --strict makes them fatal)",
        "",
      ].join("\n"),
    );
    expect(required.code).toBe(1);

    // Every 1.1 shape seen live already sends amount, so 2.0 is safe for them.
    const ready = await runCli([
      "check",
      `${CATALOG}/1.1.json`,
      `${CATALOG}/2.0.json`,
      "--old-docs",
      docs,
      "--new-docs",
      docs,
    ]);
    expect(ready.code).toBe(0);
  });

  it("applies corpus.redact and corpus.maxShapes from the config", async () => {
    const dir = await writeTree({
      "config.yaml": [
        "corpus:",
        "  maxShapes: 3",
        "  redact: [/id]",
        "subjects:",
        "  - name: event",
        "    topics: [events]",
        `    schemas: ${resolve(CATALOG)}`,
        "    writer: { sources: [wire, header] }",
        "    versions:",
        '      "1.1.0": { status: active, confluentId: 102 }',
        "",
      ].join("\n"),
    });
    const out = join(dir, "corpus");
    const result = await corpus([
      "export",
      "--source",
      CAPTURE,
      "--config",
      join(dir, "config.yaml"),
      "--out",
      out,
    ]);
    expect(result.stdout).toBe(`wrote 3 shapes of 1 subject to ${out}\n`);
    expect(result.stderr).toBe("event: 2 more shapes seen but not kept (corpus.maxShapes is 3)\n");
    expect(JSON.parse(await readFile(join(out, `event/1.1.0/${MOBILE}`), "utf8"))).toEqual({
      id: 0,
      event: "buy",
      amount: 12,
    });
  });
});

describe("schemawatch corpus export --url", () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise((done) => (server ? server.close(done) : done(undefined)));
    server = undefined;
  });

  async function serve(status: number, body: string): Promise<string> {
    server = createServer((request, response) => {
      response.writeHead(request.url === "/api/corpus" ? status : 404, {
        "content-type": "application/json",
      });
      response.end(request.url === "/api/corpus" ? body : "{}");
    });
    await new Promise<void>((done) => server!.listen(0, "127.0.0.1", done));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it("writes the corpus a monitor serves", async () => {
    const live = new Corpus({ maxShapes: 10, redact: [] });
    live.observe("event", "1.1.0", "mobile", { id: 2, event: "buy", amount: 12 }, undefined, {
      conforms: true,
    });
    live.observe("order", "1.0.0", "shop", { n: 1 }, undefined, { conforms: true });
    const url = await serve(200, JSON.stringify(live));
    const out = await writeTree({});
    const result = await corpus(["export", "--url", `${url}/`, "--subject", "event", "--out", out]);
    expect(result).toEqual({ code: 0, stdout: `wrote 1 shape of 1 subject to ${out}\n`, stderr: "" });
    expect(await files(out)).toEqual([`event/1.1.0/${MOBILE}`, "index.ndjson"]);
  });

  it("exits 2 with the monitor's message when it does not serve its corpus", async () => {
    const url = await serve(
      404,
      JSON.stringify({ message: "the corpus is not served (corpus.serve is false)" }),
    );
    const result = await corpus(["export", "--url", url, "--out", await writeTree({})]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `schemawatch corpus: ${url}/api/corpus answered 404: the corpus is not served (corpus.serve is false) ` +
        "(is corpus.serve true in the monitor's config?)\n",
    );
  });

  it("exits 2 when the answer is not a corpus", async () => {
    const url = await serve(200, JSON.stringify({ format: 7 }));
    const result = await corpus(["export", "--url", url, "--out", await writeTree({})]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `schemawatch corpus: ${url}/api/corpus: not a schemawatch corpus: format must be 1\n`,
    );
  });

  it("exits 2 naming the monitor it cannot reach", async () => {
    const url = await serve(200, "{}");
    await new Promise((done) => server!.close(done));
    server = undefined;
    const result = await corpus(["export", "--url", url, "--out", await writeTree({})]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `schemawatch corpus: cannot reach the monitor at ${url}/api/corpus: ECONNREFUSED\n`,
    );
  });
});

describe("schemawatch corpus: usage", () => {
  const usage = "\nRun 'schemawatch corpus --help' for usage.\n";

  it.each([
    [["export"], "--out DIR is required"],
    [[], "expected 'export'"],
    [["import", "--out", "x"], "unknown action 'import'"],
    [
      ["export", "--out", "x", "--source", CAPTURE],
      "--source needs --config FILE (the catalog to validate with)",
    ],
    [
      ["export", "--out", "x", "--source", CAPTURE, "--url", "http://x"],
      "--url and --source are alternatives; give one",
    ],
    [
      ["export", "--out", "x", "--source", "kafka", "--config", "c"],
      "--source must be file:PATH or file:-, got 'kafka'",
    ],
    [["export", "--out", "x", "--config", "c"], "--config is only used with --source"],
    [["export", "--out", "x", "--url", "ftp://x"], "--url must be an http:// or https:// URL, got 'ftp://x'"],
  ])("corpus %j exits 2: %s", async (args, message) => {
    const result = await corpus(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`schemawatch corpus: ${message}${usage}`);
  });

  it("exits 2 naming a capture it cannot read", async () => {
    const out = await writeTree({});
    const result = await corpus([
      "export",
      "--source",
      "file:nope.ndjson",
      "--config",
      "examples/config.yaml",
      "--out",
      out,
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^schemawatch corpus: nope\.ndjson: cannot read capture: ENOENT/);
  });

  it("prints its help", async () => {
    const result = await corpus(["--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      "Usage: schemawatch corpus export --out DIR [--url URL] [--subject NAME]",
    );
  });
});
