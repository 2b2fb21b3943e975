// A registry that never answers: nothing listens on its port (a real refused connection, so no
// registry is needed). The monitor still starts and counts, says why its catalog is incomplete, and
// judges no deprecated version drained. The live paths are in test/integration/registry/monitor.test.ts.
import { createServer } from "node:net";
import { resolve } from "node:path";

import { describe, expect, it } from "vitest";

import { createLogger } from "../../../src/log.js";
import { startMonitor } from "../../../src/monitor/start.js";
import { renderReport } from "../../../src/report/render.js";
import { writeTree } from "../../helpers/files.js";

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

describe("a registry that does not answer", () => {
  it("leaves the monitor counting the folder versions, not ready for lack of the registered ones, and drains nothing", async () => {
    const port = await closedPort();
    const T0 = Date.parse("2026-12-01T08:00:00Z");
    const lines = Array.from({ length: 90 }, (_, t) =>
      JSON.stringify({
        topic: "events",
        partition: 0,
        offset: t,
        timestamp: T0 + t * 1000,
        headers: { producer: "web", "schema-version": "1.1" },
        value: { id: t, event: "buy", amount: 1 },
      }),
    );
    const dir = await writeTree({
      "capture.ndjson": `${lines.join("\n")}\n`,
      "config.yaml": `logLevel: silent
registries:
  main: { url: "http://127.0.0.1:${port}", timeout: 1s, retries: 0 }
subjects:
  - name: event
    topics: [events]
    schemas: ${resolve("examples/catalog/event")}
    versions:
      "1.0.0": { status: deprecated }
      "1.1.0": { status: active }
      "2.0.0": { status: candidate }
    drainWindow: 30s
    registry: { name: main, subject: events-value }
`,
    });
    const before = Date.now();
    const monitor = await startMonitor({
      configPath: `${dir}/config.yaml`,
      source: { file: `${dir}/capture.ndjson` },
      port: 0,
      host: "127.0.0.1",
      env: {},
      version: "test",
      logger: createLogger("silent"),
    });
    try {
      await monitor.replayed;
      expect(monitor.health.reasonNotReady()).toBe(
        "catalog not loaded: no snapshot yet of registry subject main/events-value",
      );
      const report = monitor.report();
      const subject = report.subjects[0]!;
      expect(subject.records).toBe(90);
      expect(subject.registry).toMatchObject({
        name: "main",
        subject: "events-value",
        up: false,
        compatibility: null,
        lastSuccess: null,
        snapshotAt: null,
        lookups: { found: 0, missing: 0, failed: 0, unsupported: 0 },
      });
      const since = Date.parse(subject.registry!.downSince!);
      expect(since).toBeGreaterThanOrEqual(before - 1000);
      expect(subject.registry!.lastError).toContain(`registry 'main' (http://127.0.0.1:${port})`);
      const verdict = subject.versions.find((v) => v.version === "1.0.0")!.verdict!;
      expect(verdict.yes).toBe(false);
      expect(verdict.reasons).toEqual([
        `registry main down since ${new Date(since).toISOString().replace(/:\d\d\.\d{3}Z$/, "Z")}: a version registered meanwhile could be what the records carry`,
      ]);
      expect(report.problems.map((p) => p.problem)).toEqual([
        expect.stringMatching(
          /^registry main down since .*\(the last catalog stays in use; no deprecated version is judged drained\)$/,
        ),
      ]);
      const text = renderReport(report, "text");
      expect(text).toContain("registry main: events-value");
      expect(text).toContain("compatibility");
      expect(text).toContain("not known");
      const metrics = await (await fetch(`${monitor.address}/metrics`)).text();
      expect(metrics).toContain('schemawatch_registry_up{registry="main"} 0');
      expect(metrics).toContain('schemawatch_registry_last_success_timestamp_seconds{registry="main"} 0');
      expect((await fetch(`${monitor.address}/readyz`)).status).toBe(503);
    } finally {
      await monitor.stop();
    }
  });
});
