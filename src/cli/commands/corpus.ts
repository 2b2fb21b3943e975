import { readRegistryCatalog } from "./registry-catalog.js";
import { loadConfig } from "../../config/load.js";
import type { Config } from "../../config/types.js";
import { Corpus } from "../../corpus/corpus.js";
import { feedCorpus } from "../../corpus/feed.js";
import { SchemawatchError, isSchemawatchError, messageOf } from "../../errors.js";
import { createLogger } from "../../log.js";
import { Health } from "../../health/health.js";
import { ObservationClock } from "../../pipeline/clock.js";
import { Pipeline } from "../../pipeline/pipeline.js";
import { replayFile } from "../../source/file.js";
import { parseCommandArgs, usageError } from "../args.js";
import type { Command, CommandContext } from "../command.js";

const DEFAULT_URL = "http://127.0.0.1:9464";

const help = `Usage: schemawatch corpus export --out DIR [--url URL] [--subject NAME]
       schemawatch corpus export --out DIR --source file:PATH --config FILE [--subject NAME]

Writes the corpus of real shapes (one example per distinct shape per subject, writer version and
producer, personal data redacted) as files that 'schemawatch check --old-docs' and
'schemawatch diff --docs' read as they are, so a schema change is checked against every shape seen in
production. The corpus comes from a running monitor (GET /api/corpus, served when corpus.serve is
true), or is built here from an NDJSON capture with the config's catalog.

Options:
  --out DIR           where to write: DIR/SUBJECT/WRITER/WRITER-PRODUCER-SHAPE.json (examples that
                      failed their writer version in DIR/SUBJECT/WRITER/nonconforming/) and
                      DIR/index.ndjson; files of earlier exports are kept
  --url URL           the monitor to ask (default ${DEFAULT_URL})
  --source file:PATH  build the corpus from a capture instead (file:- reads standard input): every
                      record is validated, corpus.maxShapes and corpus.redact apply, corpus.enabled
                      does not matter
  --config FILE       the config, with --source
  --subject NAME      export only this subject
  -h, --help          show this help

Exit status: 0 written; 2 bad input (monitor unreachable or not serving its corpus, unreadable
capture or config, a subject the corpus does not have).

Example:
  schemawatch corpus export --source file:examples/traffic/events.ndjson --config examples/config.yaml \\
    --out corpus
  schemawatch check examples/catalog/event/1.0.json examples/catalog/event/2.0.json \\
    --old-docs corpus/event/1.0.0 --new-docs corpus/event/1.1.0
`;

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** The server's own words from an error answer, without echoing a large body. */
function serverMessage(body: string): string {
  try {
    const json = JSON.parse(body) as { message?: unknown; error?: unknown };
    if (typeof json.message === "string") return json.message;
    if (typeof json.error === "string") return json.error;
  } catch {
    // not JSON: the text itself
  }
  const text = body.trim().replace(/\s+/g, " ");
  return text.length > 200 ? `${text.slice(0, 200)}...` : text || "(no message)";
}

function networkProblem(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === "string") return cause.code;
  if (typeof cause?.message === "string") return cause.message;
  return messageOf(error);
}

async function fetchCorpus(url: string, signal: AbortSignal): Promise<Corpus> {
  let base: URL;
  try {
    base = new URL(url);
  } catch {
    throw usageError("corpus", `--url must be an http:// or https:// URL, got '${url}'`);
  }
  if (base.protocol !== "http:" && base.protocol !== "https:") {
    throw usageError("corpus", `--url must be an http:// or https:// URL, got '${url}'`);
  }
  const endpoint = `${url.replace(/\/+$/, "")}/api/corpus`;
  let response: Response;
  let body: string;
  try {
    response = await fetch(endpoint, {
      headers: { accept: "application/json" },
      signal: AbortSignal.any([signal, AbortSignal.timeout(30_000)]),
    });
    body = await response.text();
  } catch (error) {
    throw new SchemawatchError(
      "HTTP_FAILED",
      `cannot reach the monitor at ${endpoint}: ${networkProblem(error)}`,
      { cause: error },
    );
  }
  if (!response.ok) {
    const hint = response.status === 404 ? " (is corpus.serve true in the monitor's config?)" : "";
    throw new SchemawatchError(
      "HTTP_FAILED",
      `${endpoint} answered ${response.status}: ${serverMessage(body)}${hint}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (error) {
    throw new SchemawatchError("HTTP_FAILED", `${endpoint} did not answer JSON`, { cause: error });
  }
  try {
    return Corpus.fromJSON(json);
  } catch (error) {
    if (!isSchemawatchError(error)) throw error;
    throw new SchemawatchError(error.code, `${endpoint}: ${error.message}`, { cause: error });
  }
}

/** The monitor's own pipeline over a capture, with every record validated so no shape is skipped. */
async function buildFromCapture(path: string, configPath: string, context: CommandContext): Promise<Corpus> {
  const loaded = await loadConfig(configPath);
  const config: Config = {
    ...loaded,
    subjects: loaded.subjects.map((s) => ({
      ...s,
      sampling: { ratio: 1, maxPerSecond: Number.POSITIVE_INFINITY },
    })),
  };
  const catalog = await readRegistryCatalog(config, undefined, context);
  const corpus = new Corpus(config.corpus);
  // The capture's clock, as a replay's report has it: an example's seen times are when it was read.
  const clock = new ObservationClock();
  const pipeline = new Pipeline(catalog, config, { validated: [feedCorpus(corpus)], clock });
  const logger = createLogger("warn", { write: (line: string) => void context.stderr.write(line) });
  await replayFile(
    {
      path,
      sink: pipeline,
      clock,
      health: new Health(),
      tallies: pipeline.tallies,
      topics: [...catalog.subjectByTopic.keys()],
      logger: logger.child({ component: "file-source" }),
    },
    context.stopSignal,
  );
  return corpus;
}

export const corpusCommand: Command = {
  name: "corpus",
  summary: "export the corpus of real shapes seen in production, for check and diff in CI",
  help,
  stopsCleanly: true,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs("corpus", args, {
      out: { type: "string", short: "o" },
      url: { type: "string" },
      source: { type: "string" },
      config: { type: "string", short: "c" },
      subject: { type: "string" },
    });
    if (values.help) {
      context.stdout.write(help);
      return 0;
    }
    const [action, ...rest] = positionals;
    if (action !== "export") {
      throw usageError("corpus", action === undefined ? "expected 'export'" : `unknown action '${action}'`);
    }
    if (rest.length > 0) throw usageError("corpus", `unexpected argument '${rest[0]}'`);
    if (!values.out) throw usageError("corpus", "--out DIR is required");
    if (values.source !== undefined && values.url !== undefined) {
      throw usageError("corpus", "--url and --source are alternatives; give one");
    }
    let corpus: Corpus;
    if (values.source !== undefined) {
      if (!values.source.startsWith("file:") || values.source === "file:") {
        throw usageError("corpus", `--source must be file:PATH or file:-, got '${values.source}'`);
      }
      if (!values.config)
        throw usageError("corpus", "--source needs --config FILE (the catalog to validate with)");
      corpus = await buildFromCapture(values.source.slice("file:".length), values.config, context);
    } else {
      if (values.config) throw usageError("corpus", "--config is only used with --source");
      corpus = await fetchCorpus(values.url ?? DEFAULT_URL, context.stopSignal);
    }
    const summary = await corpus.exportTo(values.out, { subject: values.subject });
    for (const stats of corpus.stats()) {
      if (stats.dropped > 0 && (values.subject === undefined || values.subject === stats.subject)) {
        context.stderr.write(
          `${stats.subject}: ${plural(stats.dropped, "more shape")} seen but not kept ` +
            `(corpus.maxShapes is ${corpus.maxShapes})\n`,
        );
      }
    }
    if (summary.shapes === 0) {
      context.stderr.write(
        values.source !== undefined
          ? "no examples: the capture has no record of a configured topic that could be parsed\n"
          : "the corpus is empty: is corpus.enabled true in the monitor, and has traffic been sampled?\n",
      );
    }
    context.stdout.write(
      `wrote ${plural(summary.shapes, "shape")} of ${plural(summary.subjects, "subject")} to ${values.out}\n`,
    );
    return 0;
  },
};
