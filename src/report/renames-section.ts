import type { RenameProgress } from "../fields/rename-progress.js";
import type { RenameStep } from "../fields/rename.js";
import type { Block, Cell, Tone } from "./document.js";

const TONES: Record<RenameStep, Tone> = {
  add: "warn",
  switch: "warn",
  done: "good",
  neither: "muted",
  quiet: "muted",
};

/**
 * Each rename's progress (config `fields.replaces`) as one table per rename: per producer, its
 * records with the old field only, both, the new one only, neither, or unreadable (since the state
 * began: across restarts and replicas when a state file or topic keeps it), and the step of the
 * expand-and-contract procedure it is at, in words.
 */
export function renameBlocks(renames: readonly RenameProgress[]): Block[] {
  return renames.flatMap((r): Block[] => [
    {
      kind: "text",
      text: `${r.replacement} replaces ${r.field}: each producer's records since the state began, and its step from the last ${r.window}`,
    },
    {
      kind: "table",
      columns: [
        { title: "producer" },
        { title: `${r.field} only`, numeric: true },
        { title: "both", numeric: true },
        { title: `${r.replacement} only`, numeric: true },
        { title: "neither", numeric: true },
        { title: "unreadable", numeric: true },
        { title: "step" },
      ],
      rows: r.producers.map((p): Cell[] => [
        p.producer,
        String(p.records.old),
        String(p.records.both),
        String(p.records.new),
        String(p.records.neither),
        String(p.records.unknown),
        { text: p.words, tone: TONES[p.step] },
      ]),
      empty: "no records yet",
    },
  ]);
}

/** What the fields table says of a field that is part of a rename; undefined for another field. */
export function renameRole(
  renames: readonly RenameProgress[] | undefined,
  field: string,
): string | undefined {
  for (const r of renames ?? []) {
    if (r.field === field) return `replaced by ${r.replacement}`;
    if (r.replacement === field) return `replaces ${r.field}`;
  }
  return undefined;
}
