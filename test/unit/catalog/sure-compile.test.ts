// Compiling on first use is only sound if `compilesSurely` never says yes to a version that would not
// compile: held here against every schema of the repository's fixtures and the diff corpus, and
// against versions of them broken on purpose, each compiled both ways.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SchemaCompiler, type SchemaDocument, type Validator } from "../../../src/catalog/compiler.js";
import { compileDeferred, isDeferred } from "../../../src/catalog/deferred.js";
import type { Dialect } from "../../../src/catalog/dialect.js";
import { walkSchemas } from "../../../src/catalog/walk.js";

interface Case {
  readonly name: string;
  readonly json: unknown;
  readonly dialect: Dialect;
  readonly refs?: readonly SchemaDocument[];
}

function jsonFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return jsonFiles(path);
    return name.endsWith(".json") ? [path] : [];
  });
}

/** The diff corpus's old and new schemas, and every schema file of the test fixtures and examples. */
function repositorySchemas(): Case[] {
  const cases: Case[] = [];
  for (const path of jsonFiles("test/unit/diff/corpus")) {
    const corpus = JSON.parse(readFileSync(path, "utf8")) as {
      defaultDialect: Dialect;
      cases: Array<{ name: string; old: unknown; new: unknown }>;
    };
    for (const c of corpus.cases) {
      for (const side of ["old", "new"] as const)
        cases.push({ name: `${path} ${c.name} ${side}`, json: c[side], dialect: corpus.defaultDialect });
    }
  }
  const folders = ["test/unit/diff/fixtures", "examples/catalog", "deploy/kubernetes/base/schemas"];
  for (const path of folders.flatMap(jsonFiles)) {
    const json: unknown = JSON.parse(readFileSync(path, "utf8"));
    if (typeof json === "object" && json !== null && !Array.isArray(json))
      cases.push({ name: path, json, dialect: "draft-07" });
  }
  return cases;
}

/**
 * Versions of a schema broken where a deferred compilation could fail (refs, patterns, ids, types),
 * each at one subschema: the `seed`-th, so that the cases together break many places.
 */
function broken(c: Case, seed: number): Case[] {
  const out: Case[] = [];
  const variants: Array<[string, (node: Record<string, unknown>) => void]> = [
    ["ref to a missing definition", (n) => (n["$ref"] = "#/definitions/missing")],
    ["ref to a missing document", (n) => (n["$ref"] = "other.json")],
    ["ref into data", (n) => (n["$ref"] = "#/examples/0")],
    ["a pattern that is no regular expression", (n) => (n["pattern"] = "(")],
    ["a nested $id", (n) => (n["$id"] = "nested.json")],
    ["a ref with a stray suffix", (n) => typeof n["$ref"] === "string" && (n["$ref"] += "x")],
    ["an if of the wrong type", (n) => (n["if"] = 3)],
    ["nullable without type", (n) => (n["nullable"] = true)],
  ];
  let nodes = 0;
  walkSchemas(c.json, () => nodes++);
  if (nodes === 0) return out;
  const at = seed % nodes;
  for (const [what, change] of variants) {
    const copy = structuredClone(c.json);
    let seen = 0;
    walkSchemas(copy, (node) => {
      if (seen++ === at) change(node);
    });
    out.push({ ...c, name: `${c.name}: ${what} at node ${at}`, json: copy });
  }
  return out;
}

/**
 * Eager and deferred compilation of one case: `compiled`, or the error loading it threw. A deferred
 * version that then fails to compile is its own outcome, which no eager compilation has.
 */
function outcome(compiler: SchemaCompiler, c: Case, eager: boolean): string {
  const input = {
    uri: "https://example.com/case.json",
    json: c.json,
    name: c.name,
    dialect: c.dialect,
    ...(c.refs ? { refs: c.refs } : {}),
  };
  let version: { validate: Validator };
  try {
    version = { validate: eager ? compiler.compileVersion(input) : compiler.compileOnFirstUse(input) };
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
  const deferred = isDeferred(version.validate);
  try {
    compileDeferred(version);
  } catch (error) {
    return `a deferred compilation failed: ${(error as Error).message}`;
  }
  return deferred ? "deferred, compiled" : "compiled";
}

describe("compiling a version on its first use", () => {
  const compiler = new SchemaCompiler();
  const cases = repositorySchemas();

  it("defers only versions that then compile, and fails every other one as compiling at once does", () => {
    expect(cases.length).toBeGreaterThan(300);
    let deferred = 0;
    let failing = 0;
    const breaks = cases.filter((_, i) => i % 3 === 0).flatMap((c, i) => broken(c, i));
    for (const c of [...cases, ...breaks]) {
      const eager = outcome(compiler, c, true);
      const lazy = outcome(compiler, c, false);
      if (lazy === "deferred, compiled") deferred++;
      if (eager.startsWith("error")) failing++;
      // A deferred version compiled; an error is the same error, thrown at load.
      expect({ case: c.name, outcome: lazy.replace("deferred, ", "") }).toEqual({
        case: c.name,
        outcome: eager,
      });
    }
    // Most real schemas are deferred, and the broken ones did break.
    expect(deferred).toBeGreaterThan(cases.length * 0.8);
    expect(failing).toBeGreaterThan(breaks.length / 2);
  }, 180_000);

  it("compiles wide schemas and long chains of refs at once, where ajv could run out of stack", () => {
    const flat = (n: number) => ({
      type: "object",
      properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, { type: "string" }])),
    });
    // Each link compiles the next within its own compilation: 186 links ran out of stack.
    const chain = (n: number) => ({
      $ref: "#/$defs/d0",
      $defs: Object.fromEntries(
        Array.from({ length: n }, (_, i) => [
          `d${i}`,
          i + 1 < n ? { items: { $ref: `#/$defs/d${i + 1}` } } : { type: "string" },
        ]),
      ),
    });
    const shapes: Array<[unknown, string]> = [
      [flat(500), "deferred, compiled"],
      [flat(800), "compiled"],
      [chain(50), "deferred, compiled"],
      [chain(70), "compiled"],
      // Out of stack or not, depending on the stack in use: compiled at once either way.
      [chain(260), "not deferred"],
    ];
    for (const [json, expected] of shapes) {
      const c: Case = { name: "wide", json, dialect: "2020-12" };
      const lazy = outcome(compiler, c, false);
      expect(lazy.replace("deferred, ", "")).toEqual(outcome(compiler, c, true));
      if (expected === "not deferred") expect(lazy).not.toMatch(/^deferred/);
      else expect(lazy).toBe(expected);
    }
  });

  it("defers local refs whatever the base URI: registry, file, URN, unnormalized", () => {
    const json = {
      properties: { a: { $ref: "#/definitions/x" }, b: { $ref: "#" } },
      definitions: { x: { type: "string" } },
    };
    for (const uri of [
      "schemawatch-registry://main/a%20b%2Fc%C3%A9/versions/3",
      "file:///tmp/a%20b/%C3%A9/x.json",
      "urn:uuid:1234",
      "HTTP://Example.COM/A/./b/../c.json",
    ]) {
      const version = { validate: compiler.compileOnFirstUse({ uri, json, name: uri, dialect: "draft-07" }) };
      expect(isDeferred(version.validate)).toBe(true);
      compileDeferred(version);
      expect([version.validate({ a: 1 }), version.validate({ a: "s", b: { a: "t" } })]).toEqual([
        false,
        true,
      ]);
    }
  });

  it("follows refs to shared documents by absolute and relative URI, and fails a missing target at load", () => {
    const money: SchemaDocument = {
      uri: "https://example.com/common/money.json",
      json: { $defs: { amount: { type: "number", minimum: 0 } }, type: "object" },
      name: "money.json",
    };
    const load = (ref: string) =>
      compiler.compileOnFirstUse({
        uri: "https://example.com/orders/1.0.json",
        json: { type: "object", properties: { total: { $ref: ref } } },
        name: "orders/1.0.json",
        dialect: "2020-12",
        refs: [money],
      });
    for (const ref of [
      "https://example.com/common/money.json",
      "../common/money.json#/$defs/amount",
      "https://example.com/common/money.json#/$defs/amount",
    ]) {
      const validate = load(ref);
      expect(isDeferred(validate)).toBe(true);
      expect(validate({ total: -1 })).toBe(false);
    }
    expect(() => load("../common/money.json#/$defs/missing")).toThrow(
      /orders\/1\.0\.json: #\/properties\/total\/\$ref: can't resolve reference/,
    );
    expect(() => load("../common/cash.json")).toThrow(/can't resolve reference \.\.\/common\/cash\.json/);
  });

  it("judges exactly as the version compiled at once, compiling once whoever holds it", () => {
    const json = {
      type: "object",
      properties: { id: { type: "integer" }, tags: { type: "array", items: { $ref: "#/$defs/tag" } } },
      required: ["id"],
      $defs: { tag: { type: "string", pattern: "^[a-z]+$" } },
    };
    const input = { uri: "https://example.com/t.json", json, name: "t.json", dialect: "2020-12" as const };
    const eager = compiler.compileVersion(input);
    const deferred = compiler.compileOnFirstUse(input);
    expect(isDeferred(deferred)).toBe(true);
    const first = { validate: deferred };
    const second = { validate: deferred };
    const documents = [{ id: 1 }, { id: "1" }, { id: 1, tags: ["ab", "Cd"] }, {}, { id: 2, tags: ["x"] }];
    for (const document of documents) {
      // Called as a method: the holder keeps the compiled validator, which holds the errors.
      expect(first.validate(document)).toBe(eager(document));
      expect(first.validate.errors ?? null).toEqual(eager.errors ?? null);
      // Called on its own: it forwards, and copies the errors.
      expect(deferred(document)).toBe(eager(document));
      expect(deferred.errors ?? null).toEqual(eager.errors ?? null);
    }
    expect(isDeferred(first.validate)).toBe(false);
    // The second holder gets the very function the first one compiled: one compilation.
    expect(compileDeferred(second)).toBe(true);
    expect(second.validate).toBe(first.validate);
    expect(compileDeferred(second)).toBe(false);
  });
});
