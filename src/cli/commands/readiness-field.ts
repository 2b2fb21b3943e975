import { SchemawatchError } from "../../errors.js";
import type { RenameProgress } from "../../fields/rename-progress.js";
import { nextMajor } from "../../report/fields-section.js";
import type { Report, ReportSubject } from "../../report/model.js";
import type { CommandContext } from "../command.js";
import { obtainReport } from "./report.js";

/** The report's subject by name, or a coded error naming the ones known. */
export function subjectOf(report: Report, name: string): ReportSubject {
  const subject = report.subjects.find((s) => s.subject === name);
  if (!subject)
    throw new SchemawatchError(
      "SUBJECT_UNKNOWN",
      `no subject '${name}' (known: ${report.subjects.map((s) => s.subject).join(", ") || "none"})`,
    );
  return subject;
}

/** A capture's doubted timestamps (and any other problem of the replay) qualify the verdict: said on standard error. */
export function notes(report: Report, context: CommandContext): void {
  for (const p of report.problems) context.stderr.write(`note: ${p.problem} (${p.count}×)\n`);
}

/**
 * `readiness --field POINTER`: a deprecated field drained, or an optional one ready to require, from
 * a running monitor's report or a replayed capture's. Exit 0 yes, 1 not yet (with the reasons).
 */
export async function fieldReadiness(
  subjectName: string,
  pointer: string,
  format: string,
  values: { url?: string | undefined; config?: string | undefined; source?: string | undefined },
  context: CommandContext,
): Promise<number> {
  const report = await obtainReport("readiness", values, context);
  const subject = subjectOf(report, subjectName);
  const fields = subject.fields ?? [];
  const verdict = fields.find((f) => f.field === pointer);
  if (!verdict)
    throw new SchemawatchError(
      "FIELD_UNKNOWN",
      `${subjectName} has no tracked field '${pointer}' (tracked: ${fields.map((f) => f.field).join(", ") || "none"}): a field is tracked when a version not retired marks it "deprecated": true, when it is optional in the newest active version, or when the subject's fields block names it (add, replaces)`,
    );
  if (values.source !== undefined) notes(report, context);
  const next = nextMajor(subject.versions);
  const what = verdict.kind === "drained" ? "drained" : "ready to require";
  const rename = subject.renames?.find((r) => r.field === pointer || r.replacement === pointer);
  if (format === "json") {
    context.stdout.write(
      JSON.stringify({ subject: subjectName, ...verdict, ...(rename ? { rename } : {}) }, null, 2) + "\n",
    );
  } else if (verdict.yes) {
    context.stdout.write(
      verdict.kind === "drained"
        ? `${subjectName} ${pointer} is drained: no record carried it for ${String(verdict.evidence["window"])}, with every partition observed; remove it in ${next}\n`
        : `${subjectName} ${pointer} is ready to require: every producer sent it in every record for ${String(verdict.evidence["window"])} (${String(verdict.evidence["recordsSinceMissing"])} records since the last that lacked it); add it to required in ${next}\n`,
    );
  } else {
    context.stdout.write(
      `${subjectName} ${pointer} is not ${what} yet:\n${verdict.reasons.map((r) => `  - ${r}`).join("\n")}\n`,
    );
  }
  if (format !== "json" && rename) context.stdout.write(renameText(rename));
  return verdict.yes ? 0 : 1;
}

/** A rename's progress per producer, as `readiness --field` prints it after the verdict. */
export function renameText(rename: RenameProgress): string {
  const lines = rename.producers.map((p) => {
    const r = p.records;
    return `  ${p.producer}: ${r.old} with ${rename.field} only, ${r.both} with both, ${r.new} with ${rename.replacement} only, ${r.neither} with neither, ${r.unknown} unreadable; ${p.words}\n`;
  });
  return (
    `${rename.replacement} replaces ${rename.field}: records since the state began, steps from the last ${rename.window}:\n` +
    (lines.join("") || "  no records yet\n")
  );
}
