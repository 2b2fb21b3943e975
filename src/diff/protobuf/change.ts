import type { Bump, Compatibility, Verdict } from "../vocabulary.js";
import type { ProtoWitness } from "./witness.js";

/** What changed between two Protobuf versions, named after Confluent's `Difference.Type` where one fits. */
export type ProtoChangeKind =
  | "package-changed"
  | "message-added"
  | "message-removed"
  | "field-added"
  | "field-removed"
  | "required-field-added"
  | "required-field-removed"
  | "field-renamed"
  | "field-type-changed"
  | "field-label-changed"
  | "default-changed"
  | "fields-moved-into-oneof"
  | "oneof-added"
  | "oneof-removed"
  | "enum-added"
  | "enum-removed"
  | "enum-value-added"
  | "enum-value-removed"
  | "enum-value-renamed"
  | "enum-value-renumbered"
  | "schema-changed";

/**
 * One change, judged in both directions by reading records: `backward` is a NEW reader on records
 * OLD wrote, `forward` an OLD reader on NEW's records. `breaks` when some record is misread or fails
 * (the witness is that record); a reader that only drops or defaults data (`lossy`) is `ok`, and
 * the reason says what it loses.
 */
export interface ProtoChange {
  readonly kind: ProtoChangeKind;
  /** `pkg.Message`, `pkg.Message.field(#n)`, or `pkg.Enum.VALUE(=n)`, in NEW where it is, else in OLD. */
  readonly path: string;
  readonly backward: Verdict;
  readonly forward: Verdict;
  readonly reason: string;
  readonly witness?: { readonly backward?: ProtoWitness; readonly forward?: ProtoWitness };
}

export interface ProtoDiffResult {
  readonly compatibility: Compatibility;
  readonly backward: Verdict;
  readonly forward: Verdict;
  readonly bump: Bump;
  readonly changes: readonly ProtoChange[];
}

/** A change no record needs to show: ok both ways, the reason says what it is. */
export const plain = (kind: ProtoChangeKind, path: string, reason: string): ProtoChange => ({
  kind,
  path,
  backward: "ok",
  forward: "ok",
  reason,
});
