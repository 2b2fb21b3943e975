import { compareVersions, type Version } from "../catalog/version.js";

/**
 * For a record with writer W checked against reader R: R newer than W is backward (old producer,
 * upgraded consumer); R older than W is forward (new producer, old consumer); R equal to W is
 * conformance; no declared W is undeclared.
 */
export type Direction = "backward" | "forward" | "conformance" | "undeclared";

export const DIRECTIONS: readonly Direction[] = ["backward", "forward", "conformance", "undeclared"];

export function directionOf(writer: Version | undefined, reader: Version): Direction {
  if (!writer) return "undeclared";
  const order = compareVersions(reader, writer);
  return order > 0 ? "backward" : order < 0 ? "forward" : "conformance";
}
