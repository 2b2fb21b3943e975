import type { Validator } from "../../catalog/compiler.js";
import type { Change, Verdict, Witnesses } from "../vocabulary.js";
import { Generator } from "./generate.js";
import type { ProofContext } from "./proof-context.js";
import { variantsOf } from "./surgery.js";

type Direction = "backward" | "forward";

/**
 * Gives every change that is not `ok` its proof, or takes its `breaks` away. Candidate documents are
 * generated from the accepting version toward the other one's edges, and kept when the engine accepts
 * them under one version and rejects them under the other. A change gets a witness when, in addition,
 * the rejecting version with that change undone (its keyword at the change's place set back to the
 * other version's) accepts it: the change is what rejects the document. Then `breaks` stands (and an
 * `undecided` becomes `breaks`); without one, `breaks` becomes `undecided`.
 */
export function prove(changes: readonly Change[], context: ProofContext): Change[] {
  const pools = new Map<Direction, unknown[]>();
  const variants = new Map<string, Validator | undefined>();
  const poolOf = (direction: Direction): unknown[] => {
    let pool = pools.get(direction);
    // Stryker disable next-line ConditionalExpression: a pool generated again is the same pool (generation is deterministic)
    if (!pool) pools.set(direction, (pool = generatePool(context, direction)));
    return pool;
  };
  return changes.map((change) => {
    let result = change;
    for (const direction of ["backward", "forward"] as const) {
      if (change[direction] === "ok") continue;
      const pool = poolOf(direction);
      let witness: unknown;
      // Stryker disable next-line ConditionalExpression,EqualityOperator,ArrayDeclaration: no variant finds a witness in an empty pool; the check only saves compiling them
      for (const variant of pool.length > 0 ? variantsOf(change, direction, context, variants) : []) {
        witness = pool.find((document) => safely(variant, document));
        if (witness !== undefined) break;
      }
      result = settle(result, direction, witness, pool.length > 0);
    }
    return result;
  });
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

function generatePool(context: ProofContext, direction: Direction): unknown[] {
  const [accept, reject] = direction === "backward" ? [context.old, context.new] : [context.new, context.old];
  const generator = new Generator(context.model);
  const documents = generator.documents(accept.root, reject.root);
  const found = documents.filter((d) => safely(accept.validate, d) && !safely(reject.validate, d));
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
