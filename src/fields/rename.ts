import { formatDuration } from "../config/duration.js";
import { PRESENT, UNKNOWN } from "./presence.js";

/**
 * A rename's forms, as one record takes them: the old field only, both, the new one only, neither,
 * or unknown (its payload could not be read). The `form` label's values, indexed by `formOf`.
 */
export const RENAME_FORMS = ["old", "both", "new", "neither", "unknown"] as const;
export type RenameForm = (typeof RENAME_FORMS)[number];
export const FORMS = RENAME_FORMS.length;
export const FORM_UNKNOWN = 4;

/** A replaced field and its replacement, as indexes into a subject's tracked fields. */
export interface RenamePair {
  readonly replaced: number;
  readonly replacement: number;
}

/** The form of a record from the presence verdicts of its two fields (`presence.ts`). */
export function formOf(replaced: number, replacement: number): number {
  if (replaced === UNKNOWN || replacement === UNKNOWN) return FORM_UNKNOWN;
  if (replaced === PRESENT) return replacement === PRESENT ? 1 : 0;
  return replacement === PRESENT ? 2 : 3;
}

/** Counts per form, as the tallies keep them and the report shows them. */
export type RenameCounts = Record<RenameForm, number>;

/**
 * Where a producer is in the article's expand-and-contract procedure, from the forms its records
 * took in the window: `add` (some records carry the old field without the new: step 1, send both),
 * `switch` (every record that carries the old one carries the new: steps 2 and 3, move consumers,
 * then stop sending the old), `done` (none carries the old one), `neither` (its records carry
 * neither), `quiet` (no record in the window). Unreadable records leave the step as the others say:
 * they hold the old field's drain (its verdict says so), not the producer's step.
 */
export type RenameStep = "add" | "switch" | "done" | "neither" | "quiet";

/** The step of a producer whose latest record of each form was at `lastAt[form]` (ms; 0: never). */
export function stepOf(lastAt: readonly number[], since: number): RenameStep {
  const recent = (form: number) => (lastAt[form] ?? 0) >= since && (lastAt[form] ?? 0) > 0;
  if (recent(0)) return "add";
  if (recent(1)) return "switch";
  if (recent(2)) return "done";
  if (recent(3)) return "neither";
  return "quiet";
}

/** The step in words, with its action: what the status page, the report and `readiness` print. */
export function stepWords(
  step: RenameStep,
  replaced: string,
  replacement: string,
  windowSeconds: number,
): string {
  switch (step) {
    case "add":
      return `sends ${replaced} without ${replacement}: add ${replacement} and send both (step 1)`;
    case "switch":
      return `sends both: move consumers to ${replacement}, then stop sending ${replaced} (steps 2 and 3)`;
    case "done":
      return `sends ${replacement} only: done; ${replaced} can be removed once drained`;
    case "neither":
      return `sends neither ${replaced} nor ${replacement}`;
    case "quiet":
      return `sent no record in the last ${formatDuration(windowSeconds)}`;
  }
}
