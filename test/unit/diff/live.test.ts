// The live hints of `diff --monitor` (src/diff/live.ts): which field a removed property is, and what
// each kind of field verdict says of removing it, word for word; and how the renderers show them.
import { describe, expect, it } from "vitest";
import { fieldPointerOf, liveHint, withLiveHints } from "../../../src/diff/live.js";
import { toJson, toText } from "../../../src/diff/render.js";
import type { Change, DiffResult } from "../../../src/diff/vocabulary.js";
import type { FieldProducerShare, FieldVerdict } from "../../../src/lifecycle/field-verdicts.js";

const share = (producer: string, present: number, records: number): FieldProducerShare => ({
  producer,
  records,
  present,
  absent: records - present,
  unknown: 0,
  writers: ["1.1.0"],
  lastPresent: null,
  lastAbsent: null,
  lastUnknown: null,
  over: "7d",
  exact: true,
  inWindow: { present: present > 0, absent: records > present, unknown: false },
});

const verdict = (over: Partial<FieldVerdict>): FieldVerdict => ({
  kind: "drained",
  yes: false,
  reasons: [],
  field: "/amount",
  fieldKind: "deprecated",
  version: "1.1.0",
  producers: [],
  evidence: { window: "7d", lastCarried: null, coveredSince: "2026-11-20T08:00Z" },
  ...over,
});

const removal = (path: string, kind: Change["kind"] = "property-removed-open"): Change => ({
  kind,
  path,
  backward: "ok",
  forward: "ok",
  reason: "NEW is open for it",
});

describe("fieldPointerOf", () => {
  it("names the field a property location declares, as the monitor names fields", () => {
    expect(
      [
        "/properties/amount",
        "/properties/items/items/properties/sku",
        "/properties/lines/prefixItems/0/properties/sku",
        "/properties/lines/items/1/properties/sku",
        "/allOf/1/properties/amount",
        "/properties/pay/oneOf/0/then/properties/iban",
        "/properties/a~1b",
      ].map(fieldPointerOf),
    ).toEqual(["/amount", "/items/*/sku", "/lines/*/sku", "/lines/*/sku", "/amount", "/pay/iban", "/a~1b"]);
  });

  it("names none where the location depends on who refers to it, or is no property", () => {
    expect(
      [
        "/$defs/money/properties/currency",
        "https://example.com/money.json#/properties/currency",
        "/properties/amount/type",
        "/required",
        "",
      ].map(fieldPointerOf),
    ).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });
});

describe("liveHint", () => {
  it("names a removed field that live traffic still carries, with each producer's share, most first", () => {
    const hint = liveHint(
      "/amount",
      verdict({ producers: [share("billing", 12, 100), share("mobile", 0, 50), share("web", 40, 40)] }),
    );
    expect(hint).toEqual({
      field: "/amount",
      state: "carried",
      text: "removes /amount, which live traffic still carries: web sent it in 100% of its records, billing in 12% in the drain window (7d)",
    });
  });

  it("says how far back a share of whole buckets reaches, and names no producer whose last carrying record came before the window", () => {
    // Drain window 20s beside a 7d ready window: 14h buckets. billing's 20% is its bucket's, a record
    // of the window among them; web's 19.8% is its bucket's too, but its last carrying record came
    // before the window.
    const partial = (p: FieldProducerShare, inWindow: boolean): FieldProducerShare => ({
      ...p,
      over: "5h1m",
      exact: false,
      inWindow: { present: inWindow, absent: true, unknown: false },
    });
    const hint = liveHint(
      "/amount",
      verdict({
        producers: [partial(share("billing", 200, 1000), true), partial(share("web", 198, 1000), false)],
        evidence: { window: "20s" },
      }),
    );
    expect(hint.text).toBe(
      "removes /amount, which live traffic still carries: billing sent it in 20% of its records (counted over 5h1m) in the drain window (20s)",
    );
    expect(
      liveHint(
        "/amount",
        verdict({ producers: [partial(share("web", 198, 1000), false)], evidence: { window: "20s" } }),
      ).state,
    ).toBe("waiting");
  });

  it("says a drained field is safe to remove, since the last record that carried it", () => {
    expect(
      liveHint(
        "/amount",
        verdict({
          yes: true,
          producers: [share("billing", 0, 9)],
          evidence: { window: "7d", lastCarried: "2026-11-27T14:05Z" },
        }),
      ).text,
    ).toBe(
      "removes /amount, drained since 2026-11-27T14:05Z: safe (no record carried it for the whole drain window, 7d, every partition observed)",
    );
    // a producer's bucket that straddles the window's start still counts a record: the verdict decides
    expect(
      liveHint(
        "/amount",
        verdict({
          yes: true,
          producers: [share("billing", 3, 9)],
          evidence: { window: "7d", lastCarried: "2026-11-27T14:05Z" },
        }),
      ).state,
    ).toBe("drained");
    // never carried: drained since the observation began
    expect(liveHint("/amount", verdict({ yes: true })).text).toBe(
      "removes /amount, drained since 2026-11-20T08:00Z: safe (no record carried it for the whole drain window, 7d, every partition observed)",
    );
  });

  it("says why a field nothing carried is not drained yet", () => {
    const hint = liveHint(
      "/amount",
      verdict({
        reasons: [
          "partition payments/0 was not observed from 2026-12-01T08:00Z (a gap)",
          "3 records of web could not be read",
        ],
      }),
    );
    expect(hint.state).toBe("waiting");
    expect(hint.text).toBe(
      "removes /amount, which no record carried in the drain window (7d) but is not drained yet: partition payments/0 was not observed from 2026-12-01T08:00Z (a gap); 3 records of web could not be read",
    );
  });

  it("tells an optional field nothing carried, whose drain is not judged, and a field not tracked", () => {
    const optional = verdict({
      kind: "ready",
      fieldKind: "optional",
      field: "/currency",
      producers: [share("web", 0, 5)],
    });
    expect(liveHint("/currency", optional)).toEqual({
      field: "/currency",
      state: "absent",
      text: 'removes /currency, which no record carried in the ready window (7d); no version marks it "deprecated": true, so its drain is not judged: deprecate it first and wait for the verdict',
    });
    expect(liveHint("/currency", { ...optional, producers: [share("web", 2, 5)] }).text).toBe(
      "removes /currency, which live traffic still carries: web sent it in 40% of its records in the ready window (7d)",
    );
    expect(liveHint("/id", undefined)).toEqual({
      field: "/id",
      state: "untracked",
      text: 'removes /id, which the monitor does not track (it tracks the fields a version marks "deprecated": true and the optional fields of the newest active version): no live evidence',
    });
  });
});

describe("withLiveHints", () => {
  const result: DiffResult = {
    policy: "strict",
    compatibility: "FULL",
    backward: "ok",
    forward: "ok",
    bump: "major",
    changes: [
      removal("/properties/amount", "property-removed-closed"),
      { ...removal("/properties/total"), kind: "property-added-open" },
      removal("/$defs/money/properties/currency"),
      removal("/$defs/other/properties/note"),
    ],
  };

  it("hints every removed property, by its pointer or by a name only one tracked field ends with", () => {
    const hinted = withLiveHints(result, [
      verdict({ producers: [share("billing", 12, 100)] }),
      verdict({ kind: "ready", fieldKind: "optional", field: "/price/currency" }),
    ]);
    expect(hinted.changes.map((c) => [c.kind, c.path, c.live?.field, c.live?.state])).toEqual([
      ["property-removed-closed", "/properties/amount", "/amount", "carried"],
      ["property-added-open", "/properties/total", undefined, undefined],
      ["property-removed-open", "/$defs/money/properties/currency", "/price/currency", "absent"],
      // a $defs location whose name no tracked field ends with: which field it is cannot be told
      ["property-removed-open", "/$defs/other/properties/note", undefined, undefined],
    ]);
    // the comparison itself is unchanged
    expect({ ...hinted, changes: [] }).toEqual({ ...result, changes: [] });
    expect(result.changes[0]!.live).toBeUndefined();
  });

  it("is shown under its change in text and as `live` in JSON", () => {
    const hinted = withLiveHints({ ...result, changes: [result.changes[0]!] }, [
      verdict({ producers: [share("billing", 12, 100)] }),
    ]);
    const release = { declared: "major" as const, source: "1.1.0 -> 2.0.0", ok: true };
    expect(toText(hinted, { old: "pay-1.1.json", new: "pay-2.0.json" }, release)).toBe(
      [
        "pay-1.1.json -> pay-2.0.json (policy strict)",
        "  backward  forward   change",
        "  ok        ok        property-removed-closed at /properties/amount",
        "                      NEW is open for it",
        "                      live traffic: removes /amount, which live traffic still carries: billing sent it in 12% of its records in the drain window (7d)",
        "compatibility FULL: safe to deploy in any order",
        "backward ok, forward ok; needs a major bump",
        "declared major (1.1.0 -> 2.0.0): ok",
        "",
      ].join("\n"),
    );
    const json = toJson(hinted, { old: "a", new: "b" }, release) as { changes: unknown[] };
    expect(json.changes).toEqual([
      {
        kind: "property-removed-closed",
        path: "/properties/amount",
        backward: "ok",
        forward: "ok",
        reason: "NEW is open for it",
        live: {
          field: "/amount",
          state: "carried",
          text: "removes /amount, which live traffic still carries: billing sent it in 12% of its records in the drain window (7d)",
        },
      },
    ]);
  });
});

describe("the live hints at their edges", () => {
  it("walks every branch and item keyword, and names no field for a keyword without its name", () => {
    expect(
      [
        "/anyOf/0/properties/a",
        "/dependentSchemas/x/properties/a",
        "/dependencies/x/properties/a",
        "/additionalItems/properties/a",
        "/unevaluatedItems/properties/a",
        "/items/12/properties/a",
        "/then/properties/a",
        "/else/properties/a",
      ].map(fieldPointerOf),
    ).toEqual(["/a", "/a", "/a", "/*/a", "/*/a", "/*/a", "/a", "/a"]);
    expect(
      [
        "#properties/a",
        "/properties",
        "/properties/a/prefixItems",
        "/properties/a/anyOf",
        "/properties/a/items",
        "/items/a1/properties/b",
        "/items/1a/properties/b",
      ].map(fieldPointerOf),
    ).toEqual([undefined, undefined, undefined, undefined, undefined, undefined, undefined]);
  });

  it("lists the carriers by their share, the larger first, then by name", () => {
    const text = (producers: FieldProducerShare[]) => liveHint("/amount", verdict({ producers })).text;
    expect(text([share("a", 1, 10), share("b", 5, 10)])).toBe(
      "removes /amount, which live traffic still carries: b sent it in 50% of its records, a in 10% in the drain window (7d)",
    );
    expect(text([share("a", 1, 2), share("b", 1, 10)])).toBe(
      "removes /amount, which live traffic still carries: a sent it in 50% of its records, b in 10% in the drain window (7d)",
    );
    expect(text([share("b", 2, 4), share("a", 1, 2)])).toBe(
      "removes /amount, which live traffic still carries: a sent it in 50% of its records, b in 50% in the drain window (7d)",
    );
  });

  it("calls a ready verdict's field carried in the ready window, never drained; a drained one without dates says so", () => {
    expect(
      liveHint(
        "/total",
        verdict({ kind: "ready", yes: true, fieldKind: "optional", producers: [share("web", 4, 4)] }),
      ),
    ).toEqual({
      field: "/total",
      state: "carried",
      text: "removes /total, which live traffic still carries: web sent it in 100% of its records in the ready window (7d)",
    });
    expect(liveHint("/amount", verdict({ yes: true, evidence: {} }))).toEqual({
      field: "/amount",
      state: "drained",
      text: "removes /amount, drained since ?: safe (no record carried it for the whole drain window, ?, every partition observed)",
    });
  });

  it("hints a partly open removal, by its location even where two tracked fields end with its name", () => {
    const result = {
      changes: [removal("/properties/a", "property-removed-partially-open")],
    } as unknown as DiffResult;
    const hinted = withLiveHints(result, [
      verdict({ field: "/a", yes: true }),
      verdict({ field: "/x/a", producers: [share("web", 1, 1)] }),
    ]);
    expect(hinted.changes.map((c) => [c.live?.field, c.live?.state])).toEqual([["/a", "drained"]]);
  });
});
