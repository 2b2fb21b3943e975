import { describe, expect, it } from "vitest";
import type { CandidateEvidence, CandidateProducer } from "../../../src/lifecycle/evidence.js";
import {
  isCandidateEvidence,
  isCoverageEntry,
  isUnreadableList,
  isVersionEvidence,
  mergeCandidates,
  mergeVersionEvidence,
  readCoverageRecord,
  stateKey,
} from "../../../src/state/records.js";

// The shared state topic's records without a broker: their keys, which values are readable, and how
// the views of several replicas merge (the topic's own round trip is test/integration/state/state-topic.test.ts).

const coverage = { topic: "a/b", partition: 3, coveredSince: 10, lastOffset: "42", observedUntil: 20 };

describe("record keys", () => {
  it("encode each part, so that a name with a slash stays one part", () => {
    expect(stateKey("coverage", "a/b", 3)).toBe("coverage/a%2Fb/3");
    expect(stateKey("meta")).toBe("meta");
  });
});

describe("readable values", () => {
  it("a coverage record is read only for its own key and with an owner", () => {
    expect(readCoverageRecord({ owner: "r1", coverage }, "a/b", 3)).toEqual({
      owner: "r1",
      live: true,
      coverage,
    });
    expect(readCoverageRecord({ owner: "r1", coverage }, "a/b", 4)).toBeUndefined();
    expect(readCoverageRecord({ owner: "r1", coverage }, "a", 3)).toBeUndefined();
    expect(readCoverageRecord({ owner: 1, coverage }, "a/b", 3)).toBeUndefined();
    expect(
      readCoverageRecord({ owner: "r1", coverage: { ...coverage, lastOffset: "x" } }, "a/b", 3),
    ).toBeUndefined();
    expect(readCoverageRecord(null, "a/b", 3)).toBeUndefined();
  });

  it("a coverage record given up (released) or still catching up is not live; either flag must be a boolean", () => {
    const read = (flags: Record<string, unknown>) =>
      readCoverageRecord({ owner: "r1", ...flags, coverage }, "a/b", 3);
    expect(read({ released: true })).toEqual({ owner: "r1", live: false, coverage });
    expect(read({ catchingUp: true })).toEqual({ owner: "r1", live: false, coverage });
    expect(read({ released: false, catchingUp: false })).toEqual({ owner: "r1", live: true, coverage });
    expect(read({ released: "true" })).toBeUndefined();
    expect(read({ catchingUp: 1 })).toBeUndefined();
    expect(read({ released: null })).toBeUndefined();
  });

  it.each([
    ["a null last offset", { ...coverage, lastOffset: null }, true],
    ["a decimal last offset", coverage, true],
    ["a last offset with a sign", { ...coverage, lastOffset: "-1" }, false],
    ["a last offset with more than digits", { ...coverage, lastOffset: "42a" }, false],
    ["a numeric last offset", { ...coverage, lastOffset: 42 }, false],
    ["no topic", { ...coverage, topic: 1 }, false],
    ["a partition that is not finite", { ...coverage, partition: Number.NaN }, false],
    ["a partition as text", { ...coverage, partition: "3" }, false],
    ["no start", { ...coverage, coveredSince: undefined }, false],
    ["no end", { ...coverage, observedUntil: null }, false],
  ])("a coverage entry with %s is %s", (_name, entry, readable) => {
    expect(isCoverageEntry(entry)).toBe(readable);
  });

  it("version evidence needs every field, the producer a string or null", () => {
    const v = { lastDeclaredAt: 1, lastDeclaredBy: "web", undeclaredDependents: 0, lastUndeclaredAt: 0 };
    expect(isVersionEvidence(v)).toBe(true);
    expect(isVersionEvidence({ ...v, lastDeclaredBy: null })).toBe(true);
    expect(isVersionEvidence({ ...v, lastDeclaredBy: 1 })).toBe(false);
    for (const key of ["lastDeclaredAt", "undeclaredDependents", "lastUndeclaredAt"])
      expect(isVersionEvidence({ ...v, [key]: "1" })).toBe(false);
    expect(isVersionEvidence(null)).toBe(false);
  });

  it("candidate evidence needs every count, and every producer's", () => {
    const p = {
      samples: 1,
      failures: 0,
      samplesSinceFailure: 1,
      lastFailureAt: 0,
      keyword: null,
      instancePath: null,
    };
    const c = { samples: 1, failures: 0, samplesSinceFailure: 1, lastFailureAt: 0, producers: { web: p } };
    expect(isCandidateEvidence(c)).toBe(true);
    expect(
      isCandidateEvidence({ ...c, producers: { web: { ...p, keyword: "type", instancePath: "/a" } } }),
    ).toBe(true);
    for (const key of ["samples", "failures", "samplesSinceFailure", "lastFailureAt"]) {
      expect(isCandidateEvidence({ ...c, [key]: null })).toBe(false);
      expect(isCandidateEvidence({ ...c, producers: { web: { ...p, [key]: null } } })).toBe(false);
    }
    // The failure's keyword and pointer reach the report's text: a string or null, nothing else.
    for (const key of ["keyword", "instancePath"]) {
      expect(isCandidateEvidence({ ...c, producers: { web: { ...p, [key]: 5 } } })).toBe(false);
      expect(isCandidateEvidence({ ...c, producers: { web: { ...p, [key]: { html: "<b>" } } } })).toBe(false);
      const { [key as "keyword"]: _gone, ...without } = p;
      expect(isCandidateEvidence({ ...c, producers: { web: without } })).toBe(false);
    }
    expect(isCandidateEvidence({ ...c, producers: null })).toBe(false);
    expect(isCandidateEvidence({ ...c, producers: { web: null } })).toBe(false);
  });

  it("an unreadable list needs every field of every entry", () => {
    const e = { topic: "t", partition: 0, reason: "not_json", records: 1, firstAt: 1, lastAt: 2 };
    expect(isUnreadableList([e])).toBe(true);
    expect(isUnreadableList([])).toBe(true);
    expect(isUnreadableList({})).toBe(false);
    for (const key of Object.keys(e)) expect(isUnreadableList([e, { ...e, [key]: null }])).toBe(false);
  });
});

describe("merging the replicas' views", () => {
  it("a version: the latest declaration with its producer, the most dependents, the latest undeclared one", () => {
    const local = {
      lastDeclaredAt: 10,
      lastDeclaredBy: "web",
      undeclaredDependents: 5,
      lastUndeclaredAt: 30,
    };
    mergeVersionEvidence(local, {
      lastDeclaredAt: 20,
      lastDeclaredBy: "mobile",
      undeclaredDependents: 2,
      lastUndeclaredAt: 40,
    });
    expect(local).toEqual({
      lastDeclaredAt: 20,
      lastDeclaredBy: "mobile",
      undeclaredDependents: 5,
      lastUndeclaredAt: 40,
    });
    mergeVersionEvidence(local, {
      lastDeclaredAt: 20,
      lastDeclaredBy: "batch",
      undeclaredDependents: 9,
      lastUndeclaredAt: 1,
    });
    expect(local).toEqual({
      lastDeclaredAt: 20,
      lastDeclaredBy: "mobile",
      undeclaredDependents: 9,
      lastUndeclaredAt: 40,
    });
  });

  const producer = (
    samples: number,
    failures: number,
    since: number,
    lastFailureAt: number,
    keyword: string | null = null,
  ): CandidateProducer => ({
    samples,
    failures,
    samplesSinceFailure: since,
    lastFailureAt,
    keyword,
    instancePath: keyword ? "/a" : null,
  });
  const view = (producers: Record<string, CandidateProducer>): CandidateEvidence => {
    const all = Object.values(producers);
    return {
      samples: all.reduce((s, p) => s + p.samples, 0),
      failures: all.reduce((s, p) => s + p.failures, 0),
      samplesSinceFailure: Math.min(...all.map((p) => p.samplesSinceFailure)),
      lastFailureAt: Math.max(0, ...all.map((p) => p.lastFailureAt)),
      producers,
    };
  };

  it("candidates without a failure: every sample counts, on every replica", () => {
    const merged = mergeCandidates([
      view({ web: producer(3, 0, 3, 0) }),
      view({ web: producer(4, 0, 4, 0) }),
    ]);
    expect(merged).toEqual({
      samples: 7,
      failures: 0,
      samplesSinceFailure: 7,
      lastFailureAt: 0,
      producers: { web: { ...producer(7, 0, 7, 0) } },
    });
  });

  it("after a failure, only the failing replica's later samples count, with its keyword", () => {
    const merged = mergeCandidates([
      view({ web: producer(10, 1, 2, 50, "type"), mobile: producer(5, 0, 5, 0) }),
      view({ web: producer(8, 1, 6, 30, "required") }),
    ]);
    expect(merged.samples).toBe(23);
    expect(merged.failures).toBe(2);
    expect(merged.lastFailureAt).toBe(50);
    expect(merged.samplesSinceFailure).toBe(2);
    expect(merged.producers).toEqual({
      web: { ...producer(18, 2, 2, 50, "type") },
      mobile: { ...producer(5, 0, 5, 0) },
    });
  });
});
