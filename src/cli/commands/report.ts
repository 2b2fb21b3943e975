import { SchemawatchError, messageOf } from "../../errors.js";
import { startMonitor } from "../../monitor/start.js";
import { createLogger } from "../../log.js";
import type { Report } from "../../report/model.js";
import { REPORT_FORMATS, renderReport } from "../../report/render.js";
import { oneOf, parseCommandArgs, usageError } from "../args.js";
import type { Command, CommandContext } from "../command.js";
import { DEFAULT_URL, getJson } from "../http-client.js";
import { packageVersion } from "../version.js";
import { writeWhole } from "../write-whole.js";

const help = `Usage: schemawatch report [--url URL] [--format text|json|markdown|html] [--out FILE]
       schemawatch report --config FILE --source file:PATH [--format ...] [--out FILE]

The deprecation report: per subject and version, its status, records and share per producer, when it
was last seen, the would-fail matrix (writer × reader × direction, with the failing keyword and JSON
Pointer), the drained and ready verdicts with their evidence (or the reasons they are not there yet),
the coverage of every partition, and the decode errors.

Options:
  --url URL          a running monitor (default ${DEFAULT_URL}); reads its /api/report
  --config FILE      with --source: evaluate a capture offline instead of asking a monitor
  --source SOURCE    file:PATH or file:- (an NDJSON capture, as for 'schemawatch run')
  --format FORMAT    text (default), json, markdown (for a pull request or a wiki page), or html (the
                     monitor's status page as one self-contained file, for a ticket)
  --out FILE         write the report to FILE instead of standard output
  -h, --help         show this help

Exit status: 0 the report was printed; 2 no monitor answered, or bad input.
`;

/** Where a report comes from: a monitor's URL, or a capture replayed with a config. */
export const REPORT_SOURCE_OPTIONS = {
  url: { type: "string" },
  config: { type: "string" },
  source: { type: "string" },
  format: { type: "string" },
} as const;

/** A report from a running monitor, or from replaying a capture through the same engine. */
export async function obtainReport(
  command: string,
  values: { url?: string | undefined; config?: string | undefined; source?: string | undefined },
  context: CommandContext,
): Promise<Report> {
  if (values.source !== undefined) {
    if (!values.source.startsWith("file:")) throw usageError(command, "--source must be file:PATH or file:-");
    if (!values.config) throw usageError(command, "--source needs --config FILE");
    const monitor = await startMonitor({
      configPath: values.config,
      source: { file: values.source.slice("file:".length) },
      port: 0,
      host: "127.0.0.1",
      env: context.env,
      version: packageVersion(),
      logger: createLogger("warn"),
    });
    try {
      await monitor.replayed;
      return monitor.report();
    } finally {
      await monitor.stop();
    }
  }
  return (await getJson(values.url ?? DEFAULT_URL, "/api/report")) as Report;
}

export const reportCommand: Command = {
  name: "report",
  summary: "print the deprecation report: version mix, would-fail rates, drained and ready verdicts",
  help,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs("report", args, {
      ...REPORT_SOURCE_OPTIONS,
      out: { type: "string" },
    });
    if (values.help) {
      context.stdout.write(help);
      return 0;
    }
    if (positionals.length > 0) throw usageError("report", `unexpected argument '${positionals[0]}'`);
    const format = oneOf("report", "format", values.format, REPORT_FORMATS, "text");
    const report = await obtainReport("report", values, context);
    // A page written from a running monitor links to it; one from a replayed capture has nothing to link.
    const text = renderReport(
      report,
      format,
      values.source === undefined ? { monitorUrl: values.url ?? DEFAULT_URL } : {},
    );
    if (values.out === undefined) {
      context.stdout.write(text);
      return 0;
    }
    try {
      await writeWhole(values.out, text);
    } catch (error) {
      throw new SchemawatchError(
        "FILE_UNWRITABLE",
        `${values.out}: cannot write the report: ${messageOf(error)}`,
        {
          cause: error,
        },
      );
    }
    return 0;
  },
};
