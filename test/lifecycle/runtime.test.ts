import { access, readFile, writeFile } from "node:fs/promises";
import { Writable } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Lifecycle } from "../../src/lifecycle/lifecycle.js";
import { LifecycleRuntime } from "../../src/lifecycle/runtime.js";
import { loadState, saveState } from "../../src/lifecycle/state-file.js";
import type { StateTopic } from "../../src/lifecycle/state-topic.js";
import { createLogger } from "../../src/log.js";
import { Health } from "../../src/monitor/health.js";
import { writeTree } from "../helpers/files.js";
import { eventPipeline, record } from "../helpers/monitor.js";

// The runtime that wires the lifecycle into a monitor: its clock, its periodic verdicts, where the
// state goes (a file or the shared state topic), and the hooks of the source.

const T0 = Date.parse("2026-12-01T08:00:00Z");
const V1 = { id: 1, event: "view" };

async function runtimeWith(
  options: { statePath?: string; stateTopic?: StateTopic; judgeInterval?: number } = {},
) {
  const { pipeline } = await eventPipeline();
  const health = new Health();
  // What the runtime logs, as `msg {fields}` (pino's own fields left out).
  const logged: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const {
        msg,
        level: _l,
        time: _t,
        service: _s,
        pid: _p,
        hostname: _h,
        ...fields
      } = JSON.parse(chunk.toString()) as Record<string, unknown>;
      logged.push(`${String(msg)} ${JSON.stringify(fields)}`);
      done();
    },
  });
  const runtime = new LifecycleRuntime({
    pipeline,
    health,
    logger: createLogger("info", sink),
    clock: "live",
    ...options,
  });
  return { pipeline, health, runtime, logged };
}

/** A state topic that records what the runtime asks of it; `fail` makes each call reject. */
function fakeStateTopic(fail = false) {
  const calls: string[] = [];
  const answer = async (call: string) => {
    calls.push(call);
    if (fail) throw new Error(`${call} failed`);
  };
  const topic = {
    replica: "r1",
    start: async (_lifecycle: Lifecycle, onProblem: (problem: string) => void) => {
      await answer("start");
      onProblem("record r2/events/0 unreadable");
      return 3;
    },
    publish: (_lifecycle: Lifecycle, owned: readonly unknown[]) => answer(`publish ${owned.length}`),
    publishVersions: () => answer("publishVersions"),
    publishCoverage: (owned: readonly unknown[]) => answer(`publishCoverage ${owned.length}`),
    stop: () => answer("stop"),
  };
  return { calls, topic: topic as unknown as StateTopic };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("the live clock", () => {
  it("ticks every 250 ms and judges at once, then whenever the interval has passed, to the millisecond", async () => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
    const { pipeline, runtime } = await runtimeWith({ judgeInterval: 1000 });
    runtime.startTicking();
    expect(pipeline.observedAt).toBe(T0);
    const first = runtime.verdict("event", "1.0.0");
    expect(first?.kind).toBe("drained");
    await vi.advanceTimersByTimeAsync(750);
    expect(pipeline.observedAt).toBe(T0 + 750);
    expect(runtime.verdict("event", "1.0.0")).toBe(first);
    await vi.advanceTimersByTimeAsync(250);
    expect(runtime.verdict("event", "1.0.0")).not.toBe(first);
    await runtime.stop();
    await vi.advanceTimersByTimeAsync(1000);
    expect(pipeline.observedAt).toBe(T0 + 1000);
  });

  it("keeps an assigned partition observed up to each tick", async () => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
    const { runtime, health } = await runtimeWith();
    runtime.lifecycle.coverage.assigned(new Map([["events", [0]]]), T0, false);
    runtime.startTicking();
    await vi.advanceTimersByTimeAsync(500);
    expect(runtime.lifecycle.coverage.get("events", 0)!.observedUntil).toBe(T0 + 500);
    // each tick lists the partitions the last lag measurement found, before any verdict
    health.lag.set("events", new Map([[1, 3]]));
    await vi.advanceTimersByTimeAsync(250);
    expect([...runtime.lifecycle.knownPartitions.get("events")!]).toEqual([1]);
    await runtime.stop();
  });

  it("allows another replica two missed publishes and 5 s before its partitions count as unobserved", async () => {
    expect((await runtimeWith()).runtime.lifecycle.coverage.sharedSlackMs).toBe(25_000);
    expect((await runtimeWith({ judgeInterval: 1000 })).runtime.lifecycle.coverage.sharedSlackMs).toBe(7_000);
  });
});

describe("the partitions the lag measurement lists", () => {
  it("become known at the next verdict, and one at lag 0 measured after its assignment has caught up", async () => {
    const { runtime, health } = await runtimeWith();
    const now = Date.now();
    runtime.lifecycle.coverage.assigned(new Map([["events", [0, 1]]]), now - 10_000);
    health.lag.set(
      "events",
      new Map([
        [0, 0],
        [1, 5],
      ]),
    );
    health.lagMeasuredAt.set("events", now - 1_000);
    runtime.verdicts();
    expect([...runtime.lifecycle.knownPartitions.get("events")!]).toEqual([0, 1]);
    expect(runtime.lifecycle.coverage.isCatchingUp("events", 0)).toBe(false);
    expect(runtime.lifecycle.coverage.isCatchingUp("events", 1)).toBe(true);
  });

  it("adds to the partitions known already", async () => {
    const { runtime, health } = await runtimeWith();
    runtime.lifecycle.knownPartitions.set("events", new Set([5]));
    health.lag.set("events", new Map([[0, 0]]));
    runtime.verdicts();
    expect([...runtime.lifecycle.knownPartitions.get("events")!]).toEqual([5, 0]);
  });

  it("a lag with no time of measurement counts as measured at 0: before any assignment", async () => {
    const { runtime, health } = await runtimeWith();
    runtime.lifecycle.coverage.assigned(new Map([["events", [0]]]), Date.now());
    health.lag.set("events", new Map([[0, 0]]));
    runtime.verdicts();
    expect(runtime.lifecycle.coverage.isCatchingUp("events", 0)).toBe(true);
  });
});

describe("declared versions", () => {
  it("are folded from the tallies only for records with a writer that were observed", async () => {
    const { runtime, pipeline } = await runtimeWith();
    pipeline.observedAt = T0;
    pipeline.process(record(V1, { "schema-version": "1.0", producer: "web" }));
    pipeline.process(record(V1, { producer: "mobile" }));
    runtime.verdicts();
    expect(runtime.lifecycle.version("event", "1.0.0")).toMatchObject({
      lastDeclaredAt: T0,
      lastDeclaredBy: "web",
    });
    expect(runtime.verdict("event", "1.0.0")?.evidence).toMatchObject({ lastDeclaredBy: "web" });
    expect(runtime.verdict("event", "9.9.9")).toBeUndefined();
    // 1.1.0 from the undeclared record's validation; no entry for the label of records without a version
    expect(Object.keys(runtime.lifecycle.toState().versions["event"]!).sort()).toEqual(["1.0.0", "1.1.0"]);
  });
});

describe("the state file", () => {
  it("saves the evidence with the corpus and the registry snapshots beside it, and restores them", async () => {
    const dir = await writeTree({});
    const path = `${dir}/state.json`;
    const { runtime } = await runtimeWith({ statePath: path });
    runtime.lifecycle.coverage.processed("events", 0, "0", "41", T0);
    runtime.extraState = () => ({ shapes: 2 });
    runtime.registryState = () => ({ subjects: ["event"] });
    await runtime.save();
    const saved = (await loadState(path))!;
    expect(saved.corpus).toEqual({ shapes: 2 });
    expect(saved.registry).toEqual({ subjects: ["event"] });

    const { runtime: restarted, logged } = await runtimeWith({ statePath: path });
    await restarted.load();
    expect(logged).toEqual([`lifecycle state restored {"path":"${path}","partitions":1}`]);
    expect(restarted.lifecycle.coverage.get("events", 0)).toMatchObject({ lastOffset: "41" });
    expect(restarted.restoredExtra).toEqual({ shapes: 2 });
    expect(restarted.stateProblem).toBeUndefined();
  });

  it("leaves out what has nothing to save", async () => {
    const dir = await writeTree({});
    const path = `${dir}/state.json`;
    const { runtime } = await runtimeWith({ statePath: path });
    runtime.extraState = () => undefined;
    await runtime.save();
    const saved = JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
    expect(Object.keys(saved).sort()).toEqual([
      "candidates",
      "format",
      "partitions",
      "savedAt",
      "startedAt",
      "unreadable",
      "versions",
    ]);
  });

  it("a missing file is a first start: no problem, no gap, nothing logged", async () => {
    const dir = await writeTree({});
    const { runtime, logged } = await runtimeWith({ statePath: `${dir}/state.json` });
    await runtime.load();
    expect(runtime.stateProblem).toBeUndefined();
    expect(runtime.lifecycle.coverage.gapCounts.size).toBe(0);
    expect(logged).toEqual([]);
    // and the first save writes it, with neither corpus nor registry hooks set
    await runtime.save();
    await access(`${dir}/state.json`);
  });

  it("a file that cannot be read is reported and restarts every window now, never zero traffic", async () => {
    const dir = await writeTree({ "state.json": "{ not json" });
    const { runtime } = await runtimeWith({ statePath: `${dir}/state.json` });
    await runtime.load();
    expect(runtime.stateProblem).toBe(`${dir}/state.json: state is not valid JSON`);
    expect(runtime.lifecycle.coverage.gapCounts.get("events")).toBe(1);
  });

  it("a save that fails is logged, not thrown; without a path nothing is read or written", async () => {
    const dir = await writeTree({ "state.json": "{}" });
    const { runtime, logged } = await runtimeWith({ statePath: `${dir}/state.json/inside` });
    await expect(runtime.save()).resolves.toBeUndefined();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(
      /^could not save lifecycle state \{"path":".*\/state.json\/inside","problem":"/,
    );
    const { runtime: none, logged: quiet } = await runtimeWith();
    await none.load();
    await none.save();
    expect(none.stateProblem).toBeUndefined();
    expect(quiet).toEqual([]);
    // the first state written there is read back as it was
    await saveState(`${dir}/other.json`, none.lifecycle.toState());
    await writeFile(`${dir}/state.json`, await readFile(`${dir}/other.json`));
    const again = (await runtimeWith({ statePath: `${dir}/state.json` })).runtime;
    await again.load();
    expect(again.stateProblem).toBeUndefined();
  });
});

describe("the shared state topic", () => {
  it("is read at start (a bad record is a problem, not a failure), published at each verdict, versions every second", async () => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
    const { calls, topic } = fakeStateTopic();
    const { runtime, logged } = await runtimeWith({ stateTopic: topic, judgeInterval: 10_000 });
    await runtime.load();
    expect(runtime.stateProblem).toBe("record r2/events/0 unreadable");
    runtime.lifecycle.coverage.assigned(new Map([["events", [0]]]), T0, false);
    runtime.startTicking();
    // versions go out at the first tick after the verdict (250 ms), then exactly a second later
    await vi.advanceTimersByTimeAsync(1250);
    runtime.hooks.onRevoked();
    await runtime.stop();
    expect(calls).toEqual([
      "start",
      "publish 1",
      "publishVersions",
      "publishVersions",
      "publishCoverage 1",
      "publish 0",
      "stop",
    ]);
    expect(logged).toEqual([
      'lifecycle state record unreadable: treated as a coverage gap {"problem":"record r2/events/0 unreadable"}',
      'lifecycle state read from the state topic {"records":3,"replica":"r1"}',
    ]);
  });

  it("a state topic that cannot be read restarts every window; failed publishes are logged, never thrown", async () => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
    const { calls, topic } = fakeStateTopic(true);
    const { runtime, logged } = await runtimeWith({ stateTopic: topic });
    await runtime.load();
    expect(runtime.stateProblem).toBe("start failed");
    expect(runtime.lifecycle.coverage.gapCounts.get("events")).toBe(1);
    runtime.startTicking();
    await vi.advanceTimersByTimeAsync(1000);
    runtime.hooks.onRevoked();
    await runtime.save();
    expect(calls).toEqual(["start", "publish 0", "publishVersions", "publishCoverage 0", "publish 0"]);
    await vi.advanceTimersByTimeAsync(0);
    expect(logged).toEqual([
      'lifecycle state unreadable: every window restarts now {"problem":"start failed"}',
      'could not publish lifecycle state {"problem":"publish 0 failed"}',
      'could not publish version evidence {"problem":"publishVersions failed"}',
      'could not publish coverage on revocation {"problem":"publishCoverage 0 failed"}',
      'could not publish lifecycle state {"problem":"publish 0 failed"}',
    ]);
  });
});

describe("a replayed capture", () => {
  it("takes the records' timestamps as the clock, the earliest as the start, each partition as assigned", async () => {
    const { pipeline } = await eventPipeline();
    const runtime = new LifecycleRuntime({
      pipeline,
      health: new Health(),
      logger: createLogger("silent"),
      clock: "records",
    });
    expect(runtime.lifecycle.startedAt).toBe(Number.POSITIVE_INFINITY);
    const sink = runtime.replaySink();
    const at = (timestamp: number, partition: number, offset: string) => ({
      ...record(V1, { "schema-version": "1.0", producer: "web" }, { timestamp }),
      partition,
      offset,
    });
    sink.process(at(T0 + 5_000, 0, "0"));
    sink.process(at(T0 + 2_000, 1, "0"));
    sink.process(at(T0 + 4_000, 0, "1"));
    await sink.flush?.();
    expect(runtime.lifecycle.now()).toBe(T0 + 5_000);
    expect(runtime.lifecycle.startedAt).toBe(T0 + 2_000);
    expect([...runtime.lifecycle.knownPartitions.get("events")!]).toEqual([0, 1]);
    expect(runtime.lifecycle.coverage.get("events", 0)).toMatchObject({
      lastOffset: "1",
      coveredSince: T0 + 5_000,
    });
    expect(runtime.lifecycle.coverage.get("events", 1)).toMatchObject({
      lastOffset: "0",
      coveredSince: T0 + 2_000,
    });
    expect(runtime.lifecycle.coverage.gaps.map((g) => `${g.partition} ${g.reason}`)).toEqual([
      "0 first-observation",
      "1 first-observation",
    ]);
  });
});

describe("stopping", () => {
  it("judges once more and saves, even when it never ticked", async () => {
    const dir = await writeTree({});
    const { runtime } = await runtimeWith({ statePath: `${dir}/state.json` });
    await runtime.stop();
    expect(runtime.verdict("event", "2.0.0")?.kind).toBe("ready");
    await access(`${dir}/state.json`);
  });
});

describe("the source's hooks", () => {
  it("a topic that goes missing restarts the windows of the partitions read before", async () => {
    const { runtime } = await runtimeWith();
    runtime.lifecycle.coverage.processed("events", 0, "0", "9", T0);
    runtime.hooks.onTopicMissing("events");
    expect(runtime.lifecycle.coverage.gaps.at(-1)).toMatchObject({ reason: "topic-missing", partition: 0 });
  });
});
