import type { FieldVerdict } from "../lifecycle/field-verdicts.js";
import type { Block, Cell, Section } from "./document.js";
import { evidenceBlocks } from "./evidence.js";
import type { ReportSubject } from "./model.js";
import { renameBlocks, renameRole } from "./renames-section.js";

const majorOf = (version: string) => Number(/^(\d+)/.exec(version)?.[1] ?? "0");

/**
 * The release a field is removed or made required in: a candidate of a later major than every
 * released version (the next major being prepared), else the major after the newest version.
 */
export function nextMajor(
  versions: ReadonlyArray<{ readonly version: string; readonly status: string }>,
): string {
  const released = Math.max(
    0,
    ...versions.filter((v) => v.status !== "candidate").map((v) => majorOf(v.version)),
  );
  const candidate = versions.filter((v) => v.status === "candidate" && majorOf(v.version) > released).at(-1);
  return candidate?.version ?? `${Math.max(0, ...versions.map((v) => majorOf(v.version))) + 1}.0.0`;
}

/** What a field's verdict says, in a word or two. */
export function fieldVerdictText(v: FieldVerdict): string {
  if (v.fieldKind === "deprecated") return v.yes ? "drained" : "in use";
  return v.yes ? "ready to require" : "not yet sent by all";
}

const share = (part: number, whole: number) => (whole === 0 ? "0%" : `${((part / whole) * 100).toFixed(1)}%`);

/**
 * A subject's tracked fields: per field its verdict and, per producer, the share of its records over
 * the window that carried it (a deprecated field) or lacked it (an optional one), then each rename's
 * progress per producer, then the reasons.
 */
export function fieldsSection(s: ReportSubject, id: string): Section | undefined {
  const fields = s.fields ?? [];
  if (fields.length === 0) return undefined;
  const rows: Cell[][] = fields.map((v) => [
    { text: v.field, code: true },
    [
      renameRole(s.renames, v.field),
      v.fieldKind === "deprecated" ? `deprecated in ${v.version}` : `optional in ${v.version}`,
    ]
      .filter(Boolean)
      .join(", "),
    { text: fieldVerdictText(v), tone: v.yes ? "good" : "warn" },
    v.producers.length === 0
      ? { text: "no records in the window", tone: "muted" }
      : v.producers
          .map((p) =>
            v.fieldKind === "deprecated"
              ? `${p.producer} sends it in ${share(p.present, p.records)}`
              : `${p.producer} omits it in ${share(p.absent, p.records)}`,
          )
          .join("; "),
  ]);
  const details: Block[] = fields.map((v) => ({
    kind: "details",
    summary: `${v.field}: ${fieldVerdictText(v)}`,
    blocks: [
      ...(v.reasons.length > 0 ? [{ kind: "list" as const, items: v.reasons }] : []),
      ...evidenceBlocks(v.evidence),
    ],
  }));
  const pending = fields.filter((v) => !v.yes).length;
  return {
    id: `${id}-fields`,
    title: "fields",
    badge:
      pending === 0
        ? { text: "every verdict reached", tone: "good" }
        : { text: `${pending} of ${fields.length} not yet`, tone: "muted" },
    blocks: [
      {
        kind: "table",
        columns: [
          { title: "field" },
          { title: "kind" },
          { title: "verdict" },
          { title: "producers (window)" },
        ],
        rows,
        empty: "no field tracked",
      },
      ...renameBlocks(s.renames ?? []),
      ...details,
    ],
  };
}
