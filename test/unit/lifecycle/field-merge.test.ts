import { describe, expect, it } from "vitest";
import type { CatalogSubject } from "../../../src/catalog/types.js";
import { Coverage } from "../../../src/lifecycle/coverage.js";
import { FieldEvidence, type FieldUse } from "../../../src/lifecycle/field-evidence.js";
import { mergeFieldUses } from "../../../src/lifecycle/field-merge.js";
import { judgeFields } from "../../../src/lifecycle/field-verdicts.js";
import type { LifecycleSubject } from "../../../src/lifecycle/lifecycle.js";
import type { World } from "../../../src/lifecycle/observation.js";
import { fieldUse as use } from "../../helpers/field-use.js";

// Field evidence of several replicas judged as one (mergeFieldUses), and the field verdicts of a
// replica that reads other replicas' evidence through the world: conservative, as versions merge.

const T0 = Date.parse("2026-12-01T08:00:00Z");
const S = 1000;

describe("mergeFieldUses", () => {
  it("per producer and writer: last times by max, bucket counts added by start, streaks of the replica whose miss came last", () => {
    const a = use({
      lastPresentAt: T0 + 5,
      lastAbsentAt: 0,
      presentSinceMissing: 4,
      buckets: [{ start: T0, present: 4, absent: 0, unknown: 0 }],
    });
    const b = use({
      lastPresentAt: T0 + 9,
      lastUnknownAt: 0,
      presentSinceMissing: 6,
      buckets: [
        { start: T0 - 100, present: 1, absent: 0, unknown: 0 },
        { start: T0, present: 5, absent: 0, unknown: 0 },
      ],
    });
    const web = use({
      producer: "web",
      lastAbsentAt: T0 + 1,
      buckets: [{ start: T0, present: 0, absent: 2, unknown: 0 }],
    });
    // Web's miss on the first replica is the last of the field: the second replica's 6 records of
    // billing may all have come before it, so only the first replica's 4 count.
    expect(mergeFieldUses([[a, web], [b]])).toEqual([
      use({
        lastPresentAt: T0 + 9,
        presentSinceMissing: 4,
        buckets: [
          { start: T0 - 100, present: 1, absent: 0, unknown: 0 },
          { start: T0, present: 9, absent: 0, unknown: 0 },
        ],
      }),
      web,
    ]);
    // the inputs are not changed
    expect(a.buckets).toEqual([{ start: T0, present: 4, absent: 0, unknown: 0 }]);
    // With no miss anywhere, the streaks add up.
    expect(mergeFieldUses([[a], [b]])[0]!.presentSinceMissing).toBe(10);
  });

  it("counts nothing of a replica whose last miss, of any producer, came before another replica's", () => {
    // Billing never missed on either replica; web missed on the second. The first replica's 300 may
    // all have come before that miss: only the second replica's 10 since it count.
    const views = [
      [use({ lastPresentAt: T0 + 50, presentSinceMissing: 300 })],
      [
        use({ lastPresentAt: T0 + 40, presentSinceMissing: 10 }),
        use({ producer: "web", lastAbsentAt: T0 + 30, presentSinceMissing: 0 }),
      ],
    ];
    expect(mergeFieldUses(views).map((u) => [u.producer, u.presentSinceMissing])).toEqual([
      ["billing", 10],
      ["web", 0],
    ]);
  });

  it("after a miss, only the streak of the replica whose miss came last counts (the shortest of those)", () => {
    const views = [
      [use({ lastAbsentAt: T0 + 10, presentSinceMissing: 7 })],
      [use({ lastUnknownAt: T0 + 10, presentSinceMissing: 3 })],
      [use({ lastAbsentAt: T0 + 2, presentSinceMissing: 100 })],
    ];
    expect(mergeFieldUses(views)).toEqual([
      use({ lastAbsentAt: T0 + 10, lastUnknownAt: T0 + 10, presentSinceMissing: 3 }),
    ]);
  });
});

const subject: LifecycleSubject = {
  subject: { name: "pay", topics: ["pay"] } as unknown as CatalogSubject,
  drainWindow: 600,
  readyWindow: 600,
  minSamples: 1,
};

/** Replica A's own evidence: /amount (deprecated) never seen; /total (optional) in every record. */
function replica(world: World) {
  const coverage = new Coverage();
  coverage.assigned(new Map([["pay", [0]]]), T0, false);
  const evidence = new FieldEvidence();
  const fields = [
    { pointer: "/amount", deprecatedIn: ["1.1.0"], optionalIn: undefined },
    { pointer: "/total", deprecatedIn: [], optionalIn: "1.1.0" },
  ];
  const row = {
    labels: { producer: "web", writer_version: "1.1.0" },
    present: [0, 20],
    absent: [20, 0],
    unknown: [0, 0],
    lastPresentAt: [0, T0 + 10 * S],
    lastAbsentAt: [T0 + 10 * S, 0],
    lastUnknownAt: [0, 0],
  };
  evidence.observe([{ subject: "pay", fields, rows: [row] }], T0 + 10 * S, () => 600 * S);
  const judge = (at: number) =>
    judgeFields(
      [subject],
      evidence,
      { coverage, knownPartitions: new Map([["pay", new Set([0])]]), world },
      at,
    );
  return { judge };
}

/** What another replica shares of billing's records: /amount carried (deprecated), /total lacked. */
const theirs = (pointer: string): FieldUse[] =>
  pointer === "/amount"
    ? [
        use({
          lastPresentAt: T0 + 100 * S,
          presentSinceMissing: 3,
          buckets: [{ start: T0 + 100 * S, present: 3, absent: 0, unknown: 0 }],
        }),
      ]
    : [
        use({
          lastAbsentAt: T0 + 100 * S,
          buckets: [{ start: T0 + 100 * S, present: 0, absent: 3, unknown: 0 }],
        }),
      ];

describe("field verdicts with other replicas' evidence", () => {
  it("a deprecated field another replica saw carried is in use here, and an optional one it saw lacked is not ready", () => {
    const { judge } = replica({
      fieldUses: (_subject, pointer, own) => ({
        uses: mergeFieldUses([own, theirs(pointer)]),
        trackedSince: Number.NEGATIVE_INFINITY,
      }),
    });
    const verdicts = judge(T0 + 650 * S);
    expect(verdicts.get("pay\u0000/amount")!.reasons).toEqual([
      "billing still sends /amount in 100% of its records (3 of 3 in the last 10m; writer 1.1.0), the last one 9m10s ago",
    ]);
    // Web's 20 records here came before billing's miss there, as far as anyone can tell: none count.
    expect(verdicts.get("pay\u0000/total")!.reasons).toEqual([
      "billing still omits /total in 100% of its records (3 of 3 in the last 10m; writer 1.1.0), the last one 9m10s ago",
      "0 records carried /total since the last that lacked it; 1 needed",
    ]);
    // the window passes on the other replica's last record too
    expect(judge(T0 + 701 * S + 1).get("pay\u0000/amount")!.yes).toBe(true);
  });

  it("alone, the same replica would have called it drained", () => {
    const { judge } = replica({});
    expect(judge(T0 + 650 * S).get("pay\u0000/amount")!.yes).toBe(true);
  });

  it("a replica that does not share field evidence withholds the verdicts a window past its last heartbeat; so does a field another replica tracked later", () => {
    const { judge } = replica({ fieldsSince: () => T0 + 300 * S });
    expect(judge(T0 + 650 * S).get("pay\u0000/amount")!.reasons).toEqual([
      "field evidence begins at 2026-12-01T08:05Z, when a replica that does not share its field evidence through the state topic was last heard of: the window completes at 2026-12-01T08:15Z",
    ]);
    expect(judge(T0 + 900 * S).get("pay\u0000/amount")!.yes).toBe(true);
    const later = replica({ fieldUses: (_s, _p, own) => ({ uses: [...own], trackedSince: T0 + 300 * S }) });
    expect(later.judge(T0 + 650 * S).get("pay\u0000/amount")!.reasons).toEqual([
      "field evidence begins at 2026-12-01T08:05Z, when this monitor started without saved field evidence or began to track the field: the window completes at 2026-12-01T08:15Z",
    ]);
  });
});
