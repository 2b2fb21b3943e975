import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from "fastify";
import type { Logger } from "pino";
import type { Registry } from "prom-client";
import { describeProblems, type Health } from "../health/health.js";
import { shareRendering } from "./shared.js";

/** A route's path parameters (`/subjects/:name` gives `name`), decoded. */
export type RouteParams = Readonly<Record<string, string>>;

/** What a page answers: its HTML, or a status code with HTML that says why (an unknown subject). */
export type PageResult = string | { readonly statusCode: number; readonly html: string };

export interface ServerDependencies {
  readonly registry: Registry;
  readonly health: Health;
  /** JSON for `/api/status`, built at request time. */
  readonly status: () => unknown;
  /** Extra JSON endpoints (`/api/report`, …), registered explicitly by the composition root. */
  readonly routes?: Readonly<Record<string, (params: RouteParams) => unknown>>;
  /** HTML pages (the index at `/`, a subject's at `/subjects/:name`), rendered at request time. */
  readonly pages?: Readonly<Record<string, (params: RouteParams) => PageResult | Promise<PageResult>>>;
  readonly logger?: Logger;
}

/** Every route answers GET, and HEAD through fastify's automatic HEAD routes. */
const ALLOW = "GET, HEAD";

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
    // Stopping must not wait for a browser that keeps the status page's connection open.
    forceCloseConnections: true,
  });
  const paths = new Set<string>();
  // Paths with parameters (`/subjects/:name`) as patterns, so that they answer 405 too.
  const patterns: RegExp[] = [];
  app.addHook("onRoute", (route) => {
    paths.add(route.url);
    if (route.url.includes(":"))
      patterns.push(
        new RegExp(`^${route.url.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:[^/]+/g, "[^/]+")}$`),
      );
  });
  const metrics = shareRendering(() => deps.registry.metrics());
  app.get("/metrics", async (_request, reply) => reply.type(deps.registry.contentType).send(await metrics()));
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
  for (const [path, handler] of Object.entries(deps.routes ?? {}))
    app.get(path, async (request) => handler(request.params as RouteParams));
  for (const [path, render] of Object.entries(deps.pages ?? {}))
    app.get(path, async (request, reply) => {
      const page = await render(request.params as RouteParams);
      const html = typeof page === "string" ? page : page.html;
      if (typeof page !== "string") reply.code(page.statusCode);
      return reply.type("text/html; charset=utf-8").send(html);
    });
  // A known path asked with another method is 405 with the methods it takes, not "not found".
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split("?", 1)[0]!;
    if (paths.has(path) || patterns.some((p) => p.test(path))) {
      return reply
        .code(405)
        .header("allow", ALLOW)
        .send({
          statusCode: 405,
          error: "Method Not Allowed",
          message: `${request.method} ${path}: this path answers ${ALLOW}`,
        });
    }
    return reply.code(404).send({
      statusCode: 404,
      error: "Not Found",
      message: `no ${path} here: the monitor serves ${[...paths].sort().join(", ")}`,
    });
  });
  return app;
}
