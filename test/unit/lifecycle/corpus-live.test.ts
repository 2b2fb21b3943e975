import { readdir } from "node:fs/promises";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../../src/log.js";
import { startMonitor } from "../../../src/monitor/start.js";
import { runCli } from "../../helpers/cli.js";
import { writeTree } from "../../helpers/files.js";

const config = (serve: boolean) => `logLevel: silent
corpus:
  enabled: true
  serve: ${serve}
  redact: [/id]
subjects:
  - name: event
    topics: [events]
    schemas: ${resolve("examples/catalog/event")}
    versions:
      "1.0.0": { status: deprecated, confluentId: 101 }
      "1.1.0": { status: active, confluentId: 102 }
      "2.0.0": { status: candidate }
`;

async function monitorWith(serve: boolean) {
  const dir = await writeTree({ "config.yaml": config(serve) });
  const monitor = await startMonitor({
    configPath: `${dir}/config.yaml`,
    source: { file: resolve("examples/traffic/events.ndjson") },
    port: 0,
    env: {},
    version: "test",
    logger: createLogger("silent"),
  });
  await monitor.replayed;
  return { dir, monitor };
}

describe("the corpus in the live monitor", () => {
  it("is served when enabled and exported by `corpus export --url` as files `check` reads", async () => {
    const { dir, monitor } = await monitorWith(true);
    try {
      const out = `${dir}/corpus`;
      const result = await runCli(["corpus", "export", "--url", monitor.address, "--out", out]);
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(`wrote 5 shapes of 1 subject to ${out}\n`);
      expect((await readdir(`${out}/event`)).sort()).toEqual(["1.0.0", "1.1.0", "none"]);
      // Every kept web example passes its own version, so `check` against an unchanged schema passes.
      const check = await runCli([
        "check",
        "examples/catalog/event/1.0.json",
        "examples/catalog/event/1.0.json",
        "--old-docs",
        `${out}/event/1.0.0`,
        "--new-docs",
        `${out}/event/1.0.0`,
      ]);
      expect(check.code).toBe(0);
    } finally {
      await monitor.stop();
    }
  });

  it("answers 404 with a message when the corpus is not served", async () => {
    const { monitor } = await monitorWith(false);
    try {
      const response = await fetch(`${monitor.address}/api/corpus`);
      expect(response.status).toBe(404);
      expect(((await response.json()) as { message: string }).message).toBe(
        "the corpus is not served: set corpus.serve in the config",
      );
    } finally {
      await monitor.stop();
    }
  });
});
