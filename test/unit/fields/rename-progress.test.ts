import { describe, expect, it } from "vitest";
import { renameProgress, renamesBySubject } from "../../../src/fields/rename-progress.js";
import type { FieldOfInterest } from "../../../src/fields/interest.js";
import type { FieldRow, SubjectFieldsView } from "../../../src/fields/tallies.js";

// A rename's progress from tallies written by hand: two pairs (so the second pair's counts are read
// from their own slots), a producer over two rows, a writer version without records of a pair, and
// the step read at the window's first millisecond.

const T = Date.parse("2026-12-01T08:00:00Z");
const S = 1000;
const field = (pointer: string): FieldOfInterest =>
  ({ pointer, key: pointer.slice(1), deprecatedIn: [], optionalIn: undefined }) as FieldOfInterest;

/** A row with the counts and last times of pair 0 then pair 1 (five forms each). */
const row = (producer: string, writer: string, renames: number[], renameLastAt: number[]): FieldRow => ({
  labels: { subject: "pay", producer, writer_version: writer },
  checked: 0,
  present: [],
  absent: [],
  unknown: [],
  lastPresentAt: [],
  lastAbsentAt: [],
  lastUnknownAt: [],
  renames,
  renameLastAt,
});

const view: SubjectFieldsView = {
  subject: "pay",
  fields: [field("/amount"), field("/total"), field("/cost"), field("/price")],
  overflow: 0,
  unresolvedRefs: [],
  truncated: false,
  // /total replaces /amount; /cost replaces /price (the replacement listed first).
  pairs: [
    { replaced: 0, replacement: 1 },
    { replaced: 3, replacement: 2 },
  ],
  rows: [
    row("web", "1.1.0", [0, 0, 5, 0, 0, 2, 0, 0, 0, 0], [0, 0, T + 10 * S, 0, 0, T + 20 * S, 0, 0, 0, 0]),
    row("web", "1.0.0", [0, 0, 0, 0, 0, 0, 1, 0, 0, 0], [0, 0, 0, 0, 0, 0, T + 5 * S, 0, 0, 0]),
    row("billing", "1.1.0", [1, 1, 0, 0, 0, 0, 0, 0, 0, 0], [T + S, T + 30 * S, 0, 0, 0, 0, 0, 0, 0, 0]),
    row("app", "1.1.0", [0, 0, 0, 0, 0, 0, 0, 1, 0, 0], [0, 0, 0, 0, 0, 0, 0, T + 40 * S, 0, 0]),
  ],
};
const counts = (old: number, both: number, neu: number) => ({ old, both, new: neu, neither: 0, unknown: 0 });

describe("renameProgress", () => {
  it("reads each pair from its own counts, a producer over its rows, by name; a writer without records of the pair is left out", () => {
    const [first, second] = renameProgress(view, T + 40 * S, 60);
    expect(first).toEqual({
      field: "/amount",
      replacement: "/total",
      window: "1m",
      producers: [
        {
          producer: "billing",
          records: counts(1, 1, 0),
          writers: { "1.1.0": counts(1, 1, 0) },
          step: "add",
          words: "sends /amount without /total: add /total and send both (step 1)",
          lastReplaced: "2026-12-01T08:00:30.000Z",
        },
        {
          producer: "web",
          records: counts(0, 0, 5),
          writers: { "1.1.0": counts(0, 0, 5) },
          step: "done",
          words: "sends /total only: done; /amount can be removed once drained",
          lastReplaced: null,
        },
      ],
    });
    expect(second!.field).toBe("/price");
    expect(
      second!.producers.map((p) => [p.producer, p.records, Object.keys(p.writers), p.step, p.lastReplaced]),
    ).toEqual([
      ["app", counts(0, 0, 1), ["1.1.0"], "done", null],
      ["web", counts(2, 1, 0), ["1.1.0", "1.0.0"], "add", "2026-12-01T08:00:20.000Z"],
    ]);
  });

  it("takes a record dated at the window's first millisecond (the window and one tick of the clock)", () => {
    // billing's last record with both fields was at T + 30 s; the window is 60 s.
    const step = (now: number) => renameProgress(view, now, 60)[0]!.producers[0]!.step;
    expect(step(T + 91 * S)).toBe("switch");
    expect(step(T + 91 * S + 1)).toBe("quiet");
  });
});

describe("renamesBySubject", () => {
  it("reads each subject with a rename over its own window, and leaves out a subject without one", () => {
    const other: SubjectFieldsView = { ...view, subject: "orders", pairs: [] };
    const windows: string[] = [];
    const renames = renamesBySubject([view, other], T + 40 * S, (subject) => {
      windows.push(subject);
      return 3600;
    });
    expect([...renames.keys()]).toEqual(["pay"]);
    expect(windows).toEqual(["pay"]);
    expect(renames.get("pay")!.map((r) => [r.field, r.window])).toEqual([
      ["/amount", "1h"],
      ["/price", "1h"],
    ]);
  });
});
