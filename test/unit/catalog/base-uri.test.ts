import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { baseUriOf } from "../../../src/catalog/base-uri.js";
import { SchemaCompiler, type SchemaDocument } from "../../../src/catalog/compiler.js";
import type { Dialect } from "../../../src/catalog/dialect.js";

// A schema's root `$id` is its base; where it was retrieved (a file, a registry version) is kept as an
// alias. Held by the official JSON-Schema-Test-Suite (test/fixtures/json-schema-test-suite, vendored),
// each group's schema retrieved at a file URI of its own, unlike its `$id`.

const SUITE = fileURLToPath(new URL("../../fixtures/json-schema-test-suite/", import.meta.url));
const REMOTE = "http://localhost:1234/";
const DIALECT_URIS = /^https?:\/\/json-schema\.org\/(draft-0[467]\/schema|draft\/20(19-09|20-12)\/schema)#?$/;
const DRAFTS: ReadonlyArray<readonly [string, Dialect]> = [
  ["draft4", "draft-04"],
  ["draft6", "draft-06"],
  ["draft7", "draft-07"],
  ["draft2019-09", "2019-09"],
  ["draft2020-12", "2020-12"],
];

interface Group {
  description: string;
  schema: unknown;
  tests: Array<{ description: string; data: unknown; valid: boolean }>;
}

/** The suite's remote documents a draft's groups may reach, by the URI the suite serves them at. */
function remotes(folder: string): SchemaDocument[] {
  const root = join(SUITE, "remotes");
  const out: SchemaDocument[] = [];
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!DRAFTS.some(([f]) => f === entry.name) || entry.name === folder) visit(path);
      } else if (entry.name.endsWith(".json")) {
        const name = relative(root, path).split("\\").join("/");
        out.push({ uri: `${REMOTE}${name}`, json: JSON.parse(readFileSync(path, "utf8")), name });
      }
    }
  };
  visit(root);
  return out;
}

/** One draft's required tests: answers, wrong answers and refused groups, those that need a remote apart. */
function run(folder: string, dialect: Dialect) {
  const compiler = new SchemaCompiler({ defaultDialect: dialect });
  const refs = remotes(folder);
  const tally = {
    passed: 0,
    wrong: [] as string[],
    refused: [] as string[],
    remote: 0,
    remotePassed: 0,
  };
  const dir = join(SUITE, "tests", folder);
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    const groups = JSON.parse(readFileSync(join(dir, file), "utf8")) as Group[];
    groups.forEach((group, index) => {
      const where = `${folder}/${file}: ${group.description}`;
      // Retrieved as a file of its own would be: never the URI its `$id` names.
      const uri = pathToFileURL(join(dir, file.replace(/\.json$/, ""), `${index}.json`)).href;
      const declared = (group.schema as { $schema?: unknown }).$schema;
      const custom = typeof declared === "string" && !DIALECT_URIS.test(declared);
      // A custom meta-schema's dialect is the one it declares, once it is among the documents given.
      const input = { uri, json: group.schema, name: where, ...(custom ? {} : { dialect }) };
      // A group needs a remote document when it compiles only once the suite's remotes are given.
      let remote = false;
      let validate;
      try {
        validate = compiler.compileVersion(input);
      } catch (error) {
        try {
          if (!JSON.stringify(group.schema).includes(REMOTE)) throw error;
          validate = compiler.compileVersion({ ...input, refs });
          remote = true;
        } catch {
          tally.refused.push(`${where}: ${(error as Error).message}`);
          return;
        }
      }
      if (remote) tally.remote++;
      for (const test of group.tests) {
        if (validate(test.data) !== test.valid) tally.wrong.push(`${where} / ${test.description}`);
        else if (remote) tally.remotePassed++;
        else tally.passed++;
      }
    });
  }
  return tally;
}

describe("the JSON-Schema-Test-Suite, each schema retrieved at a URI unlike its $id", () => {
  it("answers every required test as the suite says and refuses no group", () => {
    const results = DRAFTS.map(([folder, dialect]) => [dialect, run(folder, dialect)] as const);
    expect(results.flatMap(([, r]) => r.wrong)).toEqual([]);
    expect(results.flatMap(([, r]) => r.refused)).toEqual([]);
    // Per draft: tests answered without a remote document; groups that need one, and their tests.
    expect(results.map(([d, r]) => `${d} ${r.passed} ${r.remote} ${r.remotePassed}`)).toEqual([
      "draft-04 601 8 17",
      "draft-06 816 11 23",
      "draft-07 904 11 23",
      "2019-09 1223 17 36",
      "2020-12 1250 22 49",
    ]);
  });
});

describe("baseUriOf", () => {
  const file = "file:///schemas/orders/1.0.0.json";

  it("is the root $id resolved against the retrieval URI, without its fragment", () => {
    expect(baseUriOf({ $id: "https://example.com/orders.json#" }, file, "draft-07")).toBe(
      "https://example.com/orders.json",
    );
    expect(baseUriOf({ $id: "v1/orders.json" }, file, "2020-12")).toBe(
      "file:///schemas/orders/v1/orders.json",
    );
    expect(baseUriOf({ $id: "urn:example:orders" }, file, "2019-09")).toBe("urn:example:orders");
    // draft-04 names it `id`; from draft-06 on `id` is no keyword at all.
    expect(baseUriOf({ id: "urn:example:orders" }, file, "draft-04")).toBe("urn:example:orders");
    expect(baseUriOf({ id: "urn:example:orders" }, file, "draft-07")).toBe(file);
  });

  it("is the retrieval URI of a schema without $id", () => {
    expect(baseUriOf({ type: "object" }, file, "2020-12")).toBe(file);
    expect(baseUriOf({ $id: "" }, file, "2020-12")).toBe(file);
    expect(baseUriOf(true, file, "2020-12")).toBe(file);
  });

  it("is the retrieval URI where the root $id is no URI reference", () => {
    expect(baseUriOf({ $id: "b.json" }, "urn:example:a", "2020-12")).toBe("urn:example:a");
    expect(baseUriOf({ $id: "http://[bad" }, file, "2020-12")).toBe(file);
  });
});

describe("a version retrieved at a URI unlike its $id", () => {
  const shared: SchemaDocument = {
    uri: "file:///catalog/shared/money.json",
    json: { $id: "https://example.com/types/money.json", type: "integer", minimum: 0 },
    name: "shared/money.json",
  };

  it("resolves its relative $refs against its $id, and a shared file by its $id or its file", () => {
    const validate = new SchemaCompiler().compileVersion({
      uri: "file:///catalog/orders/1.0.0.json",
      json: {
        $id: "https://example.com/orders/1.0.0.json",
        properties: {
          total: { $ref: "../types/money.json" },
          tip: { $ref: "file:///catalog/shared/money.json" },
          self: { $ref: "file:///catalog/orders/1.0.0.json#/definitions/code" },
        },
        definitions: { code: { type: "string" } },
      },
      name: "orders/1.0.0.json",
      refs: [shared],
    });
    expect([{ total: 1, tip: 2, self: "a" }, { total: -1 }, { tip: -1 }, { self: 1 }].map(validate)).toEqual([
      true,
      false,
      false,
      false,
    ]);
  });
});
