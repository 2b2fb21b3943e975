import { pino } from "pino";
import { describe, expect, it } from "vitest";
import type { CatalogSubject } from "../../../src/catalog/types.js";
import type { FieldFacts } from "../../../src/lifecycle/field-evidence.js";
import { Lifecycle, type LifecycleSubject } from "../../../src/lifecycle/lifecycle.js";

// The lifecycle's field evidence: folded from the tallies, judged with the versions' coverage, logged
// when a verdict changes, and saved with the rest of the lifecycle's state.

const T0 = Date.parse("2026-12-01T08:00:00Z");
const subject: LifecycleSubject = {
  subject: { name: "pay", topics: ["pay"], versions: [] } as unknown as CatalogSubject,
  drainWindow: 60,
  readyWindow: 60,
  minSamples: 1,
};

function setup() {
  let now = T0;
  const logged: string[] = [];
  const logger = pino({ level: "info" }, { write: (line: string) => logged.push(JSON.parse(line).msg) });
  const lifecycle = new Lifecycle([subject], logger, () => now);
  lifecycle.knownPartitions.set("pay", new Set([0]));
  lifecycle.coverage.assigned(new Map([["pay", [0]]]), T0, false);
  const row = {
    labels: { producer: "billing", writer_version: "1.1.0" },
    present: [1],
    absent: [0],
    unknown: [0],
    lastPresentAt: [T0],
    lastAbsentAt: [0],
    lastUnknownAt: [0],
  };
  const facts: FieldFacts = {
    subject: "pay",
    fields: [{ pointer: "/amount", deprecatedIn: ["1.1.0"], optionalIn: "1.1.0" }],
    rows: [row],
  };
  return {
    lifecycle,
    logged,
    row,
    facts,
    at: (seconds: number) => (now = T0 + seconds * 1000),
  };
}

describe("the lifecycle's field evidence", () => {
  it("logs a field drained once, and its return to use", () => {
    const m = setup();
    m.lifecycle.observeFields([m.facts]);
    expect(m.lifecycle.judgeFields().get("pay\u0000/amount")!.yes).toBe(false);
    m.at(62);
    expect(m.lifecycle.judgeFields().get("pay\u0000/amount")!.yes).toBe(true);
    m.lifecycle.judgeFields();
    m.row.present[0] = 2;
    m.row.lastPresentAt[0] = T0 + 62_000;
    m.lifecycle.observeFields([m.facts]);
    // The first record's bucket (5 s wide, from T0) ends inside the window: it counts in the share.
    expect(m.lifecycle.judgeFields().get("pay\u0000/amount")!.reasons).toEqual([
      "billing still sends /amount in 100% of its records (2 of 2 in the last 1m2s; writer 1.1.0), the last one just now",
    ]);
    expect(m.logged).toEqual([
      "pay /amount is drained",
      "pay /amount is no longer drained: records carry it again",
    ]);
  });

  it("is saved in the lifecycle's state and restored after a restart, judged the same", () => {
    const m = setup();
    m.lifecycle.observeFields([m.facts]);
    m.at(30);
    const state = JSON.parse(JSON.stringify(m.lifecycle.toState())) as ReturnType<Lifecycle["toState"]>;
    expect(Object.keys(state.fields!)).toEqual(["pay"]);
    const restarted = new Lifecycle([subject], pino({ level: "silent" }), () => T0 + 30_000);
    restarted.knownPartitions.set("pay", new Set([0]));
    restarted.restore(state);
    restarted.coverage.assigned(new Map([["pay", [0]]]), T0 + 30_000, false);
    const reasons = [
      "billing still sends /amount in 100% of its records (1 of 1 in the last 1m; writer 1.1.0), the last one 30s ago",
      "coverage gap on pay/0 until 2026-12-01T08:01Z",
    ];
    expect(m.lifecycle.judgeFields().get("pay\u0000/amount")!.reasons).toEqual(reasons);
    expect(restarted.judgeFields().get("pay\u0000/amount")!.reasons).toEqual(reasons);
    // The tallies of the new process start at zero: their first counts are new records, not a replay.
    const fresh = { ...m.row, present: [1], lastPresentAt: [T0 + 30_000] };
    restarted.observeFields([{ ...m.facts, rows: [fresh] }]);
    expect(restarted.fields.usesOf("pay", "/amount")[0]!.buckets.reduce((n, b) => n + b.present, 0)).toBe(2);
  });
  it("restored coverage without field evidence (an older state file, or the state topic) withholds the field verdicts for a window", () => {
    const m = setup();
    m.lifecycle.observeFields([m.facts]);
    m.at(120);
    const { fields: _fields, ...older } = m.lifecycle.toState();
    let now = T0 + 120_000;
    const restarted = new Lifecycle([subject], pino({ level: "silent" }), () => now);
    restarted.knownPartitions.set("pay", new Set([0]));
    restarted.restore(older);
    restarted.coverage.assigned(new Map([["pay", [0]]]), now, false);
    const empty = { ...m.row, present: [0], lastPresentAt: [0] };
    restarted.observeFields([{ ...m.facts, rows: [empty] }]);
    now = T0 + 130_000;
    expect(restarted.judgeFields().get("pay\u0000/amount")!.reasons).toEqual([
      "field evidence begins at 2026-12-01T08:02Z, when this monitor started without saved field evidence or began to track the field: the window completes at 2026-12-01T08:03Z",
    ]);
    now = T0 + 180_000;
    expect(restarted.judgeFields().get("pay\u0000/amount")!.yes).toBe(true);
  });
  it("a field tracked only after a reload waits a window from then: the records before went unchecked for it", () => {
    const m = setup();
    m.lifecycle.observeFields([m.facts]);
    m.at(120);
    // The reload made /legacy a field of interest; its tallies start at zero now.
    const legacy = { pointer: "/legacy", deprecatedIn: ["1.1.0"], optionalIn: undefined };
    const row = { ...m.row, present: [1, 0], absent: [0, 0], unknown: [0, 0] };
    for (const list of ["lastPresentAt", "lastAbsentAt", "lastUnknownAt"] as const)
      row[list] = [m.row[list][0]!, 0];
    const facts = { ...m.facts, fields: [...m.facts.fields, legacy], rows: [row] };
    m.lifecycle.observeFields([facts]);
    m.at(130);
    const verdicts = m.lifecycle.judgeFields();
    expect(verdicts.get("pay\u0000/amount")!.yes).toBe(true);
    expect(verdicts.get("pay\u0000/legacy")!.reasons).toEqual([
      "field evidence begins at 2026-12-01T08:02Z, when this monitor started without saved field evidence or began to track the field: the window completes at 2026-12-01T08:03Z",
    ]);
    // Kept across a restart.
    const restarted = new Lifecycle([subject], pino({ level: "silent" }), () => T0 + 130_000);
    restarted.restore(JSON.parse(JSON.stringify(m.lifecycle.toState())) as ReturnType<Lifecycle["toState"]>);
    expect(restarted.fields.trackedSince("pay", "/legacy")).toBe(T0 + 120_000);
    expect(restarted.fields.trackedSince("pay", "/amount")).toBe(Number.NEGATIVE_INFINITY);
    m.at(180);
    expect(m.lifecycle.judgeFields().get("pay\u0000/legacy")!.yes).toBe(true);
  });
  it("a subject without fields of interest that a reload gives one waits a window too", () => {
    const m = setup();
    m.lifecycle.observeFields([{ subject: "pay", fields: [], rows: [] }]);
    m.at(120);
    m.lifecycle.observeFields([m.facts]);
    m.at(130);
    expect(m.lifecycle.judgeFields().get("pay\u0000/amount")!.reasons).toEqual([
      "field evidence begins at 2026-12-01T08:02Z, when this monitor started without saved field evidence or began to track the field: the window completes at 2026-12-01T08:03Z",
    ]);
  });
});
