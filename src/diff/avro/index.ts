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
  return { compatibility, backward, forward };
}
