import { describe, expect, it } from "vitest";
import type { VersionStatus } from "../../../src/catalog/types.js";
import { MAX_NODES, fieldsOfInterest, type VersionSchema } from "../../../src/fields/interest.js";

const v = (text: string, status: VersionStatus, json: unknown): VersionSchema => ({
  version: { text },
  status,
  file: { json },
});

/** The fields as `pointer deprecatedIn optionalIn` lines, in the order given. */
const lines = (versions: VersionSchema[], max?: number) =>
  fieldsOfInterest(versions, max).fields.map(
    (f) => `${f.pointer} [${f.deprecatedIn.join(",")}] ${f.optionalIn ?? "-"}`,
  );

describe("fields of interest", () => {
  it("takes deprecated properties of every non-retired version and optional ones of the newest active", () => {
    const versions = [
      v("1.0.0", "retired", { properties: { old: { deprecated: true } } }),
      v("1.1.0", "deprecated", {
        properties: { id: {}, amount: { type: "number", deprecated: true } },
        required: ["id"],
      }),
      v("1.2.0", "active", {
        properties: { id: {}, amount: { deprecated: true }, total: {}, note: {} },
        required: ["id", "total"],
      }),
      // A candidate's optional properties are not the newest active version's: only its deprecations count.
      v("2.0.0", "candidate", {
        properties: { id: {}, total: {}, currency: {}, note: { deprecated: true } },
      }),
    ];
    expect(lines(versions)).toEqual(["/amount [1.1.0,1.2.0] 1.2.0", "/note [2.0.0] 1.2.0"]);
    const result = fieldsOfInterest(versions);
    expect(result.fields[0]!.key).toBe("amount");
    expect(result.overflow).toBe(0);
    expect(result.unresolvedRefs).toEqual([]);
    expect(result.truncated).toBe(false);
  });

  it("names nested properties by pointer, array items as *, and escapes ~ and /", () => {
    const schema = {
      type: "object",
      properties: {
        order: {
          type: "object",
          properties: {
            items: {
              type: "array",
              items: {
                properties: { sku: { type: "string" }, qty: {}, "a/b~c": {} },
                required: ["qty", "a/b~c"],
              },
            },
          },
          required: ["items"],
        },
        tags: { type: "array", prefixItems: [{ properties: { label: {} } }] },
      },
      required: ["order", "tags"],
    };
    expect(lines([v("1.0.0", "active", schema)])).toEqual([
      "/tags/*/label [] 1.0.0",
      "/order/items/*/sku [] 1.0.0",
    ]);
    expect(fieldsOfInterest([v("1.0.0", "active", schema)]).fields.map((f) => f.key)).toEqual([
      "label",
      "sku",
    ]);
    // Required by the item schema, the escaped name is no field; optional, it is one.
    const optional = structuredClone(schema);
    optional.properties.order.properties.items.items.required = ["qty"];
    expect(lines([v("1.0.0", "active", optional)])).toContain("/order/items/*/a~1b~0c [] 1.0.0");
  });

  it("follows local $refs, reads required and deprecated through them and allOf, and stops at recursion", () => {
    const schema = {
      $id: "https://example.com/order.json",
      $defs: {
        money: { type: "number", deprecated: true },
        line: { properties: { price: { $ref: "#/$defs/money" }, next: { $ref: "#/$defs/line" } } },
        named: { properties: { name: {} } },
      },
      allOf: [{ $ref: "#/$defs/named" }, { required: ["name"] }],
      properties: {
        total: { $ref: "https://example.com/order.json#/$defs/money" },
        line: { $ref: "#/$defs/line" },
        parent: { $ref: "#" },
      },
    };
    expect(lines([v("1.0.0", "active", schema)])).toEqual([
      "/total [1.0.0] 1.0.0",
      "/line/price [1.0.0] 1.0.0",
      "/line [] 1.0.0",
      "/parent [] 1.0.0",
      "/line/next [] 1.0.0",
    ]);
  });

  it("reads deprecated beside a draft-07 $ref and the properties of dependencies' schemas", () => {
    const schema = {
      definitions: { money: { type: "number" } },
      properties: { amount: { $ref: "#/definitions/money", deprecated: true }, card: {} },
      dependencies: { card: { properties: { cvc: {} } }, iban: ["bic"] },
    };
    expect(lines([v("1.0.0", "active", schema)])).toEqual([
      "/amount [1.0.0] 1.0.0",
      "/card [] 1.0.0",
      "/cvc [] 1.0.0",
    ]);
  });

  it("lists the $refs it cannot follow: other documents, anchors, missing targets", () => {
    const schema = {
      properties: {
        a: { $ref: "common.json#/$defs/money" },
        b: { $ref: "#money" },
        c: { $ref: "#/$defs/missing" },
        d: { $dynamicRef: "#meta" },
      },
    };
    const result = fieldsOfInterest([v("1.0.0", "active", schema)]);
    expect(result.unresolvedRefs).toEqual(["#/$defs/missing", "#meta", "#money", "common.json#/$defs/money"]);
    expect(result.fields.map((f) => f.pointer)).toEqual(["/a", "/b", "/c", "/d"]);
  });

  it("counts anyOf/oneOf/then branches' properties as fields, not what the branches require or deprecate", () => {
    const schema = {
      // One form of amount is deprecated, not the field: it is optional, not deprecated.
      properties: { kind: {}, amount: { anyOf: [{ type: "number" }, { type: "string", deprecated: true }] } },
      required: ["kind"],
      oneOf: [
        { properties: { card: { deprecated: true } }, required: ["card"] },
        { properties: { iban: {} } },
      ],
      if: { properties: { kind: { const: "x" } } },
      then: { properties: { extra: {} }, required: ["extra"] },
    };
    // A property a branch declares deprecated is deprecated; required by a branch, it stays optional.
    expect(lines([v("1.0.0", "active", schema)])).toEqual([
      "/card [1.0.0] 1.0.0",
      "/amount [] 1.0.0",
      "/extra [] 1.0.0",
      "/iban [] 1.0.0",
    ]);
  });

  it("keeps deprecated fields first under the cap and counts the rest as overflow", () => {
    const properties: Record<string, unknown> = {};
    for (const name of ["a", "b", "c", "d", "e"]) properties[name] = {};
    properties.z = { deprecated: true };
    const result = fieldsOfInterest([v("1.0.0", "active", { properties })], 3);
    expect(result.fields.map((f) => f.pointer)).toEqual(["/z", "/a", "/b"]);
    expect(result.overflow).toBe(3);
  });

  it("has no fields without an active version, for boolean schemas, or when every property is required", () => {
    expect(lines([v("1.0.0", "candidate", { properties: { a: {} } })])).toEqual([]);
    expect(lines([v("1.0.0", "active", true)])).toEqual([]);
    expect(lines([v("1.0.0", "active", { properties: { a: {} }, required: ["a"] })])).toEqual([]);
  });

  it("stops a walk that refs multiply past its node budget, and says so", () => {
    // Each level refers to the next twice: 2^20 paths, far past the budget.
    const $defs: Record<string, unknown> = {};
    for (let i = 0; i < 20; i++)
      $defs[`l${i}`] = { properties: { x: { $ref: `#/$defs/l${i + 1}` }, y: { $ref: `#/$defs/l${i + 1}` } } };
    $defs.l20 = { properties: { leaf: {} } };
    const result = fieldsOfInterest([v("1.0.0", "active", { $ref: "#/$defs/l0", $defs })]);
    expect(result.truncated).toBe(true);
    expect(MAX_NODES).toBe(20_000);
  });
});
