import { cp, readFile, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../../src/log.js";
import { StateFile, loadState, saveState } from "../../../src/state/file.js";
import { startMonitor } from "../../../src/monitor/start.js";
import { writeTree } from "../../helpers/files.js";
import { liveLifecycle } from "../../helpers/lifecycle.js";

describe("the state file", () => {
  it("round-trips the evidence, replaced atomically", async () => {
    const dir = await writeTree({});
    const { runtime } = await liveLifecycle();
    runtime.lifecycle.coverage.processed("events", 0, "0", "41", 1_000);
    runtime.lifecycle.declared("event", "1.0.0", "web", 2_000);
    const state = runtime.lifecycle.toState();
    await saveState(`${dir}/state.json`, state);
    expect(await loadState(`${dir}/state.json`)).toEqual(state);
    expect(state.partitions).toEqual([
      { topic: "events", partition: 0, coveredSince: 1_000, lastOffset: "41", observedUntil: 1_000 },
    ]);
    expect(state.versions["event"]?.["1.0.0"]).toEqual({
      lastDeclaredAt: 2_000,
      lastDeclaredBy: "web",
      undeclaredDependents: 0,
      lastUndeclaredAt: 0,
    });
  });

  it("a missing file is a first start", async () => {
    expect(await loadState("/nonexistent/state.json")).toBeUndefined();
  });

  it("corrupt state is reported and treated as a coverage gap, never as zero traffic", async () => {
    const dir = await writeTree({ "state.json": '{"format": 1, "partitions": [' });
    await expect(loadState(`${dir}/state.json`)).rejects.toMatchObject({
      code: "STATE_INVALID",
      message: `${dir}/state.json: state is not valid JSON`,
    });
    const file = new StateFile(`${dir}/state.json`);
    const { runtime } = await liveLifecycle({ persistence: { kind: "file", file, sections: () => ({}) } });
    await runtime.load(await file.read());
    expect(runtime.stateProblem).toBe(`${dir}/state.json: state is not valid JSON`);
    expect(runtime.lifecycle.coverage.gapCounts.get("events")).toBe(1);
    // Nothing of the corrupt file is taken as observation: no partition covered, no window started.
    expect(runtime.verdicts().get("event\u00001.0.0")).toEqual({
      kind: "drained",
      yes: false,
      reasons: ["no partition of events observed yet"],
      evidence: {
        window: "7d",
        coveredSince: null,
        partitions: 0,
        lastDeclared: null,
        lastDeclaredBy: null,
        undeclaredDependents: 0,
        unreadableRecords: 0,
        registryDownSince: null,
      },
    });
  });

  it("a state of an unknown format is refused by name", async () => {
    const dir = await writeTree({ "state.json": { format: 7 } });
    await expect(loadState(`${dir}/state.json`)).rejects.toThrow(
      `${dir}/state.json: state has an unknown format`,
    );
  });

  it.each([
    [
      "a partition without observedUntil",
      { partitions: [{ topic: "t", partition: 0, coveredSince: 1, lastOffset: "4" }] },
    ],
    [
      "an offset that is not a number",
      { partitions: [{ topic: "t", partition: 0, coveredSince: 1, lastOffset: "x", observedUntil: 2 }] },
    ],
    [
      "version evidence without lastDeclaredAt",
      {
        versions: {
          event: { "1.0.0": { lastDeclaredBy: null, undeclaredDependents: 0, lastUndeclaredAt: 0 } },
        },
      },
    ],
    ["candidate evidence without samples", { candidates: { event: { "2.0.0": { failures: 0 } } } }],
  ])("a state with %s is refused, never read as no traffic", async (_what, damage) => {
    const state = {
      format: 1,
      savedAt: 1,
      startedAt: 1,
      partitions: [],
      versions: {},
      candidates: {},
      unreadable: {},
      ...damage,
    };
    const dir = await writeTree({ "state.json": state });
    await expect(loadState(`${dir}/state.json`)).rejects.toThrow(
      `${dir}/state.json: state has an unknown format`,
    );
  });
});

describe("catalog reload", () => {
  it("adds a candidate without a restart and judges it at once on the reservoir of recent samples", async () => {
    const dir = await writeTree({
      "config.yaml": `logLevel: silent
subjects:
  - name: event
    topics: [events]
    schemas: schemas
    versions:
      "1.0.0": { status: deprecated }
`,
    });
    await cp(resolve("examples/catalog/event/1.0.json"), `${dir}/schemas/1.0.json`);
    await cp(resolve("examples/catalog/event/1.1.json"), `${dir}/schemas/1.1.json`);
    const monitor = await startMonitor({
      configPath: `${dir}/config.yaml`,
      source: { file: resolve("examples/traffic/events.ndjson") },
      port: 0,
      env: {},
      version: "test",
      logger: createLogger("silent"),
    });
    await monitor.replayed;

    // A schema that does not compile: the reload fails, says why, and the old catalog stays.
    await writeFile(
      `${dir}/schemas/2.0.json`,
      JSON.stringify({ $id: "https://example.com/schemas/event/2.0.json", type: 7 }),
    );
    const failed = await monitor.reload();
    expect(failed).toEqual({
      ok: false,
      problem: expect.stringContaining(`${dir}/schemas/2.0.json: does not compile`),
    });
    expect(monitor.status().subjects[0]!.versions.map((v) => v.version)).toEqual(["1.0.0", "1.1.0"]);

    await cp(resolve("examples/catalog/event/2.0.json"), `${dir}/schemas/2.0.json`);
    const config = await readFile(`${dir}/config.yaml`, "utf8");
    await writeFile(`${dir}/config.yaml`, config + '      "2.0.0": { status: candidate }\n');
    expect(await monitor.reload()).toEqual({ ok: true });
    const status = monitor.status().subjects[0]!;
    expect(status.versions.map((v) => `${v.version}:${v.status}`)).toEqual([
      "1.0.0:deprecated",
      "1.1.0:active",
      "2.0.0:candidate",
    ]);
    // Every validated record of the capture was judged against 2.0.0 at once: 160, since this config
    // gives no Confluent ids and billing's 40 wire-format records are unknown_schema_id here.
    const candidate = status.versions[2]!.wouldFail;
    const judged = Object.values(candidate).reduce((sum, r) => sum + (r?.validations ?? 0), 0);
    expect(judged).toBe(160);
    // Counters of the readers that stayed carry over.
    expect(status.versions[0]!.wouldFail.forward).toEqual({
      validations: 60,
      failed: 60,
      wouldFailRate: 1,
    });
    const verdict = monitor.report().subjects[0]!.versions[2]!.verdict!;
    expect(verdict.evidence["samples"]).toBe(160);
    await monitor.stop();
  });
});
