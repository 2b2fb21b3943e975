import { describe, expect, it } from "vitest";
import { foldPassingReaders, quantilesFold, recordsFold, withoutZeros } from "../../../src/metrics/late.js";
import { foldProducers } from "../../../src/metrics/budget.js";

// What the series budget folds at depth `writers`, when summing over producers was not enough.

describe("foldProducers at depth writers", () => {
  it("sums over producer, writer_version and topic and leaves out every 0, kept or summed", () => {
    const samples = [
      { labels: { producer: "a", topic: "t1", writer_version: "1", r: "x" }, value: 1 },
      { labels: { producer: "b", topic: "t2", writer_version: "2", r: "x" }, value: 2 },
      { labels: { producer: "a", topic: "t1", writer_version: "1", r: "y" }, value: 0 },
      { labels: { producer: "c", topic: "t1", writer_version: "3", r: "z" }, value: 4 },
      { labels: { producer: "c", topic: "t1", writer_version: "3", r: "w" }, value: 0 },
    ];
    expect(foldProducers(samples, (l) => l["writer_version"] === "3", "writers")).toEqual([
      { labels: { r: "x" }, value: 3 },
      { labels: { producer: "c", topic: "t1", writer_version: "3", r: "z" }, value: 4 },
    ]);
  });
});

describe("foldPassingReaders", () => {
  const v = (reader: string, direction: string, result: string, value: number, producer?: string) => ({
    labels: { ...(producer ? { producer } : {}), subject: "s", reader_version: reader, direction, result },
    value,
  });

  it("sums the passes of readers no one fails per subject; a failing reader keeps its own series", () => {
    expect(
      foldPassingReaders([
        v("1.0", "forward", "pass", 5),
        v("1.0", "forward", "fail", 2),
        v("1.1", "conformance", "pass", 7),
        v("1.2", "backward", "pass", 11),
        // a failing conformance pair keeps its producer, and its reader its series
        v("1.3", "conformance", "fail", 1, "web"),
        v("1.3", "conformance", "pass", 13),
      ]),
    ).toStrictEqual([
      v("1.0", "forward", "pass", 5),
      v("1.0", "forward", "fail", 2),
      { labels: { subject: "s", result: "pass" }, value: 18 },
      v("1.3", "conformance", "fail", 1, "web"),
      v("1.3", "conformance", "pass", 13),
    ]);
  });
});

describe("the other folds at depth writers", () => {
  it("records: a 0 goes where its topic has a count, and stays where it is the topic's only news", () => {
    const r = (topic: string, producer: string, value: number) => ({ labels: { topic, producer }, value });
    expect(recordsFold([r("a", "unknown", 0), r("a", "web", 3), r("b", "unknown", 0)])).toEqual([
      r("a", "web", 3),
      r("b", "unknown", 0),
    ]);
  });

  it("counters and findings: zeros go", () => {
    expect(
      withoutZeros([
        { labels: { k: 1 }, value: 0 },
        { labels: { k: 2 }, value: 2 },
      ]),
    ).toEqual([{ labels: { k: 2 }, value: 2 }]);
  });

  it("quartiles: only of a (subject, field, producer) with a finding above 0", () => {
    const q = (producer: string) => ({
      labels: { subject: "s", field: "/a", producer, quantile: "0.5" },
      value: 9,
    });
    const findings = () => [
      { labels: { subject: "s", field: "/a", producer: "web", kind: "scale" }, value: 1 },
      { labels: { subject: "s", field: "/a", producer: "app", kind: "scale" }, value: 0 },
    ];
    expect(quantilesFold(findings)([q("web"), q("app")])).toEqual([q("web")]);
  });
});
