import type { FieldProducerShare, FieldVerdict } from "../lifecycle/field-verdicts.js";
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

/** A share to a tenth of a percent: never "0.0%" of some, nor "100.0%" of not all. */
export function share(part: number, whole: number): string {
  if (whole === 0 || part === 0) return "0%";
  const value = (part / whole) * 100;
  if (value < 0.05) return "<0.1%";
  if (part < whole && value >= 99.95) return ">99.9%";
  return `${value.toFixed(1)}%`;
}

/**
 * A producer's share as the fields table says it, with what it covers: the verdict's window when
 * its counts are the window's own; when they are whole buckets that began before the window (a
 * short drain window beside a long ready window lies inside one), the window's share is exact only
 * as zero (the last record that carried, or lacked, the field came before it), and said so, with
 * the buckets' share beside it; else the buckets' share and how far back it reaches.
 */
export function producerShareText(v: FieldVerdict, p: FieldProducerShare): string {
  const verb = v.fieldKind === "deprecated" ? "sends" : "omits";
  const part = v.fieldKind === "deprecated" ? p.present : p.absent;
  const window = String(v.evidence["window"] ?? "?");
  const over = `${share(part, p.records)} over the last ${p.over}`;
  if (p.exact) return `${p.producer} ${verb} it in ${over}`;
  if (!p.inWindow[v.fieldKind === "deprecated" ? "present" : "absent"])
    return `${p.producer} ${verb} it in 0% over the last ${window}${part > 0 ? ` (${over})` : ""}`;
  return `${p.producer} ${verb} it in ${over} (whole buckets: the ${window} window is not counted apart)`;
}

/**
 * A subject's tracked fields: per field its verdict and, per producer with a record in the verdict's
 * window, the share of its records that carried it (a deprecated field) or lacked it (an optional
 * one), with what the share covers (producerShareText), then each rename's progress per producer,
 * then the reasons.
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
      : v.producers.map((p) => producerShareText(v, p)).join("; "),
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
