import { normalizeVersion } from "../../catalog/version.js";
import { SchemawatchError } from "../../errors.js";
import { oneOf, parseCommandArgs, usageError } from "../args.js";
import type { Command } from "../command.js";
import { DEFAULT_URL } from "../http-client.js";
import { fieldReadiness, notes, subjectOf } from "./readiness-field.js";
import { REPORT_SOURCE_OPTIONS, obtainReport } from "./report.js";

const help = `Usage: schemawatch readiness --subject NAME --version V [--url URL] [--format text|json]
       schemawatch readiness --subject NAME --version V --config FILE --source file:PATH
       schemawatch readiness --subject NAME --field POINTER [--url URL | --config FILE --source file:PATH]

Is a candidate version ready to release? The article's "make required in two steps": once every
producer sends the new field, a candidate that requires it passes all sampled traffic. It is ready
when live traffic passed it with zero failures for the whole ready window, with at least minSamples
samples. For a deprecated version, the same command says whether it is drained (removable).

With --field, the same for one field (a JSON Pointer, e.g. /amount): a field a version marks
deprecated is drained when no record carried it for the whole drain window (every record is
checked, every partition observed); an optional field of the newest active version is ready to
require when every producer sent it in every record for the ready window.

Options:
  --subject NAME     the subject, for example event
  --version V        the candidate (or deprecated) version, for example 2.0.0 (2.0 means 2.0.0)
  --field POINTER    instead of --version: a tracked field, for example /amount
  --url URL          a running monitor (default ${DEFAULT_URL})
  --config FILE      with --source: evaluate a capture offline instead
  --source SOURCE    file:PATH or file:-
  --format FORMAT    text (default) or json
  -h, --help         show this help

On a capture, what its replay doubted (timestamps not believed, lines that are no record) is said on
standard error as notes; see docs/lifecycle.md, "A capture's clock".

Exit status: 0 ready (or drained); 1 not yet, with the reasons; 2 bad input (a subject, version or
field not known) or no monitor answered.
`;

export const readinessCommand: Command = {
  name: "readiness",
  summary: "exit 0 when a candidate version is ready to release (or a deprecated one drained)",
  help,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs("readiness", args, {
      subject: { type: "string" },
      version: { type: "string" },
      field: { type: "string" },
      ...REPORT_SOURCE_OPTIONS,
    });
    if (values.help) {
      context.stdout.write(help);
      return 0;
    }
    if (positionals.length > 0) throw usageError("readiness", `unexpected argument '${positionals[0]}'`);
    const format = oneOf("readiness", "format", values.format, ["text", "json"], "text");
    if (!values.subject) throw usageError("readiness", "--subject NAME is required");
    if (values.field !== undefined && values.version !== undefined)
      throw usageError("readiness", "give --version V or --field POINTER, not both");
    if (values.field !== undefined)
      return fieldReadiness(values.subject, values.field, format, values, context);
    if (!values.version) throw usageError("readiness", "--version V (or --field POINTER) is required");
    const version = normalizeVersion(values.version);
    if (!version) throw usageError("readiness", `--version '${values.version}' is not a semver version`);
    const report = await obtainReport("readiness", values, context);
    const subject = subjectOf(report, values.subject);
    // A registry label (`3`) is shown as the registry shows it, and means 3.0.0.
    const entry = subject.versions.find((v) => normalizeVersion(v.version) === version);
    if (!entry) {
      throw new SchemawatchError(
        "VERSION_UNKNOWN",
        `${values.subject} has no version ${version} (known: ${subject.versions.map((v) => v.version).join(", ")})`,
      );
    }
    if (!entry.verdict) {
      throw new SchemawatchError(
        "VERSION_UNKNOWN",
        `${values.subject} ${version} is ${entry.status}: only candidate (ready) and deprecated (drained) versions have a verdict`,
      );
    }
    const verdict = entry.verdict;
    // A capture's doubted timestamps (and any other problem of the replay) qualify the verdict: said
    // beside it, on standard error, so that standard output stays the verdict alone.
    if (values.source !== undefined) notes(report, context);
    if (format === "json") {
      context.stdout.write(
        JSON.stringify({ subject: values.subject, version, status: entry.status, ...verdict }, null, 2) +
          "\n",
      );
    } else if (verdict.yes) {
      const bound = verdict.evidence["upperBound95"];
      context.stdout.write(
        `${values.subject} ${version} is ${verdict.kind}` +
          (typeof bound === "number"
            ? `: ${String(verdict.evidence["samplesSinceFailure"])} samples without a failure bound the failure rate below ${(bound * 100).toFixed(2)}% (95%)`
            : "") +
          "\n",
      );
    } else {
      context.stdout.write(
        `${values.subject} ${version} is not ${verdict.kind} yet:\n${verdict.reasons.map((r) => `  - ${r}`).join("\n")}\n`,
      );
    }
    return verdict.yes ? 0 : 1;
  },
};
