import { isSchemawatchError } from "../../errors.js";
import { startMonitor } from "../../monitor/start.js";
import { REPORT_FORMATS, renderReport } from "../../report/render.js";
import { oneOf, parseCommandArgs, usageError } from "../args.js";
import type { Command } from "../command.js";
import { packageVersion } from "../version.js";

const help = `Usage: schemawatch run --config FILE [--source kafka|file:PATH|file:-] [--exit-at-end]
                       [--format text|json|markdown|html] [--brokers LIST] [--host ADDR] [--port N]

The live monitor. Reads every record of the configured topics in its own consumer group, counts each
by producer and declared writer version, validates a sample against every non-retired version in both
directions, and serves a status page, Prometheus metrics and JSON status over HTTP.

Options:
  --config FILE      the config file (see docs/configuration.md)
  --source SOURCE    kafka (default): consume the configured brokers;
                     file:PATH: replay an NDJSON capture, one record per line
                       {"topic", "partition", "offset", "timestamp", "key", "headers", "value"},
                       where value is the JSON document or {"base64": "..."} for raw bytes;
                     file:-: the same from standard input
  --exit-at-end      with a file source: print the final report and exit 0 when the file ends
                     (a signal before that stops it without a report)
  --format FORMAT    the final report: text (default), json, markdown or html (as 'schemawatch report')
  --brokers LIST     comma-separated host:port list (overrides kafka.brokers)
  --host ADDR        listen address (overrides http.host)
  --port N           listen port (overrides http.port; 0 picks a free one)
  -h, --help         show this help

HTTP: / (the status page: the report as a page that refreshes itself), /metrics, /healthz, /readyz
(503 until the catalog is loaded and partitions are assigned, and while the broker is unreachable;
problems such as an undecodable batch are listed), /api/status, /api/report. Logs are JSON lines on
stderr. SIGINT or SIGTERM logs "stopping" at once and ends the process within shutdown.deadline (20 s
by default, see docs/configuration.md), whatever the brokers or the registries do, with exit code 0:
the current batch is finished, its offsets committed and the state saved, and what could not be done
in time is logged ("state not saved: the deadline (20s) passed while ..."). A second signal stops it
at once; a third ends the process.

Example:
  schemawatch run --config examples/config.yaml --source file:examples/traffic/events.ndjson --exit-at-end
`;

function waitForStop(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

export const runCommand: Command = {
  name: "run",
  summary: "run the live monitor (Kafka, or a replayed NDJSON capture)",
  help,
  stopsCleanly: true,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs("run", args, {
      config: { type: "string", short: "c" },
      source: { type: "string" },
      "exit-at-end": { type: "boolean", default: false },
      format: { type: "string" },
      brokers: { type: "string" },
      host: { type: "string" },
      port: { type: "string" },
    });
    if (values.help) {
      context.stdout.write(help);
      return 0;
    }
    if (positionals.length > 0) throw usageError("run", `unexpected argument '${positionals[0]}'`);
    if (!values.config) throw usageError("run", "--config FILE is required");
    const format = oneOf("run", "format", values.format, REPORT_FORMATS, "text");
    const source = values.source ?? "kafka";
    if (source !== "kafka" && !source.startsWith("file:")) {
      throw usageError("run", `--source must be kafka, file:PATH or file:-, got '${source}'`);
    }
    if (values["exit-at-end"] && source === "kafka") {
      throw usageError("run", "--exit-at-end needs a file source (--source file:PATH)");
    }
    const port = values.port === undefined ? undefined : Number(values.port);
    if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) {
      throw usageError("run", `--port must be a port number, got '${values.port}'`);
    }
    const brokers = values.brokers
      ?.split(",")
      .map((b) => b.trim())
      .filter(Boolean);
    const started = startMonitor({
      configPath: values.config,
      source: source === "kafka" ? "kafka" : { file: source.slice("file:".length) },
      env: context.env,
      version: packageVersion(),
      captureWarnings: true,
      ...(values.host !== undefined ? { host: values.host } : {}),
      ...(port !== undefined ? { port } : {}),
      ...(brokers?.length ? { brokers } : {}),
      signals: {
        stop: context.stopSignal,
        ...(context.stopNowSignal ? { now: context.stopNowSignal } : {}),
      },
    });
    const monitor = await started.catch((error: unknown) => {
      // Stopped before start-up finished: what it had opened is closed, and the log says so.
      if (isSchemawatchError(error) && error.code === "STOPPED") return undefined;
      throw error;
    });
    if (!monitor) return 0;
    try {
      if (values["exit-at-end"]) {
        // A signal ends a long replay (or one from standard input) without a report of half of it.
        const stopped = waitForStop(context.stopSignal).then(() => false);
        if (await Promise.race([monitor.replayed.then(() => true), stopped])) {
          context.stdout.write(renderReport(monitor.report(), format));
        }
      } else {
        await Promise.race([
          waitForStop(context.stopSignal),
          monitor.replayed.then(() => waitForStop(context.stopSignal)),
        ]);
      }
    } finally {
      await monitor.stop();
    }
    return 0;
  },
};
