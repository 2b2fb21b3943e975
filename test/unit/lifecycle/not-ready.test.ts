import { afterEach, describe, expect, it, vi } from "vitest";
import { zeroFailureUpperBound } from "../../../src/lifecycle/evidence.js";
import { liveLifecycle } from "../../helpers/lifecycle.js";

// Every cause that keeps a candidate from being ready, exact about the reason and at its boundary.

const T0 = Date.parse("2026-12-01T08:00:00Z");
const WINDOW_S = 600;
interface Result {
  passed: boolean;
  keyword: string | null;
  instancePath: string | null;
}
const pass: Result = { passed: true, keyword: null, instancePath: null };
const fail = (keyword: string, instancePath: string): Result => ({ passed: false, keyword, instancePath });

/** A live monitor of the bundled `event` catalog (2.0.0 candidate, 3 samples needed) on a faked clock. */
async function live() {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(T0);
  const { runtime, lifecycle } = await liveLifecycle({
    subjectExtra: `    readyWindow: ${WINDOW_S}s\n    minSamples: 3\n`,
  });
  return {
    lifecycle,
    at: (seconds: number) => vi.setSystemTime(T0 + seconds * 1000),
    observe() {
      lifecycle.knownPartitions.set("events", new Set([0]));
      runtime.sourceEvents.onAssigned(new Map([["events", [0]]]));
      runtime.sourceEvents.onBatchEnd("events", 0, "0", "9", "10");
    },
    sample(producer: string, result: Result, seconds: number) {
      lifecycle.candidateResult("event", "2.0.0", producer, result, T0 + seconds * 1000);
    },
    ready: () => runtime.verdicts().get("event\u00002.0.0")!,
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("ready", () => {
  it("is ready with the samples needed and no failure, the window covered", async () => {
    const m = await live();
    m.observe();
    for (let i = 0; i < 3; i++) m.sample("web", pass, 10);
    m.at(WINDOW_S);
    expect(m.ready().reasons).toEqual([]);
    expect(m.ready().yes).toBe(true);
    expect(m.ready().evidence).toEqual({
      window: "10m",
      coveredSince: "2026-12-01T08:00Z",
      samples: 3,
      failures: 0,
      samplesSinceFailure: 3,
      upperBound95: zeroFailureUpperBound(3),
      producers: {
        web: { samples: 3, failures: 0, samplesSinceFailure: 3, upperBound95: zeroFailureUpperBound(3) },
      },
    });
  });

  it("needs the minimum of samples without a failure: one fewer is not ready", async () => {
    const m = await live();
    m.observe();
    m.sample("web", pass, 10);
    m.sample("web", pass, 10);
    m.at(WINDOW_S);
    expect(m.ready().reasons).toEqual(["2 samples without a failure; 3 needed"]);
    m.sample("web", pass, 10);
    expect(m.ready().reasons).toEqual([]);
  });

  it("is not ready while the window is not covered, whatever the samples say", async () => {
    const m = await live();
    m.observe();
    for (let i = 0; i < 3; i++) m.sample("web", pass, 10);
    m.at(WINDOW_S - 1);
    expect(m.ready().reasons).toEqual(["coverage gap on events/0 until 2026-12-01T08:10Z"]);
  });

  it("with no partition known, has no start of coverage", async () => {
    const m = await live();
    m.at(WINDOW_S);
    expect(m.ready().reasons).toEqual([
      "no partition of events observed yet",
      "0 samples without a failure; 3 needed",
    ]);
    expect(m.ready().evidence).toMatchObject({ coveredSince: null });
  });
});

describe("not ready: a producer's samples fail the candidate within the window", () => {
  it("names each failing producer in order, with the keyword, where, and when; until exactly one window after", async () => {
    const m = await live();
    m.observe();
    m.sample("web", fail("required", "/amount"), 60);
    m.sample("billing", fail("type", ""), 30);
    for (let i = 0; i < 3; i++) m.sample("mobile", pass, 40);
    m.at(WINDOW_S + 30);
    const verdict = m.ready();
    expect(verdict.reasons).toEqual([
      "producer billing: 1 of 1 samples fail 2.0.0 (type at root), last one 10m ago",
      "producer web: 1 of 1 samples fail 2.0.0 (required at /amount), last one 9m30s ago",
    ]);
    expect(Object.keys(verdict.evidence.producers as object)).toEqual(["billing", "mobile", "web"]);
    expect(verdict.evidence.producers).toEqual({
      billing: {
        samples: 1,
        failures: 1,
        keyword: "type",
        instancePath: "",
        lastFailure: "2026-12-01T08:00Z",
      },
      mobile: { samples: 3, failures: 0, samplesSinceFailure: 3, upperBound95: zeroFailureUpperBound(3) },
      web: {
        samples: 1,
        failures: 1,
        keyword: "required",
        instancePath: "/amount",
        lastFailure: "2026-12-01T08:01Z",
      },
    });
    // a millisecond past one window after billing's failure, only web's remains
    m.at(WINDOW_S + 30.001);
    expect(m.ready().reasons).toEqual([
      "producer web: 1 of 1 samples fail 2.0.0 (required at /amount), last one 9m30s ago",
    ]);
    expect(m.ready().evidence.producers).toMatchObject({
      billing: { samples: 1, failures: 1, samplesSinceFailure: 0, upperBound95: 1 },
    });
  });
});
