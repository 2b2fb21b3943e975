import { describe, expect, it } from "vitest";
import type { CatalogSubject } from "../../../src/catalog/types.js";
import { Coverage } from "../../../src/lifecycle/coverage.js";
import { FieldEvidence, type FieldUse, type TrackedField } from "../../../src/lifecycle/field-evidence.js";
import {
  fieldWindowMs,
  judgeDeprecatedField,
  judgeFields,
  judgeOptionalField,
  percent,
} from "../../../src/lifecycle/field-verdicts.js";
import type { LifecycleSubject } from "../../../src/lifecycle/lifecycle.js";
import type { Observation, World } from "../../../src/lifecycle/observation.js";
import { fieldUse as use } from "../../helpers/field-use.js";

// The field verdicts' rules at their edges, each value exact: the window's first millisecond, ties,
// the producers' shares in full, the evidence's start. The uses come through the world (as another
// replica's would), so each is written as it stands.

const T0 = Date.parse("2026-12-01T08:00:00Z");
const S = 1000;
const subject: LifecycleSubject = {
  subject: { name: "pay", topics: ["pay"] } as unknown as CatalogSubject,
  drainWindow: 600,
  readyWindow: 600,
  minSamples: 2,
};
const AMOUNT: TrackedField = { pointer: "/amount", deprecatedIn: ["1.0.0", "1.1.0"], optionalIn: undefined };
const TOTAL: TrackedField = { pointer: "/total", deprecatedIn: [], optionalIn: "1.1.0" };
const NOTE: TrackedField = { pointer: "/note", deprecatedIn: [], optionalIn: undefined };

/** A bucket of 50 s (the width of a 10-minute window) holding `at`. */
const at = (ms: number, present: number, absent = 0, unknown = 0) => ({
  start: Math.floor(ms / 50_000) * 50_000,
  present,
  absent,
  unknown,
});

function judge(
  uses: FieldUse[],
  now: number,
  options: { covered?: boolean; world?: World; fieldsSince?: number } = {},
) {
  const coverage = new Coverage();
  if (options.covered !== false) coverage.assigned(new Map([["pay", [0]]]), T0, false);
  const evidence = new FieldEvidence();
  evidence.observe([{ subject: "pay", fields: [AMOUNT, TOTAL, NOTE], rows: [] }], T0, () => 600 * S);
  const world: World = {
    fieldUses: () => ({ uses, trackedSince: Number.NEGATIVE_INFINITY }),
    ...options.world,
  };
  const observed: Observation = { coverage, knownPartitions: new Map([["pay", new Set([0])]]), world };
  const verdicts = judgeFields([subject], evidence, observed, now, options.fieldsSince);
  return { amount: verdicts.get("pay\u0000/amount")!, total: verdicts.get("pay\u0000/total")!, verdicts };
}

describe("percent and the window's length", () => {
  it("says 0% of nothing, and 1% and 99% as they are", () => {
    expect([percent(0, 0), percent(1, 100), percent(99, 100), percent(1, 101), percent(100, 101)]).toEqual([
      "0%",
      "1%",
      "99%",
      "<1%",
      ">99%",
    ]);
  });

  it("the field buckets reach as far back as the longer of the two windows", () => {
    expect(fieldWindowMs({ ...subject, drainWindow: 600, readyWindow: 60 })).toBe(600_000);
    expect(fieldWindowMs({ ...subject, drainWindow: 60, readyWindow: 600 })).toBe(600_000);
  });
});

describe("a deprecated field's producers", () => {
  it("lists each producer with records in the window by name, in full; one with older records only is left out", () => {
    const uses = [
      use({
        producer: "web",
        writer: "1.0.0",
        lastPresentAt: T0 + 100 * S,
        lastAbsentAt: T0 + 120 * S,
        lastUnknownAt: T0 + 130 * S,
        buckets: [at(T0 + 100 * S, 2, 3, 1)],
      }),
      use({
        producer: "web",
        writer: "1.1.0",
        lastAbsentAt: T0 + 140 * S,
        buckets: [at(T0 + 140 * S, 0, 4)],
      }),
      use({ producer: "billing", lastPresentAt: T0 + 200 * S, buckets: [at(T0 + 200 * S, 5)] }),
      use({ producer: "old", lastPresentAt: T0 - 700 * S, buckets: [at(T0 - 700 * S, 9)] }),
    ];
    const { amount } = judge(uses, T0 + 300 * S);
    expect(amount.fieldKind).toBe("deprecated");
    expect(amount.version).toBe("1.1.0");
    expect(amount.producers).toEqual([
      {
        producer: "billing",
        records: 5,
        present: 5,
        absent: 0,
        unknown: 0,
        writers: ["1.1.0"],
        lastPresent: "2026-12-01T08:03Z",
        lastAbsent: null,
        lastUnknown: null,
        over: "10m",
        exact: true,
        inWindow: { present: true, absent: false, unknown: false },
      },
      {
        producer: "web",
        records: 10,
        present: 2,
        absent: 7,
        unknown: 1,
        writers: ["1.0.0"],
        lastPresent: "2026-12-01T08:01Z",
        lastAbsent: "2026-12-01T08:02Z",
        lastUnknown: "2026-12-01T08:02Z",
        over: "10m",
        exact: true,
        inWindow: { present: true, absent: true, unknown: true },
      },
    ]);
    expect(amount.reasons).toEqual([
      "billing still sends /amount in 100% of its records (5 of 5 in the last 10m; writer 1.1.0), the last one 1m40s ago",
      "web still sends /amount in 20% of its records (2 of 10 in the last 10m; writer 1.0.0), the last one 3m20s ago",
      "1 record of web could not be read in the last 10m, the last one 2m50s ago: they may carry /amount",
      "coverage gap on pay/0 until 2026-12-01T08:10Z",
    ]);
    expect(amount.evidence).toMatchObject({
      records: 15,
      unknownRecords: 1,
      lastCarried: "2026-12-01T08:03Z",
    });
  });

  it("names every writer version a producer sent it in", () => {
    const uses = [
      use({ producer: "web", writer: "1.0.0", lastPresentAt: T0 + 10 * S, buckets: [at(T0 + 10 * S, 1)] }),
      use({ producer: "web", writer: "1.1.0", lastPresentAt: T0 + 20 * S, buckets: [at(T0 + 20 * S, 1)] }),
    ];
    expect(judge(uses, T0 + 610 * S).amount.reasons).toEqual([
      "web still sends /amount in 100% of its records (2 of 2 in the last 10m10s; writer 1.0.0, 1.1.0), the last one 9m50s ago",
    ]);
  });

  it("names the first producer by name as the last carrier when two carried it last at the same time", () => {
    const uses = [
      use({ producer: "billing", lastPresentAt: T0 + 10 * S, buckets: [at(T0 + 10 * S, 1)] }),
      use({ producer: "web", lastPresentAt: T0 + 10 * S, buckets: [at(T0 + 10 * S, 1)] }),
    ];
    expect(judge(uses, T0 + 20 * S).amount.evidence["lastCarriedBy"]).toBe("billing");
  });

  it("counts an unreadable record dated at the window's first millisecond, and the unknown records in the evidence", () => {
    // The window (10 m and the clock's tick) starts at T0 + 100 s when judged at T0 + 701 s.
    const uses = [
      use({ producer: "web", lastUnknownAt: T0 + 100 * S, buckets: [at(T0 + 100 * S, 0, 0, 3)] }),
    ];
    const verdict = judge(uses, T0 + 701 * S).amount;
    expect(verdict.reasons).toEqual([
      "3 records of web could not be read in the last 10m, the last one 10m1s ago: they may carry /amount",
    ]);
    expect(verdict.evidence["unknownRecords"]).toBe(3);
    expect(judge(uses, T0 + 701 * S + 1).amount.reasons).toEqual([]);
  });

  it("without coverage: no covered start, and only the coverage's reasons, not the field evidence's start", () => {
    const both = judge([], T0 + 700 * S, { covered: false, fieldsSince: T0 + 300 * S });
    const verdict = both.amount;
    expect(verdict.evidence["coveredSince"]).toBeNull();
    expect(both.total.evidence["coveredSince"]).toBeNull();
    expect(verdict.reasons).toEqual([
      "partition pay/0 never observed (no member that shares this state reads it)",
    ]);
  });
});

describe("an optional field's producers", () => {
  it("names the writer versions that lacked it, and a record that lacked it at the window's first millisecond", () => {
    const uses = [
      use({ producer: "web", writer: "1.0.0", lastAbsentAt: T0 + 10 * S, buckets: [at(T0 + 10 * S, 0, 1)] }),
      use({ producer: "web", writer: "1.1.0", lastPresentAt: T0 + 10 * S, buckets: [at(T0 + 10 * S, 4)] }),
    ];
    const verdict = judge(uses, T0 + 611 * S).total;
    expect(verdict.fieldKind).toBe("optional");
    expect(verdict.producers.map((p) => p.writers)).toEqual([["1.0.0"]]);
    expect(verdict.reasons).toEqual([
      "web still omits /total in 20% of its records (1 of 5 in the last 10m11s; writer 1.0.0), the last one 10m1s ago",
      "0 records carried /total since the last that lacked it; 2 needed",
    ]);
    expect(judge(uses, T0 + 611 * S + 1).total.reasons).toEqual([
      "0 records carried /total since the last that lacked it; 2 needed",
    ]);
  });

  it("says one record in the singular", () => {
    const uses = [use({ lastPresentAt: T0 + 10 * S, presentSinceMissing: 1, buckets: [at(T0 + 10 * S, 1)] })];
    expect(judge(uses, T0 + 700 * S).total.reasons).toEqual([
      "1 record carried /total since the last that lacked it; 2 needed",
    ]);
  });
});

describe("judgeFields", () => {
  it("judges neither a field that is neither deprecated nor optional", () => {
    expect([...judge([], T0 + 700 * S).verdicts.keys()]).toEqual(["pay\u0000/amount", "pay\u0000/total"]);
  });

  it("calls the evidence's start its own when the group's is the same time", () => {
    const verdict = judge([], T0 + 650 * S, {
      fieldsSince: T0 + 300 * S,
      world: { fieldsSince: () => T0 + 300 * S },
    }).amount;
    expect(verdict.reasons).toEqual([
      "field evidence begins at 2026-12-01T08:05Z, when this monitor started without saved field evidence or began to track the field: the window completes at 2026-12-01T08:15Z",
    ]);
  });

  it("judged alone, a field is judged with its evidence whole, and a version it lacks is empty", () => {
    const coverage = new Coverage();
    coverage.assigned(new Map([["pay", [0]]]), T0, false);
    const observed: Observation = { coverage, knownPartitions: new Map([["pay", new Set([0])]]), world: {} };
    const deprecated = judgeDeprecatedField(
      subject,
      { ...AMOUNT, deprecatedIn: [] },
      [],
      observed,
      T0 + 700 * S,
    );
    expect([deprecated.yes, deprecated.version]).toEqual([true, ""]);
    const optional = judgeOptionalField(
      { ...subject, minSamples: 0 },
      { ...TOTAL, optionalIn: undefined },
      [],
      observed,
      T0 + 700 * S,
    );
    expect([optional.yes, optional.version]).toEqual([true, ""]);
  });
});

describe("a fold at the window's edge", () => {
  /** web's record at T0 + 49.9 s (its bucket ends at T0 + 50 s), then one lacking /amount at `then`. */
  function folded(first: "present" | "unknown", then: number) {
    const coverage = new Coverage();
    coverage.assigned(new Map([["pay", [0]]]), T0 - 3600 * S, false);
    const evidence = new FieldEvidence();
    const r = {
      labels: { producer: "web", writer_version: "1.1.0" },
      present: [first === "present" ? 1 : 0],
      absent: [0],
      unknown: [first === "unknown" ? 1 : 0],
      lastPresentAt: [first === "present" ? T0 + 49_900 : 0],
      lastAbsentAt: [0],
      lastUnknownAt: [first === "unknown" ? T0 + 49_900 : 0],
    };
    const facts = () => [{ subject: "pay", fields: [AMOUNT], rows: [r] }];
    evidence.observe(facts(), T0 + 49_900, () => 600 * S);
    r.absent[0] = 1;
    r.lastAbsentAt[0] = then;
    evidence.observe(facts(), then, () => 600 * S);
    const observed: Observation = { coverage, knownPartitions: new Map([["pay", new Set([0])]]), world: {} };
    return judgeFields([subject], evidence, observed, then).get("pay\u0000/amount")!;
  }

  it("keeps the bucket of a record the window still reaches by the clock's tick: an unreadable one withholds the drain", () => {
    // At T0 + 650.5 s the window (10 m and a tick) starts at T0 + 49.5 s: the record at 49.9 s is in it.
    const verdict = folded("unknown", T0 + 650_500);
    expect([verdict.yes, verdict.reasons]).toEqual([
      false,
      [
        "1 record of web could not be read in the last 10m51s, the last one 10m1s ago: they may carry /amount",
      ],
    ]);
    expect(folded("present", T0 + 650_500).reasons).toEqual([
      "web still sends /amount in 50% of its records (1 of 2 in the last 10m51s; writer 1.1.0), the last one 10m1s ago",
    ]);
    // Once the window has passed it, it is gone.
    expect(folded("unknown", T0 + 651_000 + 1).yes).toBe(true);
  });
});
