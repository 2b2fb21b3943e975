import type { Evidence } from "./release.js";
import type { AnyDiffResult, FormatChange } from "./formats.js";
import type { Bump, DiffResult, Verdict } from "./vocabulary.js";

/** The release a comparison is judged against; `declared` is undefined when no version could be read. */
export interface Release {
  readonly declared?: Bump | "downgrade";
  /** Where the declared bump came from: "1.0.0 -> 1.1.0", or "--expect". */
  readonly source?: string;
  readonly ok: boolean;
}

/** The machine-readable form `--format json` prints for one comparison. */
export function toJson(
  result: AnyDiffResult,
  names: { readonly old: string; readonly new: string },
  release: Release,
  evidence?: Evidence,
): Record<string, unknown> {
  return {
    old: names.old,
    new: names.new,
    policy: result.policy,
    compatibility: result.compatibility,
    backward: result.backward,
    forward: result.forward,
    bump: result.bump,
    declared: release.declared ?? null,
    ok: release.ok,
    changes: result.changes.map((c) => ({
      kind: c.kind,
      path: c.path,
      backward: c.backward,
      forward: c.forward,
      reason: c.reason,
      ...(c.breaksUnder ? { breaksUnder: c.breaksUnder } : {}),
      ...(c.witness ? { witness: c.witness } : {}),
      ...(c.live ? { live: c.live } : {}),
    })),
    ...(result.budget
      ? { budget: { seconds: result.budget.seconds, ranOut: result.budget.directions } }
      : {}),
    ...(evidence ? { documents: evidence } : {}),
  };
}

const word = (verdict: Verdict): string => (verdict === "ok" ? "ok" : verdict.toUpperCase());

function changeLines(change: FormatChange): string[] {
  const where = change.path === "" ? "the root" : change.path;
  const strictOnly = change.breaksUnder === "strict" && (change.backward !== "ok" || change.forward !== "ok");
  const verdicts = `${word(change.backward).padEnd(10)}${word(change.forward).padEnd(10)}`;
  const head = `  ${verdicts}${change.kind} at ${where}`;
  const lines = [strictOnly ? `${head} (strict only)` : head, `${" ".repeat(22)}${change.reason}`];
  // The proof, ready to paste into a producer's test.
  for (const direction of ["backward", "forward"] as const) {
    const witness = change.witness?.[direction];
    if (witness !== undefined)
      lines.push(`${" ".repeat(22)}witness (${direction}): ${JSON.stringify(witness)}`);
  }
  if (change.live) lines.push(`${" ".repeat(22)}live traffic: ${change.live.text}`);
  return lines;
}

const SUMMARY: Readonly<Record<DiffResult["compatibility"], string>> = {
  FULL: "FULL: safe to deploy in any order",
  BACKWARD: "BACKWARD: upgrade consumers first; old consumers reject some new documents",
  FORWARD: "FORWARD: upgrade producers first; the new schema rejects some old documents",
  NONE: "NONE: needs a coordinated release or a new major version side by side",
};

/**
 * Two Protobuf files of enums only: no record is written with them; the files that import them are
 * (a registry's shared enum subject), and their producers and consumers are the ones to order.
 */
const IMPORTERS: Readonly<Record<DiffResult["compatibility"], string>> = {
  ...SUMMARY,
  BACKWARD:
    "BACKWARD: upgrade consumers first (of the files that import it); OLD lacks some of what NEW declares",
  FORWARD:
    "FORWARD: upgrade producers first (of the files that import it); NEW lacks some of what OLD declares",
};

/** An undecided direction has no witness: it "may" reject documents, it is not shown to. */
function summaryOf(result: AnyDiffResult): string {
  if (result.unit === "files") return IMPORTERS[result.compatibility];
  let text = SUMMARY[result.compatibility];
  if (result.backward === "undecided")
    text = text.replace("the new schema rejects", "the new schema may reject");
  if (result.forward === "undecided") text = text.replace("old consumers reject", "old consumers may reject");
  return text;
}

/** The text people read: one block per change, then the verdict and the release check. */
export function toText(
  result: AnyDiffResult,
  names: { readonly old: string; readonly new: string },
  release: Release,
  evidence?: Evidence,
): string {
  const lines = [`${names.old} -> ${names.new} (policy ${result.policy})`];
  if (result.changes.length === 0) lines.push("  no changes");
  else {
    lines.push(`  ${"backward".padEnd(10)}${"forward".padEnd(10)}change`);
    for (const change of result.changes) lines.push(...changeLines(change));
  }
  if (evidence) {
    lines.push(`documents: ${evidence.checked} checked; they settle the directions structure left undecided`);
    lines.push(`  pass OLD, fail NEW (backward): ${evidence.backward.join(", ") || "none"}`);
    lines.push(`  pass NEW, fail OLD (forward):  ${evidence.forward.join(", ") || "none"}`);
  }
  if (result.budget) {
    const { seconds, directions } = result.budget;
    lines.push(`time budget of ${seconds} s ran out: ${directions.join(" and ")} undecided (budget)`);
  }
  lines.push(`compatibility ${summaryOf(result)}`);
  lines.push(`backward ${result.backward}, forward ${result.forward}; needs a ${result.bump} bump`);
  if (release.declared === undefined) {
    const fallback = release.ok
      ? "ok"
      : result.unit === "files"
        ? "FAIL: a change that can break a file that imports OLD"
        : "FAIL: a change that can break OLD documents";
    lines.push(`no declared version (give $id or file names a semver, or pass --expect): ${fallback}`);
  } else {
    const verdict = release.ok ? "ok" : "FAIL: the release number understates the change";
    lines.push(`declared ${release.declared} (${release.source ?? "?"}): ${verdict}`);
  }
  const text = `${lines.join("\n")}\n`;
  // A binary format's versions read records: its verdict lines say so (its changes' reasons already do).
  if (result.unit !== "records") return text;
  const tail = text.lastIndexOf("\ncompatibility ");
  return text.slice(0, tail) + text.slice(tail).replaceAll("documents", "records");
}
