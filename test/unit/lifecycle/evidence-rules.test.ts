import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import {
  mergeUnreadable,
  zeroFailureUpperBound,
  type UnreadableEvidence,
} from "../../../src/lifecycle/evidence.js";
import { Lifecycle, type LifecycleSubject } from "../../../src/lifecycle/lifecycle.js";
import { createLogger } from "../../../src/log.js";
import type { ReaderResult } from "../../../src/engine/evaluate.js";
import type { SubjectPipeline } from "../../../src/pipeline/pipeline.js";
import { eventPipeline } from "../../helpers/monitor.js";

// How the evidence behind the verdicts is gathered and kept: the latest declaration, the undeclared
// records that still need a version, unreadable records, candidate failures, the verdict changes
// logged, and a saved state restored.

const T0 = Date.parse("2026-12-01T08:00:00Z");

/** A lifecycle of the bundled `event` subject on a settable clock, logging into `lines`. */
async function lifecycleOf() {
  const { pipeline } = await eventPipeline("    drainWindow: 60s\n    readyWindow: 60s\n    minSamples: 1\n");
  const subject = pipeline.subjects.get("event")!;
  const s: LifecycleSubject = { subject: subject.subject, drainWindow: 60, readyWindow: 60, minSamples: 1 };
  const lines: { level: number; msg: string; reasons?: string[] }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as (typeof lines)[number]);
      done();
    },
  });
  let now = T0;
  const lifecycle = new Lifecycle([s], createLogger("info", sink), () => now);
  return { lifecycle, subject, lines, s, setNow: (t: number) => (now = t) };
}

/** A record's results against 1.0.0, 1.1.0 and 2.0.0 (in order), as a subject pipeline holds them. */
function withResults(subject: SubjectPipeline, passed: [boolean, boolean, boolean]): ReaderResult[] {
  const readers = subject.subject.versions;
  const results = readers.map((reader, i) => ({
    reader,
    direction: "undeclared" as const,
    passed: passed[i]!,
    keyword: passed[i] ? null : "required",
    instancePath: passed[i] ? null : "/key",
  }));
  return results;
}

describe("declared versions", () => {
  it("keep the latest declaration and its producer; an equal time keeps the first", async () => {
    const { lifecycle } = await lifecycleOf();
    lifecycle.declared("event", "1.0.0", "web", T0 + 10);
    lifecycle.declared("event", "1.0.0", "mobile", T0 + 10);
    lifecycle.declared("event", "1.0.0", "batch", T0 + 5);
    expect(lifecycle.version("event", "1.0.0")).toMatchObject({
      lastDeclaredAt: T0 + 10,
      lastDeclaredBy: "web",
    });
  });
});

describe("validated records", () => {
  it("an undeclared record that passes 1.0 and fails the newer active 1.1 still needs 1.0; the candidate is tallied", async () => {
    const { lifecycle, subject } = await lifecycleOf();
    lifecycle.validated("event", withResults(subject, [true, false, false]), "web", undefined, T0 + 20);
    lifecycle.validated("event", withResults(subject, [true, false, true]), "web", undefined, T0 + 10);
    expect(lifecycle.version("event", "1.0.0")).toMatchObject({
      undeclaredDependents: 2,
      lastUndeclaredAt: T0 + 20,
    });
    // 1.1.0 failed both: it is needed by neither; 2.0.0 is a candidate, never "needed"
    expect(lifecycle.version("event", "1.1.0")).toMatchObject({ undeclaredDependents: 0 });
    expect(lifecycle.version("event", "2.0.0")).toMatchObject({ undeclaredDependents: 0 });
    // only candidates gather candidate evidence
    expect(Object.keys(lifecycle.toState().candidates["event"]!)).toEqual(["2.0.0"]);
    expect(lifecycle.candidate("event", "2.0.0")).toMatchObject({
      samples: 2,
      failures: 1,
      lastFailureAt: T0 + 20,
      producers: {
        web: { samples: 2, failures: 1, samplesSinceFailure: 1, keyword: "required", instancePath: "/key" },
      },
    });
  });

  it("one that the newer active version accepts needs only that one; a declared record needs none", async () => {
    const { lifecycle, subject } = await lifecycleOf();
    lifecycle.validated("event", withResults(subject, [true, true, true]), "web", undefined, T0);
    expect(lifecycle.version("event", "1.0.0").undeclaredDependents).toBe(0);
    expect(lifecycle.version("event", "1.1.0")).toMatchObject({
      undeclaredDependents: 1,
      lastUndeclaredAt: T0,
    });
    lifecycle.validated(
      "event",
      withResults(subject, [true, false, true]),
      "web",
      subject.subject.versions[0],
      T0 + 5,
    );
    expect(lifecycle.version("event", "1.0.0").undeclaredDependents).toBe(0);
    expect(lifecycle.candidate("event", "2.0.0").samples).toBe(2);
  });

  it("a candidate's last failure is the latest, whatever order the results arrive in", async () => {
    const { lifecycle } = await lifecycleOf();
    const fail = { passed: false, keyword: "type", instancePath: "" };
    lifecycle.candidateResult("event", "2.0.0", "web", fail, T0 + 20);
    lifecycle.candidateResult("event", "2.0.0", "web", fail, T0 + 10);
    expect(lifecycle.candidate("event", "2.0.0")).toMatchObject({ lastFailureAt: T0 + 20 });
    expect(lifecycle.candidate("event", "2.0.0").producers["web"]).toMatchObject({ lastFailureAt: T0 + 20 });
  });
});

describe("unreadable records", () => {
  it("add up per partition and reason, their times widening both ways", async () => {
    const { lifecycle } = await lifecycleOf();
    lifecycle.unreadable("event", "events", 0, "not_json", 1, T0 + 10);
    lifecycle.unreadable("event", "events", 0, "not_json", 2, T0 + 5);
    lifecycle.unreadable("event", "events", 0, "not_json", 1, T0 + 30);
    lifecycle.unreadable("event", "events", 0, "not_json", 1, T0 + 20);
    expect(lifecycle.unreadableOf("event")).toEqual([
      { topic: "events", partition: 0, reason: "not_json", records: 5, firstAt: T0 + 5, lastAt: T0 + 30 },
    ]);
  });

  it("of several replicas merge into one list, sorted by topic, partition and reason", () => {
    const e = (
      topic: string,
      partition: number,
      reason: string,
      records: number,
      firstAt: number,
      lastAt: number,
    ) => ({ topic, partition, reason, records, firstAt, lastAt }) as UnreadableEvidence;
    const merged = mergeUnreadable([
      [e("events", 10, "too_large", 1, 5, 6), e("events", 2, "not_json", 1, 10, 20)],
      [
        e("events", 2, "not_json", 3, 4, 15),
        e("alpha", 50, "too_deep", 1, 1, 1),
        e("events", 2, "empty", 1, 1, 1),
      ],
    ]);
    expect(merged).toEqual([
      e("alpha", 50, "too_deep", 1, 1, 1),
      e("events", 2, "empty", 1, 1, 1),
      e("events", 2, "not_json", 4, 4, 20),
      e("events", 10, "too_large", 1, 5, 6),
    ]);
  });

  it("the upper bound of a failure rate after no sample at all is 1", () => {
    expect(zeroFailureUpperBound(0)).toBe(1);
    expect(zeroFailureUpperBound(1)).toBeCloseTo(0.95, 10);
  });
});

describe("verdict changes", () => {
  it("log once when drained, warn when traffic returns, and say nothing while the verdict stays", async () => {
    const { lifecycle, lines, setNow } = await lifecycleOf();
    lifecycle.knownPartitions.set("events", new Set([0]));
    lifecycle.coverage.assigned(new Map([["events", [0]]]), T0, false);
    lifecycle.candidateResult(
      "event",
      "2.0.0",
      "web",
      { passed: true, keyword: null, instancePath: null },
      T0,
    );
    lifecycle.judge();
    expect(lines.map((l) => l.msg)).toEqual([]);
    setNow(T0 + 60_000);
    lifecycle.judge();
    lifecycle.judge();
    expect(lines.map((l) => `${l.level} ${l.msg}`)).toEqual([
      "30 event 1.0.0 is drained",
      "30 event 2.0.0 is ready",
    ]);
    lifecycle.declared("event", "1.0.0", "web", T0 + 60_000);
    lifecycle.candidateResult(
      "event",
      "2.0.0",
      "web",
      { passed: false, keyword: "type", instancePath: "" },
      T0 + 60_000,
    );
    lifecycle.judge();
    expect(lines.slice(2).map((l) => `${l.level} ${l.msg} ${l.reasons?.length}`)).toEqual([
      "40 event 1.0.0 is no longer drained: traffic returned 1",
      "40 event 2.0.0 is no longer ready 2",
    ]);
    lifecycle.judge();
    expect(lines).toHaveLength(4);
  });

  it("a verdict that is yes at its first judgement is logged once, with its subject, version and evidence", async () => {
    const { lifecycle, lines } = await lifecycleOf();
    lifecycle.knownPartitions.set("events", new Set([0]));
    lifecycle.coverage.restore([
      { topic: "events", partition: 0, coveredSince: T0 - 60_000, lastOffset: "1", observedUntil: T0 },
    ]);
    lifecycle.coverage.assigned(new Map([["events", [0]]]), T0, false);
    lifecycle.judge();
    lifecycle.judge();
    expect(lines.map((l) => l.msg)).toEqual(["event 1.0.0 is drained"]);
    expect(lines[0]).toMatchObject({
      subject: "event",
      version: "1.0.0",
      evidence: { window: "1m", partitions: 1 },
    });
    // and when it stops being yes, the fields say which verdict and why
    lifecycle.declared("event", "1.0.0", "web", T0);
    lifecycle.judge();
    expect(lines[1]).toMatchObject({
      subject: "event",
      version: "1.0.0",
      verdict: "drained",
      reasons: ["last seen just now from producer web"],
    });
  });

  it("restores a saved state: the earliest start, the evidence, and unreadable records (absent in older states)", async () => {
    const { lifecycle } = await lifecycleOf();
    const unreadable = {
      topic: "events",
      partition: 0,
      reason: "too_large",
      records: 2,
      firstAt: T0,
      lastAt: T0,
    };
    const state = {
      format: 1 as const,
      savedAt: T0,
      startedAt: T0 - 5_000,
      partitions: [],
      versions: {
        event: {
          "1.0.0": {
            lastDeclaredAt: T0,
            lastDeclaredBy: "web",
            undeclaredDependents: 0,
            lastUndeclaredAt: 0,
          },
        },
      },
      candidates: {},
    };
    lifecycle.restore(state);
    expect(lifecycle.startedAt).toBe(T0 - 5_000);
    const other = { ...unreadable, partition: 1, reason: "not_json" };
    lifecycle.restore({ ...state, startedAt: T0 + 5_000, unreadable: { event: [unreadable, other] } });
    expect(lifecycle.startedAt).toBe(T0 - 5_000);
    expect(lifecycle.version("event", "1.0.0").lastDeclaredBy).toBe("web");
    expect(lifecycle.unreadableOf("event")).toEqual([unreadable, other]);
    expect([...lifecycle.subjects].map((s) => s.subject.name)).toEqual(["event"]);
  });

  it("after a catalog reload, only the subjects given are judged", async () => {
    const { lifecycle } = await lifecycleOf();
    lifecycle.replaceSubjects([]);
    expect(lifecycle.judge().size).toBe(0);
    expect(lifecycle.hasSubject("event")).toBe(false);
  });
});
