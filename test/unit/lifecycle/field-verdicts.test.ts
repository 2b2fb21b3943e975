import { describe, expect, it } from "vitest";
import type { CatalogSubject } from "../../../src/catalog/types.js";
import { Coverage } from "../../../src/lifecycle/coverage.js";
import { FieldEvidence, type FieldFacts } from "../../../src/lifecycle/field-evidence.js";
import { judgeFields, percent, type FieldVerdict } from "../../../src/lifecycle/field-verdicts.js";
import type { LifecycleSubject } from "../../../src/lifecycle/lifecycle.js";
import type { Observation } from "../../../src/lifecycle/observation.js";
import { tallyRow } from "../../helpers/field-use.js";

// The field verdicts exactly, reasons included: a rename (`/total` replaces the deprecated `/amount`)
// and `/total` made required. Windows of 10 minutes; the clock is the test's.

const T0 = Date.parse("2026-12-01T08:00:00Z");
const S = 1000;
const WINDOW_S = 600;

const subject: LifecycleSubject = {
  subject: { name: "pay", topics: ["pay"] } as unknown as CatalogSubject,
  drainWindow: WINDOW_S,
  readyWindow: WINDOW_S,
  minSamples: 10,
};
const FIELDS = [
  { pointer: "/amount", deprecatedIn: ["1.1.0"], optionalIn: "1.1.0" },
  { pointer: "/total", deprecatedIn: [], optionalIn: "1.1.0" },
];

/** A tallies row (/amount and the second field), mutated as traffic goes. */
const row = tallyRow;
type Row = ReturnType<typeof row>;

/** `n` records of a producer at `at`, carrying (or not) each field: what the presence check counts. */
function send(
  r: Row,
  at: number,
  n: number,
  carries: { amount: boolean | "unknown"; total: boolean | "unknown" },
) {
  [carries.amount, carries.total].forEach((c, i) => {
    const kind = c === "unknown" ? "unknown" : c ? "present" : "absent";
    r[kind][i]! += n;
    const last = kind === "present" ? r.lastPresentAt : kind === "absent" ? r.lastAbsentAt : r.lastUnknownAt;
    last[i] = at;
  });
}

function world() {
  const coverage = new Coverage();
  // Read whole from T0 (no backlog): observed up to now from then on.
  coverage.assigned(new Map([["pay", [0]]]), T0, false);
  const observed: Observation = { coverage, knownPartitions: new Map([["pay", new Set([0])]]), world: {} };
  const evidence = new FieldEvidence();
  const billing = row("billing");
  const web = row("web");
  const facts: FieldFacts = { subject: "pay", fields: FIELDS, rows: [billing, web] };
  // The tallies tell the fields before any record: a field never seen is judged too.
  evidence.observe([facts], T0, () => WINDOW_S * S);
  return {
    coverage,
    evidence,
    billing,
    web,
    fold: (at: number) => evidence.observe([facts], at, () => WINDOW_S * S),
    judge: (at: number) => {
      const verdicts = judgeFields([subject], evidence, observed, at);
      return {
        amount: verdicts.get("pay\u0000/amount")!,
        total: verdicts.get("pay\u0000/total")!,
      };
    },
  };
}

const summary = (v: FieldVerdict) => ({ kind: v.kind, yes: v.yes, reasons: v.reasons });

describe("a deprecated field's drain", () => {
  it("names each producer still sending it with its share over the window, until a whole window passed without it", () => {
    const w = world();
    // Expand: billing sends both, in 12 of its 100 records; web sends only the new name.
    send(w.billing, T0 + 60 * S, 12, { amount: true, total: true });
    send(w.billing, T0 + 60 * S, 88, { amount: false, total: true });
    send(w.web, T0 + 30 * S, 50, { amount: false, total: true });
    w.fold(T0 + 60 * S);
    expect(summary(w.judge(T0 + 120 * S).amount)).toEqual({
      kind: "drained",
      yes: false,
      reasons: [
        "billing still sends /amount in 12% of its records (12 of 100 in the last 10m; writer 1.1.0), the last one 1m ago",
        "coverage gap on pay/0 until 2026-12-01T08:10Z",
      ],
    });
    // One tick (1 s) of the live clock's granularity is allowed for: 10m1s after the last record, still in use.
    expect(w.judge(T0 + 661 * S).amount.reasons).toEqual([
      "billing still sends /amount in 12% of its records (12 of 100 in the last 10m11s; writer 1.1.0), the last one 10m1s ago",
    ]);
    const drained = w.judge(T0 + 661 * S + 1).amount;
    expect(summary(drained)).toEqual({ kind: "drained", yes: true, reasons: [] });
    expect(drained.version).toBe("1.1.0");
    expect(drained.evidence).toEqual({
      window: "10m",
      coveredSince: "2026-12-01T08:00Z",
      partitions: 1,
      lastCarried: "2026-12-01T08:01Z",
      lastCarriedBy: "billing",
      // Every record came before the window (billing's at 60 s, web's at 30 s), though billing's
      // bucket ([50 s, 100 s)) reaches into it: no producer has a share of the window.
      records: 0,
      unknownRecords: 0,
    });
    expect(drained.producers).toEqual([]);
  });

  it("a record within the clock's tick before the window counts, though its bucket ended before the window", () => {
    const w = world();
    // Buckets are 50 s wide: this record's is [T0, T0 + 50 s), over 0.6 s before the window below.
    send(w.web, T0 + 49_900, 1, { amount: true, total: true });
    w.fold(T0 + 49_900);
    expect(w.judge(T0 + 650_500).amount.reasons).toEqual([
      "web still sends /amount in 100% of its records (1 of 1 in the last 10m51s; writer 1.1.0), the last one 10m1s ago",
    ]);
    expect(w.judge(T0 + 650_901).amount.yes).toBe(true);
  });

  it("a record that could not be read is unknown use, and keeps the field from draining", () => {
    const w = world();
    send(w.web, T0 + 100 * S, 3, { amount: "unknown", total: "unknown" });
    w.fold(T0 + 100 * S);
    expect(w.judge(T0 + 650 * S).amount.reasons).toEqual([
      "3 records of web could not be read in the last 10m, the last one 9m10s ago: they may carry /amount",
    ]);
    expect(w.judge(T0 + 701 * S + 1).amount.yes).toBe(true);
  });

  it("an undecodable batch's records, of no known producer, are unknown use too", () => {
    const w = world();
    const batch = row("unknown", "unknown");
    send(batch, T0 + 100 * S, 40, { amount: "unknown", total: "unknown" });
    w.evidence.observe([{ subject: "pay", fields: FIELDS, rows: [batch] }], T0 + 100 * S, () => WINDOW_S * S);
    expect(w.judge(T0 + 650 * S).amount.reasons).toEqual([
      "40 records of no known producer could not be read in the last 10m, the last one 9m10s ago: they may carry /amount",
    ]);
  });

  it("a coverage gap restarts the window, as it does a version's", () => {
    const w = world();
    w.coverage.undecodable("pay", 0, "10", "19", T0 + 300 * S, "crc mismatch");
    expect(w.judge(T0 + 700 * S).amount.reasons).toEqual(["coverage gap on pay/0 until 2026-12-01T08:15Z"]);
    expect(w.judge(T0 + 900 * S).amount.yes).toBe(true);
  });
});

describe("an optional field ready to require", () => {
  it("names the producers that still omit it, and is ready once every record of every producer carried it for the window", () => {
    const w = world();
    send(w.billing, T0 + 10 * S, 40, { amount: true, total: true });
    send(w.web, T0 + 20 * S, 5, { amount: false, total: false });
    send(w.web, T0 + 20 * S, 45, { amount: false, total: true });
    w.fold(T0 + 20 * S);
    expect(summary(w.judge(T0 + 600 * S).total)).toEqual({
      kind: "ready",
      yes: false,
      // Billing's 40 records came before web's miss: none carried it since (within one fold the
      // order is not known either, and a record that lacked it may have come last).
      reasons: [
        "web still omits /total in 10% of its records (5 of 50 in the last 10m; writer 1.1.0), the last one 9m40s ago",
        "0 records carried /total since the last that lacked it; 10 needed",
      ],
    });
    send(w.billing, T0 + 30 * S, 40, { amount: true, total: true });
    w.fold(T0 + 30 * S);
    expect(w.judge(T0 + 621 * S + 1).total.reasons).toEqual([]);
    const ready = w.judge(T0 + 621 * S + 1).total;
    expect(ready.yes).toBe(true);
    expect(ready.version).toBe("1.1.0");
    expect(ready.evidence).toEqual({
      window: "10m",
      coveredSince: "2026-12-01T08:00Z",
      partitions: 1,
      // Billing's 80 records, of the bucket [0 s, 50 s) its last ones reach the window in (web's 50, at
      // 20 s, all came before the window: web has no share of it).
      records: 80,
      recordsSinceMissing: 40,
      lackingBound95: 1 - Math.pow(0.05, 1 / 40),
    });
  });

  it("counts nothing since another producer's last miss of a producer that stopped before it", () => {
    // Issue 42: billing sent 300 records carrying it, then stopped; web lacked it once after them,
    // then sent 5 carrying it. 5 records since the last that lacked it, not 305.
    const w = world();
    send(w.billing, T0 + 10 * S, 300, { amount: false, total: true });
    w.fold(T0 + 10 * S);
    send(w.web, T0 + 20 * S, 1, { amount: false, total: false });
    w.fold(T0 + 20 * S);
    send(w.web, T0 + 30 * S, 5, { amount: false, total: true });
    w.fold(T0 + 30 * S);
    const total = w.judge(T0 + 700 * S).total;
    expect(total.reasons).toEqual(["5 records carried /total since the last that lacked it; 10 needed"]);
    expect(total.evidence["recordsSinceMissing"]).toBe(5);
    // Evidence restored from a state written before (billing's streak never reset): the same answer,
    // since billing's last record came before web's miss.
    const restored = world();
    restored.evidence.restore(w.evidence.toState());
    const state = restored.evidence.toState();
    const billing = Object.values(state["pay"]!.uses).find(
      (u) => u.producer === "billing" && u.field === "/total",
    )!;
    expect(billing.presentSinceMissing).toBe(0);
    billing.presentSinceMissing = 300;
    restored.evidence.restore(state);
    expect(restored.judge(T0 + 700 * S).total.evidence["recordsSinceMissing"]).toBe(5);
    // Billing sends again after web's miss: its 300 of before still do not count, its 7 since do.
    send(w.billing, T0 + 40 * S, 7, { amount: false, total: true });
    w.fold(T0 + 40 * S);
    expect(w.judge(T0 + 700 * S).total.evidence["recordsSinceMissing"]).toBe(12);
  });

  it("needs minSamples records carrying it since the last that lacked it", () => {
    const w = world();
    send(w.web, T0 + 10 * S, 1, { amount: false, total: false });
    w.fold(T0 + 10 * S);
    send(w.web, T0 + 20 * S, 4, { amount: false, total: true });
    w.fold(T0 + 20 * S);
    expect(w.judge(T0 + 700 * S).total.reasons).toEqual([
      "4 records carried /total since the last that lacked it; 10 needed",
    ]);
    send(w.web, T0 + 30 * S, 6, { amount: false, total: true });
    w.fold(T0 + 30 * S);
    expect(w.judge(T0 + 700 * S).total.yes).toBe(true);
  });

  it("a producer that omits it again is named again at once", () => {
    const w = world();
    send(w.billing, T0 + 10 * S, 20, { amount: false, total: true });
    w.fold(T0 + 10 * S);
    expect(w.judge(T0 + 611 * S + 1).total.yes).toBe(true);
    send(w.billing, T0 + 700 * S, 1, { amount: false, total: false });
    w.fold(T0 + 700 * S);
    expect(w.judge(T0 + 701 * S).total.reasons).toEqual([
      // The 20 records before the window are not counted in its share.
      "billing still omits /total in 100% of its records (1 of 1 in the last 10m; writer 1.1.0), the last one 1s ago",
      "0 records carried /total since the last that lacked it; 10 needed",
    ]);
  });
});

describe("evidence", () => {
  it("survives a restart: saved, restored, and judged the same", () => {
    const w = world();
    send(w.billing, T0 + 60 * S, 12, { amount: true, total: true });
    w.fold(T0 + 60 * S);
    const restored = new FieldEvidence();
    restored.restore(JSON.parse(JSON.stringify(w.evidence.toState())));
    const observed: Observation = {
      coverage: w.coverage,
      knownPartitions: new Map([["pay", new Set([0])]]),
      world: {},
    };
    const again = judgeFields([subject], restored, observed, T0 + 120 * S).get("pay\u0000/amount")!;
    expect(again.reasons).toEqual(w.judge(T0 + 120 * S).amount.reasons);
    // Malformed saved evidence is left out, never read as absence.
    const bad = new FieldEvidence();
    bad.restore({ pay: { fields: FIELDS, uses: { x: { field: "/amount" } as never } } });
    expect(bad.usesOf("pay", "/amount")).toEqual([]);
  });

  it("percent never says 0% of some nor 100% of not all", () => {
    expect([percent(0, 10), percent(1, 1000), percent(12, 100), percent(999, 1000), percent(5, 5)]).toEqual([
      "0%",
      "<1%",
      "12%",
      ">99%",
      "100%",
    ]);
  });
});
