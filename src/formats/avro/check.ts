import type { ReaderCheck } from "../format.js";
import type { AvroValue } from "./decode.js";
import { planOf, R, type Plan, type Rule } from "./resolve.js";
import { Kind, type Node } from "./schema.js";

/**
 * A reader's check of one decoded record: its (writer, reader) plan read along the record's trace,
 * the first failure winning over the first loss.
 */

// What one check found: the first failure, else the first loss; the path to where it is.
let failed: Rule | null = null;
let lost: Rule | null = null;
let lostAt = "";
let failedAt = "";
const path: string[] = [];

/**
 * The JSON Pointer of where the check is. Its segments need no escaping: Avro names are
 * `[A-Za-z_][A-Za-z0-9_]*`, array places are numbers and a map's is `*`.
 */
function here(last?: string): string {
  let out = "";
  for (let i = 0; i < path.length; i++) out += "/" + path[i]!;
  return last === undefined ? out : out + "/" + last;
}

function lose(rule: Rule, last?: string): void {
  if (lost !== null) return;
  lost = rule;
  lostAt = here(last);
}

/** Whether the reader reads the value, into `out` (formats/format.ts `ReaderCheck`). */
export function checkAvro(reader: Node, value: AvroValue, out: ReaderCheck): void {
  const plan = planOf(value.writer.root, reader);
  // Stryker disable next-line ConditionalExpression,BlockStatement: a shortcut; a safe plan's run finds nothing
  if (plan.safe) {
    out.outcome = "ok";
    out.rule = null;
    out.location = null;
    return;
  }
  failed = null;
  lost = null;
  path.length = 0;
  run(plan, value.trace, 0);
  if (failed !== null) {
    out.outcome = "fails";
    out.rule = failed;
    out.location = failedAt;
  } else if (lost !== null) {
    out.outcome = "lossy";
    out.rule = lost;
    out.location = lostAt;
  } else {
    out.outcome = "ok";
    out.rule = null;
    out.location = null;
  }
  path.length = 0;
}

/** Reads the trace from `i` along the plan; the index after it, or -1 once something failed. */
function run(plan: Plan, trace: Int32Array, i: number): number {
  // Stryker disable next-line ConditionalExpression: a shortcut; a safe plan's rules find nothing
  if (plan.safe) return skip(plan.writer, trace, i);
  switch (plan.kind) {
    // Stryker disable next-line all: an Ok plan is of a writer without trace, so safe and read above; kept for any other
    case R.Ok:
      return skip(plan.writer, trace, i);
    case R.Fail:
      failed = plan.rule;
      failedAt = here(plan.at === "" ? undefined : plan.at);
      return -1;
    case R.Enum: {
      const outcome = plan.symbols[trace[i]!];
      if (outcome === 2) {
        failed = "enum_symbol";
        failedAt = here();
        return -1;
      }
      if (outcome === 1) lose("enum_defaulted");
      return i + 1;
    }
    case R.WriterUnion: {
      const next = trace[i + 1]!;
      // Stryker disable next-line EqualityOperator: run returns -1 or an index past this one, never 0
      return run(plan.branches[trace[i]!]!, trace, i + 2) < 0 ? -1 : next;
    }
    case R.List: {
      const count = trace[i]!;
      const next = trace[i + 1]!;
      const items = plan.items!;
      // Stryker disable next-line ConditionalExpression: a shortcut; safe items find nothing
      if (items.safe) return next;
      const isMap = plan.writer.kind === Kind.Map;
      i += 2;
      for (let k = 0; k < count; k++) {
        // A map's keys are data: its place is `*`.
        path.push(isMap ? "*" : String(k));
        i = run(items, trace, i);
        path.pop();
        // Stryker disable next-line EqualityOperator: run returns -1 or an index past this one, never 0
        if (i < 0) return -1;
      }
      return next;
    }
    case R.Record: {
      for (const field of plan.fields) {
        if (field.plan === undefined) {
          lose("field_dropped", field.name);
          i = skip(field.writer, trace, i);
          continue;
        }
        path.push(field.name);
        i = run(field.plan, trace, i);
        path.pop();
        if (i < 0) return -1;
      }
      if (plan.at !== "") lose("field_defaulted", plan.at);
      return i;
    }
  }
  return i;
}

/** The trace index after a writer value that the plan need not read. */
function skip(node: Node, trace: Int32Array, i: number): number {
  if (!node.traced) return i;
  switch (node.kind) {
    case Kind.Record:
      for (const field of node.fields) i = skip(field.node, trace, i);
      return i;
    case Kind.Enum:
      return i + 1;
    default:
      return trace[i + 1]!;
  }
}
