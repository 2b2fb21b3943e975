import type { AnyDiffResult as DiffResult, FormatChange as Change } from "./formats.js";
import type { Verdict } from "./vocabulary.js";
import { worst } from "./family.js";

type Direction = "backward" | "forward";

/** What the registry's rule for a subject is, as far as the comparison needs it. */
export interface Rule {
  readonly level: string;
  readonly source: string;
  readonly directions: readonly Direction[];
}

/** NEW compared with one registered version the subject's level checks it against. */
export interface Against {
  readonly version: number;
  readonly result: DiffResult;
}

/** The registry's answer. */
export interface Answer {
  readonly compatible: boolean;
  readonly messages: readonly string[];
}

/** A proven break the registry would let through: the change, where, and its witness. */
export interface Break {
  readonly version: number;
  readonly direction: Direction;
  readonly change: Change;
  readonly witness: unknown;
}

export interface Judgement {
  /** schemawatch's verdict in the directions the level checks, over every version it checks against. */
  readonly evidence: Verdict;
  /** Where the two differ on something schemawatch proved; undefined when they do not. */
  readonly disagreement?: "registry-accepts-breaking" | "registry-rejects-safe";
  /** With `registry-accepts-breaking`: the first change proven to break, and its witness. */
  readonly breaks?: Break;
  /** With `registry-rejects-safe`: every change, each proven ok in the checked directions. */
  readonly proof?: readonly { readonly version: number; readonly change: Change }[];
  /** Safe to register: the registry accepts it and schemawatch proves it compatible at the level. */
  readonly ok: boolean;
}

/**
 * Sets the registry's verdict beside schemawatch's evidence at the subject's level. A disagreement is
 * only said where schemawatch has a proof: a witness document for a break the registry accepts, a
 * structural proof of every change for a change the registry rejects. `undecided` disagrees with
 * nothing; it only keeps `ok` false.
 */
export function judge(rule: Rule, against: readonly Against[], answer: Answer): Judgement {
  const verdicts = against.flatMap((a) => rule.directions.map((d) => a.result[d]));
  const evidence = worst(verdicts);
  const ok = answer.compatible && evidence === "ok";
  if (answer.compatible) {
    for (const a of against) {
      for (const direction of rule.directions) {
        for (const change of a.result.changes) {
          // Stryker disable next-line ConditionalExpression: a change has a witness only in a direction it breaks
          const witness = change[direction] === "breaks" ? change.witness?.[direction] : undefined;
          if (witness === undefined) continue;
          const breaks = { version: a.version, direction, change, witness };
          return { evidence, disagreement: "registry-accepts-breaking", breaks, ok };
        }
      }
    }
  }
  if (!answer.compatible && evidence === "ok") {
    const proof = against.flatMap((a) => a.result.changes.map((change) => ({ version: a.version, change })));
    return { evidence, disagreement: "registry-rejects-safe", proof, ok };
  }
  return { evidence, ok };
}

const say = (verdict: Verdict): string => (verdict === "ok" ? "ok" : verdict.toUpperCase());

/** The side-by-side text: both verdicts, then the disagreement with its witness or proof. */
export function judgementText(
  head: { subject: string; registry: string; file: string },
  rule: Rule,
  against: readonly Against[],
  answer: Answer,
  judgement: Judgement,
): string {
  const lines = [`${head.subject} on ${head.registry}: compatibility ${rule.level} (${rule.source})`];
  const checks = rule.directions.length > 0 ? rule.directions.join(" and ") : "nothing";
  for (const a of against) {
    lines.push(
      `  ${head.file} against version ${a.version}: backward ${say(a.result.backward)}, forward ${say(a.result.forward)}`,
    );
  }
  const messages = answer.messages.length > 0 ? ` (${answer.messages.join("; ")})` : "";
  lines.push(
    `registry:    ${answer.compatible ? "compatible: it would register it" : "INCOMPATIBLE: it would reject it"}${messages}`,
  );
  lines.push(`schemawatch: ${say(judgement.evidence)} in what ${rule.level} checks (${checks})`);
  if (judgement.breaks) {
    const { change, direction, version, witness } = judgement.breaks;
    lines.push(
      `DISAGREE: the registry would accept a change that breaks ${direction} against version ${version}:`,
      `  ${change.kind} at ${change.path || "the root"}: ${change.reason}`,
      `  witness (${direction}): ${JSON.stringify(witness)}`,
    );
  } else if (judgement.proof) {
    lines.push(
      `DISAGREE: the registry would reject a change proven ${checks} compatible; the proof, change by change:`,
    );
    for (const { version, change } of judgement.proof)
      lines.push(`  v${version} ${change.kind} at ${change.path || "the root"}: ${change.reason}`);
    if (judgement.proof.length === 0) lines.push("  the schemas are identical");
  } else if (judgement.evidence === "undecided") {
    lines.push("schemawatch cannot prove it either way: settle it with --docs or `schemawatch check`");
  } else if (answer.compatible && judgement.evidence === "breaks") {
    // A structural break with no witness document: a disagreement schemawatch cannot prove.
    lines.push(
      "schemawatch finds a break but no document that shows it: settle it with --docs or `schemawatch check`",
    );
  } else {
    lines.push("both agree");
  }
  return `${lines.join("\n")}\n`;
}
