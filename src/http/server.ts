import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from "fastify";
import type { Logger } from "pino";
import type { Registry } from "prom-client";
import { describeProblems, type Health } from "../monitor/health.js";

export interface ServerDependencies {
  readonly registry: Registry;
  readonly health: Health;
  /** JSON for `/api/status`, built at request time. */
  readonly status: () => unknown;
  /** Extra JSON endpoints (`/api/report`, …), registered explicitly by the composition root. */
  readonly routes?: Readonly<Record<string, () => unknown>>;
  readonly logger?: Logger;
}

/**
 * Builds the HTTP app. It never listens: the caller does (`listen`), and tests call `inject()`.
 * Nothing here logs request bodies or payloads; the request log is at debug level.
 */
export function buildServer(deps: ServerDependencies): FastifyInstance {
  const app = Fastify({
    // pino's Logger is what fastify logs with; its types are only stricter about a field fastify never sets.
    ...(deps.logger ? { loggerInstance: deps.logger as unknown as FastifyBaseLogger } : {}),
    // Prometheus scrapes every few seconds; a log line per request would drown everything else.
    logController: new LogController({ disableRequestLogging: true }),
  });
  app.get("/metrics", async (_request, reply) => {
    const body = await deps.registry.metrics();
    return reply.type(deps.registry.contentType).send(body);
  });
  app.get("/healthz", async () => ({ status: "ok" }));
  app.get("/readyz", async (_request, reply) => {
    const reason = deps.health.reasonNotReady();
    // Problems (an undecodable batch, a missing topic) leave the monitor ready, and are named here.
    const problems = describeProblems(deps.health);
    const extra = problems.length > 0 ? { problems } : {};
    if (reason) return reply.code(503).send({ status: "not ready", reason, ...extra });
    return { status: "ready", ...extra };
  });
  app.get("/api/status", async () => deps.status());
  for (const [path, handler] of Object.entries(deps.routes ?? {})) app.get(path, async () => handler());
  return app;
}
