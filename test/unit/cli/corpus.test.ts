import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { readdir, readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../../../src/log.js";
import { startMonitor, type RunningMonitor } from "../../../src/monitor/start.js";
import { runCli, type CliResult } from "../../helpers/cli.js";
import { writeTree } from "../../helpers/files.js";
import { freePort } from "../../helpers/ports.js";

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

describe("schemawatch corpus export --source, its seen times", () => {
  it("are when the capture's clock read the examples, never a timestamp it does not believe", async () => {
    const T0 = Date.parse("2026-12-01T08:00:00Z");
    const line = (timestamp: unknown) =>
      JSON.stringify({
        topic: "events",
        ...(timestamp === undefined ? {} : { timestamp }),
        headers: { producer: "web", "schema-version": "event/1.0" },
        value: { id: 1, event: "view" },
      });
    const dir = await writeTree({
      // Stamped 400 days ago, in 2100, at 1970, with none, and as kafkajs's digits: all read after T0 + 1 s.
      "capture.ndjson": [
        line(T0),
        line(String(T0 + 1000)),
        line(T0 - 400 * 86_400_000),
        line(Date.UTC(2100, 0, 1)),
        line(1000),
        line(undefined),
      ].join("\n"),
    });
    const out = join(dir, "corpus");
    const result = await corpus([
      ...["export", "--source", `file:${dir}/capture.ndjson`, "--config", "examples/config.yaml"],
      ...["--out", out],
    ]);
    expect(result.code).toBe(0);
    const index = (await readFile(join(out, "index.ndjson"), "utf8"))
      .split("\n")
      .filter((l) => l)
      .map((l) => JSON.parse(l) as { kind: string; seen?: number; firstSeen?: string; lastSeen?: string });
    expect(index.filter((e) => e.kind === "example").map((e) => [e.seen, e.firstSeen, e.lastSeen])).toEqual([
      [6, "2026-12-01T08:00:00.000Z", "2026-12-01T08:00:01.000Z"],
    ]);
  });
});

describe("schemawatch corpus export --url", () => {
  // The real monitor, started in-process on the bundled capture: what `--url` reads is what a running
  // monitor serves, not a copy of its format.
  const running: RunningMonitor[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((m) => m.stop()));
  });

  async function monitorOnCapture(corpusYaml: string): Promise<string> {
    const dir = await writeTree({
      "config.yaml": (await readFile("examples/config.yaml", "utf8"))
        .replace(/^http:\n( {2}.*\n)+/m, "")
        .replace("schemas: catalog/event", `schemas: ${resolve(CATALOG)}`)
        .concat(`logLevel: silent\n${corpusYaml}`),
    });
    const monitor = await startMonitor({
      configPath: join(dir, "config.yaml"),
      source: { file: resolve(CAPTURE.slice("file:".length)) },
      host: "127.0.0.1",
      port: 0,
      env: {},
      version: "0.0.0-test",
      logger: createLogger("silent"),
    });
    running.push(monitor);
    await monitor.replayed;
    return monitor.address;
  }

  it("writes the corpus a monitor serves: the same files as an export of the capture it read", async () => {
    const url = await monitorOnCapture("corpus:\n  enabled: true\n  serve: true\n");
    const live = await writeTree({});
    const result = await corpus(["export", "--url", `${url}/`, "--subject", "event", "--out", live]);
    expect(result).toEqual({ code: 0, stdout: `wrote 5 shapes of 1 subject to ${live}\n`, stderr: "" });
    const offline = await writeTree({});
    await corpus(["export", "--source", CAPTURE, "--config", "examples/config.yaml", "--out", offline]);
    expect(await files(live)).toEqual(await files(offline));
    for (const file of await files(offline)) {
      expect(await readFile(join(live, file), "utf8"), file).toBe(
        await readFile(join(offline, file), "utf8"),
      );
    }
  });

  it("exits 2 with the monitor's message when it does not serve its corpus", async () => {
    const url = await monitorOnCapture("corpus:\n  enabled: true\n");
    const result = await corpus(["export", "--url", url, "--out", await writeTree({})]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `schemawatch corpus: ${url}/api/corpus answered 404: the corpus is not served: set corpus.serve in the config ` +
        "(is corpus.serve true in the monitor's config?)\n",
    );
  });

  it("exits 2 when the answer is not a corpus", async () => {
    // No monitor answers this: the address is another program's, one that happens to serve JSON at
    // /api/corpus. A few lines of node:http stand for it.
    const server = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ format: 7 }));
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const result = await corpus(["export", "--url", url, "--out", await writeTree({})]);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `schemawatch corpus: ${url}/api/corpus: not a schemawatch corpus: format must be 1\n`,
      );
    } finally {
      await new Promise((done) => server.close(done));
    }
  });

  it("exits 2 naming the monitor it cannot reach", async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
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
