import type { Validator } from "../../catalog/compiler.js";
import { NO_DEADLINE, OutOfTime } from "../deadline.js";
import { mk, worst } from "../family.js";
import type { Change, Verdict, Witnesses } from "../vocabulary.js";
import { Generator } from "./generate.js";
import type { ProofContext } from "./proof-context.js";
import { variantsOf } from "./surgery.js";
import { targetedDocuments } from "./targeted.js";

export type Direction = "backward" | "forward";

/**
 * Gives every change that is not `ok` its proof, or takes its `breaks` away. Candidate documents are
 * generated from the accepting version toward the other one's edges, and kept when the engine accepts
 * them under one version and rejects them under the other. A change gets a witness when, in addition,
 * the rejecting version with that change undone (its keyword at the change's place set back to the
 * other version's) accepts it: the change is what rejects the document. Then `breaks` stands (and an
 * `undecided` becomes `breaks`); without one, `breaks` becomes `undecided`.
 */
export function prove(
  changes: readonly Change[],
  context: ProofContext,
  ranOut: Set<Direction> = new Set(),
): Change[] {
  const deadline = context.deadline ?? NO_DEADLINE;
  const pools = new Map<Direction, unknown[]>();
  const variants = new Map<string, Validator | undefined>();
  const generators = new Map<Direction, Generator>();
  const poolOf = (direction: Direction): unknown[] => {
    let pool = pools.get(direction);
    // Stryker disable next-line ConditionalExpression: a pool generated again is the same pool (generation is deterministic)
    if (!pool) pools.set(direction, (pool = generatePool(context, direction)));
    return pool;
  };
  const out: Change[] = [];
  // Every document found in the targeted search, per direction: proof of a break even when no one
  // change alone is what rejects it.
  const proven = new Map<Direction, unknown[]>();
  for (const change of changes) {
    let result = change;
    for (const direction of ["backward", "forward"] as const) {
      if (change[direction] === "ok") continue;
      try {
        deadline.check();
        const pool = poolOf(direction);
        let witness: unknown;
        // Stryker disable next-line ConditionalExpression,EqualityOperator,ArrayDeclaration: no variant finds a witness in an empty pool; the check only saves compiling them
        for (const variant of pool.length > 0 ? variantsOf(change, direction, context, variants) : []) {
          witness = pool.find((document) => {
            deadline.check();
            return safely(variant, document);
          });
          if (witness !== undefined) break;
          deadline.check();
        }
        // None in the document-wide pool: documents built for this change, where it is.
        const targeted = witness === undefined ? targetedPool(change, direction, context, generators) : [];
        proven.set(direction, [...(proven.get(direction) ?? []), ...targeted.slice(0, 1)]);
        for (const variant of targeted.length > 0 ? variantsOf(change, direction, context, variants) : []) {
          witness = targeted.find((document) => {
            deadline.check();
            return safely(variant, document);
          });
          if (witness !== undefined) break;
        }
        result = settle(result, direction, witness, pool.length + targeted.length > 0);
      } catch (error) {
        if (!(error instanceof OutOfTime)) throw error;
        ranOut.add(direction);
        result = outOfTime(result, direction, error.seconds);
      }
    }
    out.push(result);
  }
  for (const direction of ["backward", "forward"] as const) {
    if (ranOut.has(direction) || worst(out.map((c) => c[direction])) !== "undecided") continue;
    const documents = [...(pools.get(direction) ?? []).slice(0, 1), ...(proven.get(direction) ?? [])];
    const size = (d: unknown) => JSON.stringify(d).length;
    const [witness] = documents.sort((a, b) => size(a) - size(b));
    if (witness !== undefined) out.push(combined(out, direction, witness));
  }
  return out;
}

/**
 * A document the engine accepts under one version and rejects under the other proves the direction
 * broken, even when undoing any one change alone still rejects it (a property that became required
 * where another was closed off: each change rejects the document on its own). The undecided changes
 * keep their verdicts; this one carries the proof, at the deepest place they share.
 */
export function combined(changes: readonly Change[], direction: Direction, witness: unknown): Change {
  const open = changes.filter((c) => c[direction] === "undecided");
  const paths = open.map((c) => c.path.split("/"));
  const shared: string[] = [];
  for (let i = 0; paths.every((p) => p.length > i + 1 && p[i] === paths[0]?.[i]); i++)
    shared.push(paths[0]?.[i] ?? "");
  const path = shared.join("/");
  const [accepts, rejects] = direction === "backward" ? ["OLD", "NEW"] : ["NEW", "OLD"];
  const reason =
    `a document ${accepts} accepts and ${rejects} rejects, though no one change alone is shown to reject it ` +
    `(${open.map((c) => `${c.kind} at ${c.path || "/"}`).join(", ")}); a witness proves ${direction} breaks`;
  const change = mk("changes-combined", path, "ok", "ok", reason);
  return { ...change, [direction]: "breaks", witness: { [direction]: witness } };
}

/**
 * The search for this direction's witness did not end within the budget: a structural `breaks`
 * without its witness is `undecided`, like one whose search found none, and the reason says why.
 */
export function outOfTime(change: Change, direction: Direction, seconds: number): Change {
  return {
    ...change,
    [direction]: "undecided",
    reason: `${change.reason}; ${direction} undecided: budget (the ${seconds} s time budget ran out before a witness was found)`,
  };
}

function settle(change: Change, direction: Direction, witness: unknown, anyWitness: boolean): Change {
  const was: Verdict = change[direction];
  if (witness !== undefined) {
    const witnesses: Witnesses = { ...change.witness, [direction]: witness };
    const reason =
      was === "breaks" ? change.reason : `${change.reason}; a witness proves ${direction} breaks`;
    return { ...change, [direction]: "breaks", witness: witnesses, reason };
  }
  if (was !== "breaks") return change;
  const why = anyWitness
    ? "no generated document that breaks is rejected because of this change"
    : `no generated document breaks ${direction}`;
  return { ...change, [direction]: "undecided", reason: `${change.reason}; no witness found (${why})` };
}

/**
 * The documents built for one change (targeted.ts), kept when the engine accepts them under the
 * accepting version and rejects them under the other, smallest first.
 */
function targetedPool(
  change: Change,
  direction: Direction,
  context: ProofContext,
  generators: Map<Direction, Generator>,
): unknown[] {
  const site = change.site;
  if (!site) return [];
  const deadline = context.deadline ?? NO_DEADLINE;
  const [accept, reject] = direction === "backward" ? [context.old, context.new] : [context.new, context.old];
  let generator = generators.get(direction);
  if (!generator) generators.set(direction, (generator = new Generator(context.model, deadline)));
  const sites =
    direction === "backward"
      ? { accept: site.old, reject: site.new }
      : { accept: site.new, reject: site.old };
  const accepts = (d: unknown) => {
    deadline.check();
    return safely(accept.validate, d);
  };
  const documents = targetedDocuments(context.model, generator, accept.root, sites, accepts, reject.root);
  const found = documents.filter((d) => {
    deadline.check();
    return safely(accept.validate, d) && !safely(reject.validate, d);
  });
  const size = (d: unknown) => JSON.stringify(d).length;
  return found.sort((a, b) => size(a) - size(b));
}

function generatePool(context: ProofContext, direction: Direction): unknown[] {
  const [accept, reject] = direction === "backward" ? [context.old, context.new] : [context.new, context.old];
  const deadline = context.deadline ?? NO_DEADLINE;
  const generator = new Generator(context.model, deadline);
  const documents = generator.documents(accept.root, reject.root);
  const found = documents.filter((d) => {
    deadline.check();
    return safely(accept.validate, d) && !safely(reject.validate, d);
  });
  const size = (d: unknown) => JSON.stringify(d).length;
  return found.sort((a, b) => size(a) - size(b));
}

function safely(validate: Validator, document: unknown): boolean {
  let accepted = false;
  try {
    accepted = validate(document);
  } catch {
    // A validator that throws rejects the document.
  }
  return accepted;
}
