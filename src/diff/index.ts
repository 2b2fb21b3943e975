import { arrays } from "./arrays.js";
import { combinators } from "./combinators.js";
import { isObject, type Loc } from "./document.js";
import { Engine } from "./compare.js";
import { Deadline, NO_DEADLINE, OutOfTime } from "./deadline.js";
import { mk, worst, type Family } from "./family.js";
import { logic } from "./logic.js";
import { members } from "./members.js";
import { numbers } from "./numbers.js";
import { objects } from "./objects.js";
import { annotations, enums, typeKeyword } from "./scalars.js";
import { strings } from "./strings.js";
import type { Bump, Change, Compatibility, DiffOptions, DiffResult, Policy, Verdict } from "./vocabulary.js";
import { deepEqual } from "./values.js";
import { engineSide, loadSides } from "./sides.js";
import { Generator } from "./witness/generate.js";
import { prove, type Direction } from "./witness/prove.js";

export type { Dialect } from "./dialect.js";
export { DEFAULT_DIALECT, dialectOf, DIALECTS } from "./dialect.js";
export { CHANGE_KINDS, isAnnotationKind, type ChangeFamily, type ChangeKind } from "./kinds.js";
export type * from "./vocabulary.js";

const FAMILIES: readonly Family[] = [
  annotations,
  typeKeyword,
  enums,
  numbers,
  strings,
  arrays,
  objects,
  members,
  combinators,
  logic,
];

function rootChanges(oldSchema: unknown, newSchema: unknown, oldRoot: Loc, newRoot: Loc): Change[] {
  const out: Change[] = [];
  const field = (schema: unknown, key: string): unknown => (isObject(schema) ? schema[key] : undefined);
  // draft-04 names it `id`; the path points at NEW's keyword, or at OLD's when only OLD has one.
  const idKey = (root: Loc): string => (root.doc.dialect === "draft-04" ? "id" : "$id");
  const oldId = field(oldSchema, idKey(oldRoot));
  const newId = field(newSchema, idKey(newRoot));
  if (!deepEqual(oldId, newId)) {
    const reason = `$id ${JSON.stringify(oldId ?? null)} -> ${JSON.stringify(newId ?? null)}`;
    out.push(mk("id-changed", `/${idKey(newId === undefined ? oldRoot : newRoot)}`, "ok", "ok", reason));
  }
  const oldDeclared = field(oldSchema, "$schema");
  const newDeclared = field(newSchema, "$schema");
  if (!deepEqual(oldDeclared, newDeclared)) {
    const dialects = `${oldRoot.doc.dialect} -> ${newRoot.doc.dialect}`;
    const reason = `dialect ${dialects}; each side is read under its own`;
    out.push(mk("dialect-changed", "/$schema", "ok", "ok", reason));
  }
  return out;
}

function dedupe(changes: readonly Change[]): Change[] {
  const seen = new Set<string>();
  return changes.filter((c) => {
    const key = `${c.kind}\u0000${c.path}\u0000${c.backward}\u0000${c.forward}\u0000${c.reason}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function notOk(change: Change | undefined): boolean {
  return change !== undefined && (change.backward !== "ok" || change.forward !== "ok");
}

/** Pairs each change with its counterpart in the other policy's run to say which policy objects to it. */
function withPolicies(
  chosen: readonly Change[],
  strict: readonly Change[],
  lenient: readonly Change[],
): Change[] {
  const index = (changes: readonly Change[]) => {
    const map = new Map<string, Change[]>();
    for (const c of changes) {
      const key = `${c.kind}\u0000${c.path}`;
      map.set(key, [...(map.get(key) ?? []), c]);
    }
    return map;
  };
  const strictIndex = index(strict);
  const lenientIndex = index(lenient);
  const seen = new Map<string, number>();
  return chosen.map((c) => {
    const key = `${c.kind}\u0000${c.path}`;
    const nth = seen.get(key) ?? 0;
    seen.set(key, nth + 1);
    const inStrict = strictIndex.get(key)?.[nth] ?? c;
    const inLenient = lenientIndex.get(key)?.[nth] ?? c;
    const breaksUnder = notOk(inLenient) ? "both" : notOk(inStrict) ? "strict" : undefined;
    return breaksUnder ? { ...c, breaksUnder } : c;
  });
}

function compatibilityOf(backward: Verdict, forward: Verdict): Compatibility {
  if (backward === "ok") return forward === "ok" ? "FULL" : "BACKWARD";
  return forward === "ok" ? "FORWARD" : "NONE";
}

/**
 * Classifies every difference between two versions of a JSON Schema, in both directions, without
 * documents. Backward breaks: a document valid under OLD can fail NEW; forward breaks: a document valid
 * under NEW can fail OLD. `undecided` never counts as compatible and forces a major bump.
 *
 * Throws a SchemawatchError (SCHEMA_INVALID) for an unsupported `$schema` or a `$ref` that resolves to
 * nothing.
 */
export function diffSchemas(oldInput: unknown, newInput: unknown, options: DiffOptions = {}): DiffResult {
  const policy: Policy = options.policy ?? "strict";
  // The budget counts from here: reading and compiling both versions is part of the pair's time.
  const budget = options.budget;
  const deadline = budget === undefined ? NO_DEADLINE : new Deadline(budget);
  const loaded = loadSides(oldInput, newInput, options);
  const { model, compiler } = loaded;
  const oldRoot = loaded.old.root;
  const newRoot = loaded.new.root;
  const head = rootChanges(loaded.old.schema, loaded.new.schema, oldRoot, newRoot);
  const run = (p: Policy): Change[] => {
    const changes = dedupe([
      ...head,
      ...new Engine(model, FAMILIES, deadline).compare(oldRoot, newRoot, { policy: p }),
    ]);
    if (changes.length === 0 && !deepEqual(loaded.old.schema, loaded.new.schema)) {
      changes.push(
        mk("equivalent-rewrite", "", "ok", "ok", "the documents differ but accept the same instances"),
      );
    }
    return changes;
  };
  const ranOut = new Set<Direction>();
  let strict: Change[];
  let changes: Change[];
  try {
    // Stryker disable next-line StringLiteral: a policy other than lenient is read as strict
    strict = run("strict");
    const lenient = run("lenient");
    changes = withPolicies(policy === "strict" ? strict : lenient, strict, lenient);
  } catch (error) {
    if (!(error instanceof OutOfTime)) throw error;
    strict = changes = [...head, unfinished(error.seconds)];
    ranOut.add("backward").add("forward");
  }
  if (
    options.witnesses !== false &&
    ranOut.size === 0 &&
    changes.some((c) => c.backward !== "ok" || c.forward !== "ok")
  ) {
    const context = {
      model,
      compiler,
      old: engineSide(loaded.old, compiler),
      new: engineSide(loaded.new, compiler),
      deadline,
    };
    changes = prove(changes, context, ranOut);
  }
  changes = changes.map(({ site: _site, ...change }) => change);
  const backward = worst(changes.map((c) => c.backward));
  const forward = worst(changes.map((c) => c.forward));
  let bump: Bump;
  if (changes.length === 0) bump = "none";
  else if (strict.every((c) => c.backward === "ok" && c.forward === "ok")) bump = "patch";
  else bump = backward === "ok" ? "minor" : "major";
  const result = {
    policy,
    compatibility: compatibilityOf(backward, forward),
    backward,
    forward,
    bump,
    changes,
  };
  if (budget === undefined || ranOut.size === 0) return result;
  const directions = (["backward", "forward"] as const).filter((d) => ranOut.has(d));
  return { ...result, budget: { seconds: budget, directions } };
}

/** The change that stands for a structural comparison the budget cut short: nothing is known. */
function unfinished(seconds: number): Change {
  const reason = `undecided: budget (the ${seconds} s time budget ran out before the comparison ended)`;
  return mk("comparison-unfinished", "", "undecided", "undecided", reason);
}

/**
 * The documents `diff` searches for witnesses, unfiltered: generated from OLD toward NEW's edges
 * (`fromOld`) and from NEW toward OLD's (`fromNew`). Tests use them to look for counterexamples to
 * an `ok`; they are candidates, valid or not under either version.
 */
export function candidateDocuments(
  oldInput: unknown,
  newInput: unknown,
  options: DiffOptions = {},
): { fromOld: unknown[]; fromNew: unknown[] } {
  const loaded = loadSides(oldInput, newInput, options);
  const generator = new Generator(loaded.model);
  return {
    fromOld: generator.documents(loaded.old.root, loaded.new.root),
    fromNew: generator.documents(loaded.new.root, loaded.old.root),
  };
}
