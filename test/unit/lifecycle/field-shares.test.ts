import { describe, expect, it } from "vitest";
import type { CatalogSubject } from "../../../src/catalog/types.js";
import { Coverage } from "../../../src/lifecycle/coverage.js";
import { FieldEvidence, type FieldFacts } from "../../../src/lifecycle/field-evidence.js";
import { producerShares, spanText } from "../../../src/lifecycle/field-shares.js";
import { judgeFields, type FieldVerdict } from "../../../src/lifecycle/field-verdicts.js";
import type { LifecycleSubject } from "../../../src/lifecycle/lifecycle.js";
import type { Observation } from "../../../src/lifecycle/observation.js";
import { fieldItems } from "../../../src/report/field-attention.js";
import { fieldsSection, share } from "../../../src/report/fields-section.js";
import { emptySubject } from "../../helpers/report.js";
import { fieldUse, tallyRow } from "../../helpers/field-use.js";

// Each producer's share of a field over the verdict's own window (src/lifecycle/field-shares.ts), in
// the case that misled: a 20 s drain window beside a 7 d ready window. Buckets are a twelfth of the
// longer window, 14 h, so the drain window lies inside one; the share of that bucket is hours wide.
// A field whose last carrying record came before the window reads 0% over the window, and a share of
// whole buckets says how far back it counts. Exact strings throughout.

const S = 1000;
const H = 3600 * S;
/** 2026-12-01T06:00Z: a multiple of 14 h, where a bucket begins. */
const B = Date.parse("2026-12-01T06:00:00Z");

const subject: LifecycleSubject = {
  subject: { name: "pay", topics: ["pay"], versions: [] } as unknown as CatalogSubject,
  drainWindow: 20,
  readyWindow: 7 * 86400,
  minSamples: 10,
};
/** `/amount` and `/coupon`, both deprecated in 1.1.0. */
const FIELDS = [
  { pointer: "/amount", deprecatedIn: ["1.1.0"], optionalIn: undefined },
  { pointer: "/coupon", deprecatedIn: ["1.1.0"], optionalIn: undefined },
];

/** A tallies row (/amount and the second field), mutated as traffic goes. */
const row = tallyRow;
type Row = ReturnType<typeof row>;

/** Records of a producer at `at`: how many carried each field (`carry`) of `n`. */
function send(r: Row, at: number, n: number, carry: [amount: number, coupon: number]) {
  carry.forEach((present, i) => {
    r.present[i]! += present;
    r.absent[i]! += n - present;
    if (present > 0) r.lastPresentAt[i] = at;
    if (n - present > 0) r.lastAbsentAt[i] = at;
  });
}

function world() {
  const coverage = new Coverage();
  coverage.assigned(new Map([["pay", [0]]]), B, false);
  const observed: Observation = { coverage, knownPartitions: new Map([["pay", new Set([0])]]), world: {} };
  const evidence = new FieldEvidence();
  const billing = row("billing");
  const web = row("web");
  const facts: FieldFacts = { subject: "pay", fields: FIELDS, rows: [billing, web] };
  const windowMs = () => subject.readyWindow * S;
  evidence.observe([facts], B, windowMs);
  return {
    billing,
    web,
    fold: (at: number) => evidence.observe([facts], at, windowMs),
    judge: (at: number) => {
      const verdicts = judgeFields([subject], evidence, observed, at);
      return [verdicts.get("pay\u0000/amount")!, verdicts.get("pay\u0000/coupon")!] as const;
    },
  };
}

const cells = (fields: FieldVerdict[]) => {
  const table = fieldsSection(emptySubject("pay", { fields }), "subject-pay")!.blocks[0]!;
  return table.kind === "table" ? table.rows.map((r) => r[3]) : [];
};

describe("a field's shares beside a longer window (20 s drain, 7 d ready: 14 h buckets)", () => {
  // 1000 records of billing: at 07:00, 990, of which 198 carry /amount and 196 /coupon; at 11:00, 10,
  // of which none carries /amount and 2 carry /coupon. Judged at 11:00:05.
  const w = world();
  send(w.billing, B + H, 990, [198, 196]);
  w.fold(B + H);
  send(w.billing, B + 5 * H, 10, [0, 2]);
  w.fold(B + 5 * H);
  const now = B + 5 * H + 5 * S;
  const [amount, coupon] = w.judge(now);

  it("a drained field reads 0% over the drain window, beside its bucket's share and how far back that counts", () => {
    expect([amount.yes, amount.reasons]).toEqual([true, []]);
    expect(amount.producers).toEqual([
      {
        producer: "billing",
        records: 1000,
        present: 198,
        absent: 802,
        unknown: 0,
        writers: [],
        lastPresent: "2026-12-01T07:00Z",
        lastAbsent: "2026-12-01T11:00Z",
        lastUnknown: null,
        over: "5h1m",
        exact: false,
        inWindow: { present: false, absent: true, unknown: false },
      },
    ]);
    expect(cells([amount])).toEqual(["billing sends it in 0% over the last 20s (19.8% over the last 5h1m)"]);
    expect(fieldItems(emptySubject("pay", { fields: [amount] })).map((i) => i.kind)).toEqual([
      "field-drained",
    ]);
  });

  it("a field in use reads its bucket's share, with how far back it counts and that the window is inside it", () => {
    expect([coupon.yes, coupon.reasons]).toEqual([
      false,
      [
        "billing still sends /coupon in 20% of its records (198 of 1000 in the last 5h1m; writer 1.1.0), the last one 5s ago",
      ],
    ]);
    expect(cells([coupon])).toEqual([
      "billing sends it in 19.8% over the last 5h1m (whole buckets: the 20s window is not counted apart)",
    ]);
    expect(fieldItems(emptySubject("pay", { fields: [coupon] })).map((i) => i.what)).toEqual([
      "billing still sends /coupon in 20% of its records over the last 5h1m",
    ]);
  });

  it("a producer whose records all came in a bucket begun in the window reads the window's own share", () => {
    // 20:00 begins a bucket: web's first records, at 20:00:02, are all in it. Judged at 20:00:05.
    send(w.web, B + 14 * H + 2 * S, 4, [0, 1]);
    w.fold(B + 14 * H + 2 * S);
    const [drained, inUse] = w.judge(B + 14 * H + 5 * S);
    // billing sent nothing in the window: no share of it.
    expect(cells([drained, inUse])).toEqual([
      "web sends it in 0% over the last 20s",
      "web sends it in 25.0% over the last 20s",
    ]);
    expect(inUse.reasons).toEqual([
      "web still sends /coupon in 25% of its records (1 of 4 in the last 20s; writer 1.1.0), the last one 3s ago",
    ]);
  });
});

describe("the words of a share", () => {
  it("a span rounds up to its second unit, never down", () => {
    expect([
      spanText(7 * 86400 * S + 9 * H + 12 * 60 * S),
      spanText(611 * S),
      spanText(14 * H),
      spanText(500),
      spanText(59_500),
    ]).toEqual(["7d10h", "10m11s", "14h", "1s", "1m"]);
  });

  it("a share to a tenth never says 0.0% of some nor 100.0% of not all", () => {
    expect([
      share(0, 50),
      share(1, 20_000),
      share(198, 1000),
      share(19_999, 20_000),
      share(5, 5),
      share(0, 0),
    ]).toEqual(["0%", "<0.1%", "19.8%", ">99.9%", "100.0%", "0%"]);
  });
});

describe("producerShares, at the edges of the window", () => {
  // One-second buckets, a window from 10 s to now at 12 s.
  const [since, width, now] = [10_000, 1_000, 12_000];
  const bucket = (start: number, present: number, absent: number, unknown = 0) => ({
    start,
    present,
    absent,
    unknown,
  });

  it("leaves out a bucket that ends before the window, and counts whole buckets when one straddles its start", () => {
    const web = fieldUse({
      producer: "web",
      lastPresentAt: 10_600,
      lastAbsentAt: 10_700,
      // Far before the window (ends at 6 s), straddling its start (9.5 s to 10.5 s), inside it.
      buckets: [bucket(5_000, 7, 0), bucket(9_500, 0, 3), bucket(10_500, 2, 1)],
    });
    const [share] = producerShares([web], "present", since, width, now, "2s");
    expect(share).toMatchObject({
      producer: "web",
      records: 6,
      present: 2,
      absent: 4,
      unknown: 0,
      over: "3s",
      exact: false,
      writers: ["1.1.0"],
    });
  });

  it("keeps a share exact when the bucket begun before the window holds none of the kinds in it", () => {
    const app = fieldUse({
      producer: "app",
      lastPresentAt: 10_600,
      // Its unreadable records all came before the window, in a bucket that straddles its start.
      lastUnknownAt: 9_700,
      buckets: [bucket(9_500, 0, 0, 5), bucket(10_500, 4, 0)],
    });
    const [share] = producerShares([app], "present", since, width, now, "2s");
    expect(share).toMatchObject({ records: 4, present: 4, unknown: 0, over: "2s", exact: true });
  });

  it("counts a record at the window's first millisecond in it, and one before it out", () => {
    const atStart = fieldUse({
      producer: "web",
      lastPresentAt: since,
      lastAbsentAt: since,
      lastUnknownAt: since,
      buckets: [bucket(since, 1, 1, 1)],
    });
    const before = fieldUse({
      producer: "app",
      lastPresentAt: since - 1,
      lastAbsentAt: since + 500,
      buckets: [bucket(since, 0, 2)],
    });
    const shares = producerShares([atStart, before], "present", since, width, now, "2s");
    expect(shares.map((s) => [s.producer, s.inWindow, s.writers])).toEqual([
      ["app", { present: false, absent: true, unknown: false }, []],
      ["web", { present: true, absent: true, unknown: true }, ["1.1.0"]],
    ]);
  });
});
