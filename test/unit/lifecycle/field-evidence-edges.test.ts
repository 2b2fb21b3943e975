import { describe, expect, it } from "vitest";
import {
  FieldEvidence,
  reachesWindow,
  type FieldEvidenceState,
  type FieldFactsRow,
} from "../../../src/lifecycle/field-evidence.js";
import { isSharedUse, mergeFieldUses } from "../../../src/lifecycle/field-merge.js";
import { fieldUse as use } from "../../helpers/field-use.js";

// Field evidence's rules at their edges, each value exact: which bucket a window counts, what a fold
// adds and when it starts a bucket or drops one, the streak, the replicas' merge, and what saved
// evidence is read as evidence (anything else is left out: no evidence is never a drain).

const T0 = Date.parse("2026-12-01T08:00:00Z"); // a multiple of 50 s
const S = 1000;
const WINDOW = 600 * S; // buckets of 50 s
const FIELDS = [
  { pointer: "/amount", deprecatedIn: ["1.1.0"], optionalIn: undefined },
  { pointer: "/total", deprecatedIn: [], optionalIn: "1.1.0" },
];

/** A tallies row of two fields, its counts set by the test between folds. */
const row = (producer = "billing", writer = "1.1.0") => ({
  labels: { producer, writer_version: writer },
  present: [0, 0] as number[],
  absent: [0, 0] as number[],
  unknown: [0, 0] as number[],
  lastPresentAt: [0, 0],
  lastAbsentAt: [0, 0],
  lastUnknownAt: [0, 0],
});

function evidence(rows: FieldFactsRow[]) {
  const e = new FieldEvidence();
  return {
    e,
    fold: (now: number) => e.observe([{ subject: "pay", fields: FIELDS, rows }], now, () => WINDOW),
    buckets: (pointer = "/amount") =>
      e.usesOf("pay", pointer).map((u) => [u.producer, u.writer, u.presentSinceMissing, u.buckets]),
  };
}

describe("reachesWindow", () => {
  it("counts a bucket that ends at the window's start, not one that ends a millisecond before", () => {
    const bucket = { start: 0, present: 1, absent: 2, unknown: 3 };
    expect(reachesWindow(bucket, 50, 50)).toBe(true);
    expect(reachesWindow(bucket, 51, 50)).toBe(false);
  });
});

describe("a fold", () => {
  it("adds only what is new since the last fold, to the bucket of its time, one bucket per width", () => {
    const r = row();
    const { fold, buckets } = evidence([r]);
    r.present[0] = 2;
    r.absent[0] = 2;
    r.unknown[0] = 3;
    fold(T0 + 10 * S);
    r.unknown[0] = 5;
    fold(T0 + 20 * S);
    r.present[0] = 3;
    fold(T0 + 50 * S);
    expect(buckets()).toEqual([
      [
        "billing",
        "1.1.0",
        1,
        [
          { start: T0, present: 2, absent: 2, unknown: 5 },
          { start: T0 + 50 * S, present: 1, absent: 0, unknown: 0 },
        ],
      ],
    ]);
    // /total had no record: no use.
    expect(buckets("/total")).toEqual([]);
  });

  it("counts a fold whose counts would cancel out (as many present as absent, or unknown)", () => {
    const r = row();
    const { fold, buckets } = evidence([r]);
    r.present[0] = 1;
    r.unknown[0] = 1;
    r.present[1] = 2;
    r.absent[1] = 2;
    fold(T0);
    expect(buckets()).toEqual([["billing", "1.1.0", 0, [{ start: T0, present: 1, absent: 0, unknown: 1 }]]]);
    expect(buckets("/total")).toEqual([
      ["billing", "1.1.0", 0, [{ start: T0, present: 2, absent: 2, unknown: 0 }]],
    ]);
  });

  it("starts the streak again after a fold with only unreadable records", () => {
    const r = row();
    const { fold, e } = evidence([r]);
    r.present[0] = 4;
    fold(T0);
    r.unknown[0] = 2;
    fold(T0 + S);
    expect(e.usesOf("pay", "/amount")[0]!.presentSinceMissing).toBe(0);
  });

  it("drops a bucket once it ends more than a window and the clock's tick before the fold, not at that edge", () => {
    const r = row();
    const { fold, buckets } = evidence([r]);
    r.present[0] = 1;
    fold(T0);
    r.present[0] = 2;
    // The bucket [T0, T0 + 50 s) still reaches the window (10 m and a 1 s tick) of T0 + 651 s.
    fold(T0 + 651 * S);
    expect(buckets()[0]![3]).toEqual([
      { start: T0, present: 1, absent: 0, unknown: 0 },
      { start: T0 + 650 * S, present: 1, absent: 0, unknown: 0 },
    ]);
    r.present[0] = 3;
    fold(T0 + 651 * S + 1);
    expect(buckets()[0]![3]).toEqual([{ start: T0 + 650 * S, present: 2, absent: 0, unknown: 0 }]);
  });

  it("lists uses by producer, then writer version", () => {
    const rows = [row("web", "1.1.0"), row("billing", "1.1.0"), row("billing", "1.0.0")];
    for (const r of rows) r.present[0] = 1;
    const { fold, buckets } = evidence(rows);
    fold(T0);
    expect(buckets().map(([producer, writer]) => `${producer} ${writer}`)).toEqual([
      "billing 1.0.0",
      "billing 1.1.0",
      "web 1.1.0",
    ]);
  });
});

describe("evidence of nothing", () => {
  it("a subject never told has no fields, no uses and no later start", () => {
    const e = new FieldEvidence();
    expect([e.fieldsOf("nope"), e.usesOf("nope", "/a"), e.trackedSince("nope", "/a")]).toEqual([
      [],
      [],
      Number.NEGATIVE_INFINITY,
    ]);
    // Taking another run's uses lists no fields, and without a start keeps the one it had.
    e.restoreUses("pay", [use({})], "/amount");
    expect(e.fieldsOf("pay")).toEqual([]);
    const r = row();
    const { e: told, fold } = evidence([r]);
    fold(T0);
    told.observe(
      [{ subject: "pay", fields: [...FIELDS, { ...FIELDS[0]!, pointer: "/new" }], rows: [] }],
      T0 + S,
      () => WINDOW,
    );
    told.restoreUses("pay", [], "/new");
    expect(told.trackedSince("pay", "/new")).toBe(T0 + S);
  });
});

describe("saved evidence", () => {
  const good = { ...use({ buckets: [{ start: T0, present: 1, absent: 0, unknown: 0 }] }), field: "/amount" };
  const restored = (state: unknown) => {
    const e = new FieldEvidence();
    e.restore(state as Record<string, FieldEvidenceState>);
    return e;
  };

  it("reads a well-formed section, and leaves out a section that is not one", () => {
    expect(restored({ pay: { fields: FIELDS, uses: { k: good } } }).usesOf("pay", "/amount")).toEqual([good]);
    for (const section of [
      null,
      { uses: { k: good } },
      { fields: FIELDS, uses: null },
      { fields: FIELDS, uses: 5 },
    ]) {
      const e = restored({ pay: section });
      expect([e.usesOf("pay", "/amount"), e.fieldsOf("pay")]).toEqual([[], []]);
    }
  });

  it("leaves out each use with a field of the wrong kind, and each bucket too", () => {
    const bad: unknown[] = [
      null,
      "use",
      { ...good, field: 1 },
      { ...good, producer: 1 },
      { ...good, writer: 1 },
      { ...good, lastPresentAt: Number.NaN },
      { ...good, lastAbsentAt: "0" },
      { ...good, lastUnknownAt: null },
      { ...good, presentSinceMissing: Number.POSITIVE_INFINITY },
      { ...good, buckets: {} },
      { ...good, buckets: [null] },
      { ...good, buckets: [good.buckets[0], { ...good.buckets[0], start: "0" }] },
      { ...good, buckets: [{ ...good.buckets[0], present: null }] },
      { ...good, buckets: [{ ...good.buckets[0], absent: "1" }] },
      { ...good, buckets: [{ ...good.buckets[0], unknown: Number.NaN }] },
    ];
    for (const u of bad) {
      const e = restored({ pay: { fields: FIELDS, uses: { k: u } } });
      expect([e.usesOf("pay", "/amount"), e.toState()["pay"]!.uses]).toEqual([[], {}]);
      if (u !== null && typeof u === "object") expect(isSharedUse(u)).toBe("field" in u && u.field === 1);
    }
    expect(isSharedUse({ ...good, field: undefined })).toBe(true);
  });

  it("leaves out each tracked field of the wrong kind", () => {
    const fields = [
      null,
      "x",
      { pointer: 1, deprecatedIn: [], optionalIn: undefined },
      { pointer: "/a", deprecatedIn: "1.0.0", optionalIn: undefined },
      { pointer: "/b", deprecatedIn: [], optionalIn: 1 },
      { pointer: "/c", deprecatedIn: [], optionalIn: "1.0.0" },
      { pointer: "/d", deprecatedIn: ["1.0.0"] },
    ];
    expect(restored({ pay: { fields, uses: {} } }).fieldsOf("pay")).toEqual([
      { pointer: "/c", deprecatedIn: [], optionalIn: "1.0.0" },
      { pointer: "/d", deprecatedIn: ["1.0.0"] },
    ]);
  });

  it("keeps the fields this process was told, and counts a field tracked after a restore as tracked from then", () => {
    const e = new FieldEvidence();
    e.observe([{ subject: "pay", fields: [FIELDS[0]!], rows: [] }], T0, () => WINDOW);
    e.restore({ pay: { fields: FIELDS, uses: {}, trackedSince: { "/x": "soon" as never, "/y": T0 } } });
    expect(e.fieldsOf("pay").map((f) => f.pointer)).toEqual(["/amount"]);
    expect([e.trackedSince("pay", "/x"), e.trackedSince("pay", "/y")]).toEqual([
      Number.NEGATIVE_INFINITY,
      T0,
    ]);
    const fresh = restored({ pay: { fields: [FIELDS[0]], uses: {} } });
    fresh.observe([{ subject: "pay", fields: FIELDS, rows: [] }], T0 + S, () => WINDOW);
    expect([fresh.trackedSince("pay", "/amount"), fresh.trackedSince("pay", "/total")]).toEqual([
      Number.NEGATIVE_INFINITY,
      T0 + S,
    ]);
  });
});

describe("mergeFieldUses", () => {
  it("adds absent and unknown counts by bucket, and lists the merged uses by producer then writer", () => {
    const bucket = { start: T0, present: 1, absent: 2, unknown: 3 };
    const merged = mergeFieldUses([
      [use({ producer: "web", buckets: [bucket] }), use({ writer: "1.1.0", buckets: [bucket] })],
      [use({ producer: "web", buckets: [bucket] }), use({ writer: "1.0.0" })],
    ]);
    expect(merged.map((u) => [u.producer, u.writer, u.buckets])).toEqual([
      ["billing", "1.0.0", []],
      ["billing", "1.1.0", [bucket]],
      ["web", "1.1.0", [{ start: T0, present: 2, absent: 4, unknown: 6 }]],
    ]);
  });

  it("after a miss, takes the streak of the replica whose miss came last, even when another's is shorter", () => {
    const merged = mergeFieldUses([
      [use({ lastAbsentAt: T0 + 10, presentSinceMissing: 7 })],
      [use({ lastAbsentAt: T0 + 2, presentSinceMissing: 1 })],
    ]);
    expect(merged[0]!.presentSinceMissing).toBe(7);
  });
});
