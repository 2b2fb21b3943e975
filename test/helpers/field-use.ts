import type { FieldUse } from "../../src/lifecycle/field-evidence.js";

/**
 * One producer's use of a field as the field evidence keeps it: billing on writer 1.1.0, never seen
 * with the field or without it, no buckets; `over` sets what a test needs.
 */
export const fieldUse = (over: Partial<FieldUse>): FieldUse => ({
  producer: "billing",
  writer: "1.1.0",
  lastPresentAt: 0,
  lastAbsentAt: 0,
  lastUnknownAt: 0,
  presentSinceMissing: 0,
  buckets: [],
  ...over,
});
