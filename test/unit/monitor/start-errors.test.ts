import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../../../src/log.js";
import { startMonitor } from "../../../src/monitor/start.js";
import { runCli } from "../../helpers/cli.js";
import { writeTree } from "../../helpers/files.js";

/** A port some other program holds, on 127.0.0.1. */
async function busyPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as { port: number }).port, server };
}

let held: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (held ? held.close(resolve) : resolve(undefined)));
  held = undefined;
});

describe("start-up errors a person can act on", () => {
  it("names a missing capture before listening or logging anything", async () => {
    const busy = await busyPort();
    held = busy.server;
    const lines: string[] = [];
    const logger = createLogger("trace", { write: (line: string) => void lines.push(line) });
    // The port is taken: had the monitor tried to listen first, it would have said so instead.
    const started = startMonitor({
      configPath: "examples/config.yaml",
      source: { file: "/nonexistent/capture.ndjson" },
      host: "127.0.0.1",
      port: busy.port,
      env: {},
      version: "0.0.0",
      logger,
    });
    await expect(started).rejects.toThrow(
      "/nonexistent/capture.ndjson: cannot read capture: ENOENT: no such file or directory, stat '/nonexistent/capture.ndjson'",
    );
    expect(lines).toEqual([]);
  });

  it("says a folder given as a capture is a folder, with the form it wants", async () => {
    const result = await runCli(["run", "--config", "examples/config.yaml", "--source", "file:examples"]);
    expect([result.code, result.stderr]).toEqual([
      2,
      "schemawatch run: examples: cannot read capture: it is a folder; give the NDJSON file (--source file:PATH)\n",
    ]);
  });

  it("suggests --port when the port is in use", async () => {
    const busy = await busyPort();
    held = busy.server;
    const dir = await writeTree({
      "c.yaml": `logLevel: silent\nsubjects:\n  - name: event\n    topics: [events]\n    schemas: ${process.cwd()}/examples/catalog/event\n`,
    });
    const result = await runCli([
      "run",
      "--config",
      `${dir}/c.yaml`,
      "--source",
      "file:examples/traffic/events.ndjson",
      "--port",
      String(busy.port),
    ]);
    expect([result.code, result.stderr]).toEqual([
      2,
      `schemawatch run: cannot listen on 127.0.0.1:${busy.port}: the port is in use (another schemawatch?); pick another with --port N (or http.port in the config), or --port 0 for any free one\n`,
    ]);
  });
});
