import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSchemaFiles } from "../../../src/catalog/load.js";
import { sampleForPattern } from "../../../src/corpus/pattern.js";
import { Redactor } from "../../../src/corpus/redact.js";
import { SchemawatchError } from "../../../src/errors.js";
import { writeTree } from "../../helpers/files.js";

const customer = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: "https://example.com/schemas/customer/1.0.json",
  type: "object",
  required: ["id", "email", "customer", "items"],
  properties: {
    id: { type: "integer", minimum: 100, multipleOf: 7 },
    email: { type: "string", format: "email" },
    signup: { type: "string", format: "date-time" },
    token: { type: "string", format: "uuid" },
    phone: { type: "string", pattern: "^\\+\\d{2} [0-9]{3}-\\d{4}$" },
    code: { type: "string", minLength: 12, maxLength: 14 },
    initials: { type: "string", maxLength: 3 },
    score: { type: "number", exclusiveMinimum: 0, maximum: 1 },
    level: { type: "integer", exclusiveMinimum: 0, multipleOf: 5 },
    vip: { type: "boolean" },
    tier: { enum: ["gold", "silver"] },
    kind: { const: "person" },
    customer: { $ref: "#/$defs/person" },
    items: { type: "array", items: { $ref: "#/$defs/item" } },
    address: {
      type: "object",
      properties: {
        street: { type: "string", minLength: 10 },
        zip: { type: "string", pattern: "^[0-9]{5}$" },
      },
    },
    contact: {
      oneOf: [
        { type: "integer", minimum: 1000 },
        { type: "string", format: "email" },
      ],
    },
  },
  $defs: {
    person: {
      type: "object",
      allOf: [{ properties: { name: { type: "string", minLength: 2, maxLength: 20 } } }],
      properties: { born: { type: "string", format: "date" } },
    },
    item: { type: "object", properties: { email: { type: "string", format: "email" } } },
  },
};

const original = {
  id: 1001,
  email: "alice@example.org",
  signup: "2026-03-04T05:06:07Z",
  token: "9b2f7c1e-2d3a-4f5b-8c6d-7e8f9a0b1c2d",
  phone: "+44 207-1234",
  code: "ABCDEFGHIJKLM",
  initials: "AB",
  score: 0.25,
  level: 35,
  vip: true,
  tier: "silver",
  kind: "person",
  customer: { name: "Alice Liddell", born: "1852-05-04" },
  items: [{ email: "a@x.org" }, { email: "b@y.org" }],
  address: { street: "12 Long Street", zip: "12345" },
  contact: "alice@example.org",
};

const ALL = [
  "/id",
  "/email",
  "/signup",
  "/token",
  "/phone",
  "/code",
  "/initials",
  "/score",
  "/level",
  "/vip",
  "/tier",
  "/kind",
  "/customer/name",
  "/customer/born",
  "/items/*/email",
  "/address",
  "/contact",
];

async function compiled(schema: unknown) {
  const dir = await writeTree({ "schema.json": schema });
  const [loaded] = await loadSchemaFiles([join(dir, "schema.json")]);
  return loaded!.validate;
}

describe("Redactor", () => {
  it("replaces every configured value by a placeholder that passes the schema", async () => {
    const validate = await compiled(customer);
    expect(validate(original)).toBe(true);
    const result = new Redactor(ALL).apply(original, customer);
    expect(result.document).toEqual({
      id: 105,
      email: "user@example.com",
      signup: "2000-01-01T00:00:00Z",
      token: "00000000-0000-4000-8000-000000000000",
      phone: "+00 000-0000",
      code: "redactedxxxx",
      initials: "red",
      score: 0.5,
      level: 5,
      vip: false,
      tier: "gold",
      kind: "person",
      customer: { name: "redacted", born: "2000-01-01" },
      items: [{ email: "user@example.com" }, { email: "user@example.com" }],
      address: { street: "redactedxx", zip: "00000" },
      contact: "user@example.com",
    });
    expect(validate(result.document)).toBe(true);
    expect(result.redacted).toEqual(ALL);
  });

  it("leaves the input alone and lists only the pointers that matched", () => {
    const input = { email: "alice@example.org", items: [] };
    const result = new Redactor(["/email", "/phone", "/items/*/email", "/customer/name"]).apply(input);
    expect(input.email).toBe("alice@example.org");
    expect(result.document).toEqual({ email: "redacted", items: [] });
    expect(result.redacted).toEqual(["/email"]);
  });

  it("keeps the type of each value without a schema, so the example keeps its shape", () => {
    const result = new Redactor(["/a", "/b", "/c", "/d", "/e"]).apply({
      a: 12,
      b: 1.5,
      c: "x",
      d: true,
      e: null,
    });
    expect(result.document).toEqual({ a: 0, b: 0.5, c: "redacted", d: false, e: null });
  });

  it("redacts the whole document with the root pointer", () => {
    const result = new Redactor([""]).apply({ name: "Alice", tags: ["a", 3] });
    expect(result.document).toEqual({ name: "redacted", tags: ["redacted", 0] });
  });

  it("reads * on an object as every member", () => {
    const result = new Redactor(["/byId/*/email"]).apply({
      byId: { u1: { email: "a@b.c" }, u2: { email: "d@e.f" } },
    });
    expect(result.document).toEqual({ byId: { u1: { email: "redacted" }, u2: { email: "redacted" } } });
  });

  it("follows draft-04 boolean exclusive limits", async () => {
    const schema = {
      $schema: "http://json-schema.org/draft-04/schema#",
      type: "object",
      properties: { n: { type: "integer", minimum: 0, exclusiveMinimum: true, maximum: 3 } },
    };
    const validate = await compiled(schema);
    const result = new Redactor(["/n"]).apply({ n: 2 }, schema);
    expect(result.document).toEqual({ n: 1 });
    expect(validate(result.document)).toBe(true);
  });

  it("falls back to 'redacted' for a pattern it cannot satisfy, which then fails (documented)", async () => {
    const schema = {
      type: "object",
      properties: { s: { type: "string", pattern: "^(?=.*\\d)[a-z\\d]{6}$" } },
    };
    const validate = await compiled(schema);
    const result = new Redactor(["/s"]).apply({ s: "abc123" }, schema);
    expect(result.document).toEqual({ s: "redacted" });
    expect(validate(result.document)).toBe(false);
  });

  it("scopes a member name from traffic on the linear engine: a hostile name against a nested quantifier answers at once", () => {
    const hostile = "a".repeat(40) + "!";
    const schema = {
      type: "object",
      patternProperties: {
        "^(a+)+$": { type: "integer", minimum: 7, maximum: 7 },
        "^b(?=c)": { type: "integer", minimum: 8, maximum: 8 },
      },
      additionalProperties: { type: "integer", minimum: 5, maximum: 5 },
    };
    const start = performance.now();
    const result = new Redactor(["/*"]).apply({ [hostile]: 1, aaa: 1, bc: 1 }, schema);
    expect(performance.now() - start).toBeLessThan(500);
    // The lookahead is left to validation's time budget: here it scopes nothing (documented).
    expect(result.document).toEqual({ [hostile]: 5, aaa: 7, bc: 5 });
  });

  it("rejects a pointer that is not a JSON Pointer", () => {
    expect(() => new Redactor(["email"])).toThrow(SchemawatchError);
    expect(() => new Redactor(["email"])).toThrow(
      "corpus.redact: 'email' is not a JSON Pointer (for example /email or /items/*/email)",
    );
  });
});

describe("sampleForPattern", () => {
  it("builds the shortest match of simple patterns", () => {
    expect(sampleForPattern("^[A-Z]{2}-\\d{4}$")).toBe("AA-0000");
    expect(sampleForPattern("^(?:ab|cd)+x?$")).toBe("ab");
    expect(sampleForPattern("^\\w+@\\w+\\.com$")).toBe("a@a.com");
    expect(sampleForPattern("[0-9]{3}", 5)).toBe("000xx");
  });

  it("gives up on lookarounds, backreferences and invalid patterns", () => {
    expect(sampleForPattern("^(?=a)a$")).toBeUndefined();
    expect(sampleForPattern("^(a)\\1$")).toBeUndefined();
    expect(sampleForPattern("(")).toBeUndefined();
  });
});
