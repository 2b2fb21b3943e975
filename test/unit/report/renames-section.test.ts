import { describe, expect, it } from "vitest";
import type { RenameProgress } from "../../../src/fields/rename-progress.js";
import type { FieldVerdict } from "../../../src/lifecycle/field-verdicts.js";
import { fieldsSection } from "../../../src/report/fields-section.js";
import { renameBlocks, renameRole } from "../../../src/report/renames-section.js";
import { emptySubject } from "../../helpers/report.js";

const counts = (old: number, both: number, neu: number) => ({ old, both, new: neu, neither: 0, unknown: 1 });

const rename: RenameProgress = {
  field: "/amount",
  replacement: "/total",
  window: "7d",
  producers: [
    {
      producer: "billing",
      records: counts(12, 88, 0),
      writers: { "1.1.0": counts(12, 88, 0) },
      step: "add",
      words: "sends /amount without /total: add /total and send both (step 1)",
      lastReplaced: "2026-12-01T08:00:00.000Z",
    },
    {
      producer: "web",
      records: counts(0, 0, 50),
      writers: { "1.1.0": counts(0, 0, 50) },
      step: "done",
      words: "sends /total only: done; /amount can be removed once drained",
      lastReplaced: null,
    },
  ],
};

const verdict = (field: string, fieldKind: FieldVerdict["fieldKind"]): FieldVerdict => ({
  kind: fieldKind === "deprecated" ? "drained" : "ready",
  yes: false,
  reasons: [],
  evidence: { window: "7d" },
  field,
  fieldKind,
  version: "1.1.0",
  producers: [],
});

describe("a rename in the report", () => {
  it("is a table per rename: each producer's records per form and its step, toned by how far it is", () => {
    expect(renameBlocks([rename])).toEqual([
      {
        kind: "text",
        text: "/total replaces /amount: each producer's records since the state began, and its step from the last 7d",
      },
      {
        kind: "table",
        columns: [
          { title: "producer" },
          { title: "/amount only", numeric: true },
          { title: "both", numeric: true },
          { title: "/total only", numeric: true },
          { title: "neither", numeric: true },
          { title: "unreadable", numeric: true },
          { title: "step" },
        ],
        rows: [
          ["billing", "12", "88", "0", "0", "1", { text: rename.producers[0]!.words, tone: "warn" }],
          ["web", "0", "0", "50", "0", "1", { text: rename.producers[1]!.words, tone: "good" }],
        ],
        empty: "no records yet",
      },
    ]);
  });

  it("names each field's part in the fields table", () => {
    expect([
      renameRole([rename], "/amount"),
      renameRole([rename], "/total"),
      renameRole([rename], "/x"),
    ]).toEqual(["replaced by /total", "replaces /amount", undefined]);
    const section = fieldsSection(
      emptySubject("pay", {
        fields: [
          verdict("/amount", "deprecated"),
          verdict("/total", "optional"),
          verdict("/note", "optional"),
        ],
        renames: [rename],
      }),
      "subject-pay",
    )!;
    const table = section.blocks[0] as unknown as { rows: unknown[][] };
    expect(table.rows.map((row) => row[1])).toEqual([
      "replaced by /total, deprecated in 1.1.0",
      "replaces /amount, optional in 1.1.0",
      "optional in 1.1.0",
    ]);
    expect(section.blocks[1]).toEqual(renameBlocks([rename])[0]);
  });
});
