import type { FastifyInstance } from "fastify";
import type { Logger } from "pino";
import type { Config } from "../config/types.js";
import { SchemawatchError, messageOf } from "../errors.js";
import type { Health } from "../health/health.js";
import { buildServer } from "../http/server.js";
import { buildReport } from "../report/model.js";
import type { Core } from "./core.js";
import { statusPages } from "./page-routes.js";
import { TopicRates, recordsPerTopic } from "./rates.js";

export interface Http {
  readonly server: FastifyInstance;
  /** Records per second per topic, measured from a live source only. */
  readonly rates: TopicRates;
}

/** The HTTP side of the monitor: /metrics, health, the JSON API and the status pages; not listening yet. */
export function buildHttp(config: Config, core: Core, health: Health, logger: Logger): Http {
  const { pipeline, lifecycle, corpus } = core;
  const rates = new TopicRates(() => recordsPerTopic(pipeline.tallies));
  const pages = statusPages({
    config,
    report: core.report,
    catalog: core.catalog,
    health,
    rates,
    corpus,
    charts: core.charts,
  });
  const server = buildServer({
    registry: core.metrics,
    health,
    // The attention summary rests on the verdicts, which only the report joins to the status.
    status: () => {
      const current = core.status();
      const report = buildReport(current, pipeline.tallies, lifecycle, core.stats?.findings(), core.renames);
      // Each subject's field verdicts and renames' progress (issue 28) and statistics' findings
      // (issue 29), beside the attention items they give.
      const fields = Object.fromEntries(report.subjects.map((s) => [s.subject, s.fields ?? []]));
      const renames = Object.fromEntries(report.subjects.map((s) => [s.subject, s.renames ?? []]));
      const findings = Object.fromEntries(report.subjects.map((s) => [s.subject, s.findings ?? []]));
      // The flat items stay for tools; the groups are the summary as the page reads it.
      return {
        attention: report.attention,
        attentionGroups: report.attentionGroups,
        fields,
        renames,
        findings,
        ...current,
      };
    },
    routes: {
      "/api/report": core.report,
      // Kept examples are redacted, but they are still real documents: served only when asked for.
      "/api/corpus": () => {
        if (!corpus) throw httpError(404, "the corpus is off: set corpus.enabled in the config");
        if (!config.corpus.serve)
          throw httpError(404, "the corpus is not served: set corpus.serve in the config");
        return corpus.toJSON();
      },
      ...pages.routes,
    },
    pages: pages.pages,
    logger: logger.child({ component: "http" }),
  });
  return { server, rates };
}

/** Listens on `host:port`; a port in use is the user's to fix, said so. Resolves to the address. */
export async function listen(server: FastifyInstance, host: string, port: number): Promise<string> {
  try {
    // Node's default backlog (511) makes connections past it wait a second for a SYN retry when
    // many scrapers arrive at once; the kernel caps this at its somaxconn.
    return await server.listen({ host, port, backlog: 4096 });
  } catch (error) {
    throw listenError(host, port, error);
  }
}

function listenError(host: string, port: number, error: unknown): SchemawatchError {
  const inUse = (error as { code?: unknown }).code === "EADDRINUSE";
  const message = inUse
    ? `cannot listen on ${host}:${port}: the port is in use (another schemawatch?); pick another with --port N (or http.port in the config), or --port 0 for any free one`
    : `cannot listen on ${host}:${port}: ${messageOf(error)}`;
  return new SchemawatchError("USAGE", message, { cause: error });
}

function httpError(statusCode: number, message: string): Error & { statusCode: number } {
  return Object.assign(new Error(message), { statusCode });
}
