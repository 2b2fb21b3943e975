import { describe, expect, it } from "vitest";
import type { VersionStatus } from "../../../src/catalog/types.js";
import type { FieldsConfig } from "../../../src/config/types.js";
import { fieldsOfInterest, type VersionSchema } from "../../../src/fields/interest.js";

const v = (text: string, status: VersionStatus, json: unknown): VersionSchema => ({
  version: { text },
  status,
  file: { json },
});

const config = (fields: Partial<FieldsConfig>): FieldsConfig => ({
  add: [],
  exclude: [],
  replaces: {},
  ...fields,
});

/** The fields as `pointer key [deprecatedIn] optionalIn role` lines, in the order given. */
const lines = (versions: VersionSchema[], fields: FieldsConfig, max?: number) =>
  fieldsOfInterest(versions, max, fields).fields.map(
    (f) =>
      `${f.pointer} ${f.key} [${f.deprecatedIn.join(",")}] ${f.optionalIn ?? "-"}` +
      (f.replacedBy ? ` replacedBy ${f.replacedBy}` : "") +
      (f.replaces ? ` replaces ${f.replaces}` : "") +
      (f.added ? " added" : ""),
  );

// 1.0 sends amount (required); 1.1 adds total beside it, and marks nothing deprecated: the rename is
// the config's to say.
const versions = [
  v("1.0.0", "deprecated", { properties: { id: {}, amount: {} }, required: ["id", "amount"] }),
  v("1.1.0", "active", {
    properties: {
      id: {},
      amount: {},
      total: {},
      note: { deprecated: true },
      debug: { properties: { trace: {} } },
      items: { items: { properties: { sku: {}, qty: {} }, required: ["qty"] } },
    },
    required: ["id", "items"],
  }),
];

describe("fields of interest with the config's fields block", () => {
  it("without it, the schemas alone", () => {
    expect(lines(versions, config({}))).toEqual([
      "/note note [1.1.0] 1.1.0",
      "/amount amount [] 1.1.0",
      "/debug debug [] 1.1.0",
      "/total total [] 1.1.0",
      "/debug/trace trace [] 1.1.0",
      "/items/*/sku sku [] 1.1.0",
    ]);
  });

  it("tracks a replaced field as deprecated in the newest active version, its replacement as optional, both first", () => {
    expect(lines(versions, config({ replaces: { "/total": "/amount" } })).slice(0, 3)).toEqual([
      "/amount amount [1.1.0] 1.1.0 replacedBy /total",
      "/total total [] 1.1.0 replaces /amount",
      "/note note [1.1.0] 1.1.0",
    ]);
  });

  it("keeps the versions a schema deprecates a replaced field in, and tracks a pair no schema names", () => {
    const marked = [
      v("1.0.0", "active", { properties: { amount: { deprecated: true } } }),
      v("2.0.0", "candidate", { properties: { amount: {} } }),
    ];
    expect(lines(marked, config({ replaces: { "/payment/gross": "/amount", "/a~1b": "/c~0d" } }))).toEqual([
      "/amount amount [1.0.0] 1.0.0 replacedBy /payment/gross",
      "/payment/gross gross [] 1.0.0 replaces /amount",
      "/c~0d c~d [1.0.0] 1.0.0 replacedBy /a~1b",
      "/a~1b a/b [] 1.0.0 replaces /c~0d",
    ]);
  });

  it("adds fields (optional unless the newest active requires them) and leaves out excluded ones and those under them", () => {
    expect(
      lines(versions, config({ add: ["/items/*/qty", "/id", "/extra"], exclude: ["/debug", "/note"] })),
    ).toEqual([
      "/items/*/qty qty [] - added",
      "/id id [] - added",
      "/extra extra [] 1.1.0 added",
      "/amount amount [] 1.1.0",
      "/total total [] 1.1.0",
      "/items/*/sku sku [] 1.1.0",
    ]);
  });

  it("counts the config's fields toward the cap, the schemas' past it as overflow", () => {
    const result = fieldsOfInterest(
      versions,
      3,
      config({ replaces: { "/total": "/amount" }, add: ["/extra"] }),
    );
    expect(result.fields.map((f) => f.pointer)).toEqual(["/amount", "/total", "/extra"]);
    expect(result.overflow).toBe(4);
  });

  it("deprecates a replaced field in the newest version not retired when none is active", () => {
    const none = [v("1.0.0", "deprecated", { properties: { amount: {} } }), v("2.0.0", "candidate", {})];
    expect(lines(none, config({ replaces: { "/total": "/amount" } }))).toEqual([
      "/amount amount [2.0.0] - replacedBy /total",
      "/total total [] - replaces /amount",
    ]);
  });

  it("has no replacement optional once the newest active version requires it", () => {
    const required = [v("2.0.0", "active", { properties: { total: {}, amount: {} }, required: ["total"] })];
    expect(lines(required, config({ replaces: { "/total": "/amount" } }))).toEqual([
      "/amount amount [2.0.0] 2.0.0 replacedBy /total",
      "/total total [] - replaces /amount",
    ]);
  });
});
