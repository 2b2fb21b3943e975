import { planOf, R, type Plan } from "../../formats/avro/resolve.js";
import { findBreak } from "../../formats/avro/witness.js";
import type { AvroSchema } from "../../formats/avro/schema.js";
import type { Compatibility } from "../vocabulary.js";

/** One direction of an Avro pair: `ok`, or `breaks` with the rule, where, and a record that shows it. */
export interface AvroDirection {
  readonly verdict: "ok" | "breaks";
  readonly rule?: string;
  readonly location?: string;
  /** A record written with the writer's schema that the reader cannot read (avsc's form: unions wrapped). */
  readonly witness?: unknown;
}

export interface AvroDiffResult {
  readonly compatibility: Compatibility;
  /** Can NEW read every record OLD writes? */
  readonly backward: AvroDirection;
  /** Can OLD read every record NEW writes? */
  readonly forward: AvroDirection;
  /**
   * Each side reads every record the other writes whole: no field dropped or filled from its default,
   * no enum symbol read as the default, nothing failing. What a patch release may change (the
   * article's numbering: no change in what is valid): docs, field order, aliases that name the same.
   */
  readonly whole: boolean;
}

function direction(writer: AvroSchema, reader: AvroSchema): AvroDirection {
  const found = findBreak(writer.root, reader.root);
  return found
    ? { verdict: "breaks", rule: found.rule, location: found.location, witness: found.witness }
    : { verdict: "ok" };
}

/**
 * An Avro pair classified by Avro's own schema resolution, both ways (the monitor's plans,
 * formats/avro/resolve.ts): a direction breaks when some record the writer can write fails the reader,
 * and says one. A reader that only drops or defaults data reads every record: `ok`, as Java's
 * SchemaCompatibility says.
 */
export function diffAvro(old: AvroSchema, next: AvroSchema): AvroDiffResult {
  const backward = direction(old, next);
  const forward = direction(next, old);
  const compatibility: Compatibility =
    backward.verdict === "ok"
      ? forward.verdict === "ok"
        ? "FULL"
        : "BACKWARD"
      : forward.verdict === "ok"
        ? "FORWARD"
        : "NONE";
  const whole =
    wholly(planOf(old.root, next.root), new Set()) && wholly(planOf(next.root, old.root), new Set());
  return { compatibility, backward, forward, whole };
}

/**
 * Whether a plan reads every value of its writer whole (see `whole`). A plan already on the path (a
 * recursive record) counts as whole there: it is judged where it was first met.
 */
function wholly(plan: Plan, onPath: Set<Plan>): boolean {
  if (onPath.has(plan)) return true;
  onPath.add(plan);
  let result: boolean;
  switch (plan.kind) {
    case R.Ok:
      result = true;
      break;
    case R.Enum:
      result = plan.symbols.every((s) => s === 0);
      break;
    case R.List:
      result = plan.items !== undefined && wholly(plan.items, onPath);
      break;
    case R.WriterUnion:
      result = plan.branches.every((b) => wholly(b, onPath));
      break;
    case R.Record:
      // `at` names a reader field filled from its default; a field without a plan is dropped.
      result = plan.at === "" && plan.fields.every((f) => f.plan !== undefined && wholly(f.plan, onPath));
      break;
    default:
      result = false;
  }
  onPath.delete(plan);
  return result;
}
