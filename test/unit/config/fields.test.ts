import { describe, expect, it } from "vitest";
import { parseConfig } from "../../../src/config/load.js";

const MIN = `subjects:
  - name: pay
    topics: [payments]
    schemas: ./pay
`;
const withFields = (block: string) => parseConfig(`${MIN}    fields:\n${block}`, "c.yaml");

describe("a subject's fields block", () => {
  it("is absent unless written, and read as written otherwise", () => {
    expect(parseConfig(MIN, "c.yaml").subjects[0]!.fields).toBeUndefined();
    const fields = withFields(
      "      replaces:\n        /total: /amount\n      add: [/items/*/sku, /a~1b]\n      exclude: [/debug]\n",
    ).subjects[0]!.fields;
    expect(fields).toEqual({
      add: ["/items/*/sku", "/a~1b"],
      exclude: ["/debug"],
      replaces: { "/total": "/amount" },
    });
    expect(Object.isFrozen(fields!.replaces)).toBe(true);
    expect(withFields("      add: [/currency]\n").subjects[0]!.fields).toEqual({
      add: ["/currency"],
      exclude: [],
      replaces: {},
    });
  });

  it.each([
    [
      "a field that replaces itself",
      "      replaces:\n        /total: /total\n",
      "c.yaml:7: subjects[0].fields.replaces./total: '/total' cannot replace itself",
    ],
    [
      "a pointer that ends with any item of an array",
      "      add: [/items/*]\n",
      "c.yaml:6: subjects[0].fields.add[0]: '/items/*' ends with *, any item of an array, which is not a property: name a property of the items, such as /items/*/sku",
    ],
    [
      "the whole document as a field",
      "      add: ['']\n",
      "c.yaml:6: subjects[0].fields.add[0]: '' is the whole document, not a field: name a property, such as /amount",
    ],
    [
      "the whole document left out",
      "      exclude: ['']\n",
      "c.yaml:6: subjects[0].fields.exclude[0]: '' would leave out every field: remove the fields block",
    ],
    [
      "a replaced pointer that ends in *",
      "      replaces:\n        /lines/*/total: /lines/*\n",
      "c.yaml:7: subjects[0].fields.replaces./lines/*/total: '/lines/*' ends with *, any item of an array, which is not a property: name a property of the items, such as /lines/*/sku",
    ],
    [
      "two fields of one name, which the byte check cannot tell apart",
      "      replaces:\n        /payment/amount: /amount\n",
      "c.yaml:7: subjects[0].fields.replaces./payment/amount: /payment/amount and /amount end in the same name, 'amount', and a record's bytes are searched for a field by its name: the two could not be told apart; rename the property itself",
    ],
    [
      "a field replaced by two",
      "      replaces:\n        /total: /amount\n        /sum: /amount\n",
      "c.yaml:8: subjects[0].fields.replaces./sum: /amount is replaced by /total already: a field is replaced by one other field",
    ],
    [
      "a chain of renames",
      "      replaces:\n        /total: /amount\n        /grand: /total\n",
      "c.yaml:8: subjects[0].fields.replaces./grand: /grand replaces /total, which replaces /amount itself: finish one rename (drain /amount) before the next begins",
    ],
    [
      "a renamed field left out",
      "      replaces:\n        /total: /amount\n      exclude: [/amount]\n",
      "c.yaml:8: subjects[0].fields.exclude[0]: /amount leaves out /amount, which this fields block names (under add or replaces): keep one of the two",
    ],
    [
      "an added field left out by its parent",
      "      add: [/items/*/sku]\n      exclude: [/items]\n",
      "c.yaml:7: subjects[0].fields.exclude[0]: /items leaves out /items/*/sku, which this fields block names (under add or replaces): keep one of the two",
    ],
    [
      "more fields than a subject tracks",
      `      add: [${Array.from({ length: 15 }, (_, i) => `/f${i}`).join(", ")}]\n      replaces:\n        /total: /amount\n`,
      "c.yaml:5: subjects[0].fields: names 17 fields (under add and replaces), and at most 16 are tracked per subject: name fewer",
    ],
  ])("refuses %s, naming file, line and key", (_, block, message) => {
    let thrown: unknown;
    try {
      withFields(block);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: "CONFIG_INVALID", message });
  });

  it("accepts 16 fields named, the cap", () => {
    const add = Array.from({ length: 14 }, (_, i) => `/f${i}`).join(", ");
    expect(
      withFields(`      add: [${add}]\n      replaces:\n        /total: /amount\n`).subjects[0]!.fields!.add,
    ).toHaveLength(14);
  });

  it.each([
    [
      "a replacement that is no pointer",
      "      replaces:\n        total: /amount\n",
      "c.yaml:7: subjects[0].fields.replaces.total: must be a JSON Pointer such as /total (the replacement, whose value names the field it replaces)",
    ],
    [
      "a replaced field that is no pointer",
      "      replaces:\n        /total: amount\n",
      "c.yaml:7: subjects[0].fields.replaces./total: must be a JSON Pointer such as /amount or /items/*/sku",
    ],
    [
      "an added field that is no pointer",
      "      add: [sku]\n",
      "c.yaml:6: subjects[0].fields.add[0]: must be a JSON Pointer such as /amount or /items/*/sku",
    ],
    [
      "a bad escape",
      "      exclude: [/a~2]\n",
      "c.yaml:6: subjects[0].fields.exclude[0]: must be a JSON Pointer such as /amount or /items/*/sku",
    ],
    ["an unknown key", "      rename: {}\n", "c.yaml:6: subjects[0].fields.rename: unknown key 'rename'"],
  ])("refuses %s through the schema, naming line and key", (_, block, line) => {
    expect(() => withFields(block)).toThrow(line);
  });
});
