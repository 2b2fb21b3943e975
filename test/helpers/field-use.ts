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

/**
 * A tallies row of two fields as the field tallies keep it: cumulative counts per field and the last
 * times, at zero, for tests to mutate as traffic goes.
 */
export function tallyRow(producer: string, writer = "1.1.0") {
  return {
    labels: { producer, writer_version: writer },
    present: [0, 0],
    absent: [0, 0],
    unknown: [0, 0],
    lastPresentAt: [0, 0],
    lastAbsentAt: [0, 0],
    lastUnknownAt: [0, 0],
  };
}
