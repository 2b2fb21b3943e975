// The list of change kinds (src/diff/kinds.ts) is the product's vocabulary: every kind a report can
// name, under the family docs/diff.md files it under. The docs' tables and the list must agree both
// ways, family by family, and only annotation kinds are annotations.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { CHANGE_KINDS, isAnnotationKind, type ChangeFamily } from "../../../src/diff/index.js";

const HEADINGS: Readonly<Record<string, ChangeFamily>> = {
  "Annotations (always ok both ways)": "annotation",
  "Boolean schemas": "boolean",
  type: "type",
  "enum and const": "enum",
  Numbers: "number",
  Strings: "string",
  Arrays: "array",
  Objects: "object",
  "Combinators and conditionals": "combinator",
  "The time budget": "budget",
  "Changes that break together": "joint",
};

/** The kinds in the first column of each table under "## Change kinds", by family. */
function documented(): Record<string, string[]> {
  const docs = readFileSync(new URL("../../../docs/diff.md", import.meta.url), "utf8");
  const start = docs.indexOf("\n## Change kinds\n");
  const section = docs.slice(start, docs.indexOf("\n## ", start + 1));
  const byFamily: Record<string, string[]> = {};
  for (const part of section.split("\n### ").slice(1)) {
    const [heading = "", ...rows] = part.split("\n");
    const family = HEADINGS[heading] ?? `unknown heading ${heading}`;
    const kinds = rows
      .filter((row) => row.startsWith("| `"))
      .flatMap((row) => [...(row.split("|")[1] ?? "").matchAll(/`([a-z-]+)`/g)].map((m) => m[1] as string));
    byFamily[family] = [...(byFamily[family] ?? []), ...kinds];
  }
  return byFamily;
}

it("every family lists exactly the kinds docs/diff.md documents under it", () => {
  const docs = documented();
  const sorted = (kinds: readonly string[]) => [...kinds].sort();
  expect(Object.keys(docs)).toEqual(Object.keys(CHANGE_KINDS));
  for (const [family, kinds] of Object.entries(CHANGE_KINDS)) {
    expect(sorted(kinds), family).toEqual(sorted(docs[family] ?? []));
  }
});

it("only the annotation kinds are annotations", () => {
  for (const [family, kinds] of Object.entries(CHANGE_KINDS)) {
    for (const kind of kinds) expect(isAnnotationKind(kind), kind).toBe(family === "annotation");
  }
  expect(CHANGE_KINDS.annotation).toContain("equivalent-rewrite");
});
