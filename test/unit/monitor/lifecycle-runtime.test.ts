import { access } from "node:fs/promises";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LifecycleRuntime } from "../../../src/monitor/lifecycle-runtime.js";
import { lifecycleListeners, newLifecycle } from "../../../src/monitor/lifecycle-setup.js";
import { createLogger } from "../../../src/log.js";
import { ObservationClock } from "../../../src/pipeline/clock.js";
import { Pipeline } from "../../../src/pipeline/pipeline.js";
import { writeTree } from "../../helpers/files.js";
import { eventPipeline, record } from "../../helpers/monitor.js";
import { T0, runtimeWith } from "./lifecycle-runtime-fakes.js";

// The runtime that wires the lifecycle into a monitor: its clock, its periodic verdicts, the lag's
// partitions, a replayed capture's clock, and the hooks of the source. Its state: runtime-state.test.ts.

const V1 = { id: 1, event: "view" };

afterEach(() => {
  vi.useRealTimers();
});

describe("the live clock", () => {
  it("ticks every 250 ms and judges at once, then whenever the interval has passed, to the millisecond", async () => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
    const { clock, runtime } = await runtimeWith({ judgeInterval: 1000 });
    runtime.startTicking();
    expect(clock.now).toBe(T0);
    const first = runtime.verdict("event", "1.0.0");
    expect(first?.kind).toBe("drained");
    await vi.advanceTimersByTimeAsync(750);
    expect(clock.now).toBe(T0 + 750);
    expect(runtime.verdict("event", "1.0.0")).toBe(first);
    await vi.advanceTimersByTimeAsync(250);
    expect(runtime.verdict("event", "1.0.0")).not.toBe(first);
    await runtime.stop();
    await vi.advanceTimersByTimeAsync(1000);
    expect(clock.now).toBe(T0 + 1000);
  });

  it("keeps an assigned partition observed up to each tick", async () => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
    const { runtime } = await runtimeWith();
    runtime.lifecycle.coverage.assigned(new Map([["events", [0]]]), T0, false);
    runtime.startTicking();
    await vi.advanceTimersByTimeAsync(500);
    expect(runtime.lifecycle.coverage.get("events", 0)!.observedUntil).toBe(T0 + 500);
    // each tick lists the partitions the last lag measurement found, before any verdict
    runtime.sourceEvents.onLagMeasured("events", new Map([[1, 3]]), undefined, T0 + 500);
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
    const { runtime } = await runtimeWith();
    const now = Date.now();
    runtime.lifecycle.coverage.assigned(new Map([["events", [0, 1]]]), now - 10_000);
    const lag = new Map([
      [0, 0],
      [1, 5],
    ]);
    runtime.sourceEvents.onLagMeasured("events", lag, undefined, now - 1_000);
    runtime.verdicts();
    expect([...runtime.lifecycle.knownPartitions.get("events")!]).toEqual([0, 1]);
    expect(runtime.lifecycle.coverage.isCatchingUp("events", 0)).toBe(false);
    expect(runtime.lifecycle.coverage.isCatchingUp("events", 1)).toBe(true);
  });

  it("are the partitions the brokers list now: one no longer listed is no longer known", async () => {
    const { runtime } = await runtimeWith();
    runtime.lifecycle.knownPartitions.set("events", new Set([5]));
    runtime.sourceEvents.onLagMeasured("events", new Map([[0, 0]]), undefined, Date.now());
    runtime.verdicts();
    expect([...runtime.lifecycle.knownPartitions.get("events")!]).toEqual([0]);
  });

  it("a lag 0 measured before the assignment leaves the partition catching up", async () => {
    const { runtime } = await runtimeWith();
    const now = Date.now();
    runtime.lifecycle.coverage.assigned(new Map([["events", [0]]]), now);
    runtime.sourceEvents.onLagMeasured("events", new Map([[0, 0]]), undefined, now - 1);
    runtime.verdicts();
    expect(runtime.lifecycle.coverage.isCatchingUp("events", 0)).toBe(true);
  });
});

describe("declared versions", () => {
  it("are folded from the tallies only for records with a writer that were observed", async () => {
    const { runtime, pipeline, clock } = await runtimeWith();
    clock.advance(T0);
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

describe("a replayed capture", () => {
  it("observes each record at the capture's clock, never at its own timestamp; the first as the start, each partition as assigned", async () => {
    const { catalog, config } = await eventPipeline();
    const clock = new ObservationClock();
    const timing = { clock };
    const logger = createLogger("silent");
    const lifecycle = newLifecycle(catalog, config, logger, timing);
    const pipeline = new Pipeline(catalog, config, { ...lifecycleListeners(lifecycle), clock });
    const runtime = new LifecycleRuntime({
      lifecycle,
      pipeline,
      logger,
      timing,
      persistence: { kind: "none" },
    });
    expect(runtime.lifecycle.startedAt).toBe(Number.POSITIVE_INFINITY);
    expect(runtime.lifecycle.now()).toBe(0);
    const sink = runtime.replaySink();
    // The file source advances the clock before each record; the records' own timestamps lie.
    const observe = (observedAt: number, timestamp: number, partition: number, offset: string) => {
      clock.advance(observedAt);
      sink.process({
        ...record(V1, { "schema-version": "1.0", producer: "web" }, { timestamp }),
        partition,
        offset,
      });
    };
    observe(T0 + 2_000, T0 + 900_000_000, 0, "0");
    observe(T0 + 4_000, T0 - 400 * 86_400_000, 1, "0");
    observe(T0 + 5_000, 1_000, 0, "1");
    await sink.flush?.();
    runtime.verdicts();
    expect(runtime.lifecycle.now()).toBe(T0 + 5_000);
    expect(runtime.lifecycle.startedAt).toBe(T0 + 2_000);
    expect(runtime.lifecycle.version("event", "1.0.0").lastDeclaredAt).toBe(T0 + 5_000);
    expect([...runtime.lifecycle.knownPartitions.get("events")!]).toEqual([0, 1]);
    expect(runtime.lifecycle.coverage.get("events", 0)).toMatchObject({
      lastOffset: "1",
      coveredSince: T0 + 2_000,
      observedUntil: T0 + 5_000,
    });
    expect(runtime.lifecycle.coverage.get("events", 1)).toMatchObject({
      lastOffset: "0",
      coveredSince: T0 + 4_000,
    });
    expect(runtime.lifecycle.coverage.gaps.map((g) => `${g.partition} ${g.reason}`)).toEqual([
      "0 first-observation",
      "1 first-observation",
    ]);
  });

  it("counts a capture line that is no record as unknown use on its partition", async () => {
    const { catalog, config } = await eventPipeline();
    const clock = new ObservationClock();
    const lifecycle = newLifecycle(catalog, config, createLogger("silent"), { clock });
    const pipeline = new Pipeline(catalog, config, { ...lifecycleListeners(lifecycle), clock });
    const runtime = new LifecycleRuntime({
      lifecycle,
      pipeline,
      logger: createLogger("silent"),
      timing: { clock },
      persistence: { kind: "none" },
    });
    clock.advance(T0 + 7_000);
    runtime.replaySink().unreadable!("events", 3, "invalid_capture_line");
    expect(runtime.lifecycle.unreadableOf("event")).toEqual([
      {
        topic: "events",
        partition: 3,
        reason: "invalid_capture_line",
        records: 1,
        firstAt: T0 + 7_000,
        lastAt: T0 + 7_000,
      },
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
    runtime.sourceEvents.onTopicMissing("events");
    expect(runtime.lifecycle.coverage.gaps.at(-1)).toMatchObject({ reason: "topic-missing", partition: 0 });
  });
});

describe("the renames' progress", () => {
  it("is taken at each judgement, at its time, and read until the next one", async () => {
    const { catalog, config } = await eventPipeline();
    const clock = new ObservationClock();
    const lifecycle = newLifecycle(catalog, config, createLogger("silent"), { clock });
    const pipeline = new Pipeline(catalog, config, { ...lifecycleListeners(lifecycle), clock });
    const asked: number[] = [];
    const runtime = new LifecycleRuntime({
      lifecycle,
      pipeline,
      logger: createLogger("silent"),
      timing: { clock },
      persistence: { kind: "none" },
      renames: (now) => {
        asked.push(now);
        return new Map([["event", []]]);
      },
    });
    expect(runtime.renames()).toEqual(new Map());
    clock.advance(T0 + 5_000);
    runtime.verdicts();
    const taken = runtime.renames();
    clock.advance(T0 + 9_000);
    expect(runtime.renames()).toBe(taken);
    runtime.verdicts();
    expect(asked).toEqual([T0 + 5_000, T0 + 9_000]);
    expect(runtime.renames()).not.toBe(taken);
  });
});
