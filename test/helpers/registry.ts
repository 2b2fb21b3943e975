// Helpers for integration tests that need a real schema registry (Apicurio Registry from
// scripts/registry.sh). SCHEMA_REGISTRY_URL must point at its Confluent API; without it the tests
// FAIL with a message saying how to start one (they never skip).
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";

import { pino } from "pino";

import type { RegistryConfig } from "../../src/config/types.js";
import { RegistryClient } from "../../src/registry/client.js";
import { RegistryHttp } from "../../src/registry/http.js";
import type { RegistryCredentials } from "../../src/registry/secrets.js";
import type { ReferenceEntry } from "../../src/registry/types.js";
import { freePort } from "./ports.js";

const NO_REGISTRY_MESSAGE =
  "No schema registry for the integration tests: SCHEMA_REGISTRY_URL is not set.\n" +
  "Start Apicurio Registry without Docker and point the tests at it:\n" +
  '  scripts/registry.sh fetch && export "$(scripts/registry.sh start)"\n' +
  "  (that exports SCHEMA_REGISTRY_URL=http://127.0.0.1:18081/apis/ccompat/v7; stop it with scripts/registry.sh stop)";

export const silentLogger = pino({ level: "silent" });

/** The Confluent API base URL of the test registry. */
export function registryUrl(): string {
  const url = process.env["SCHEMA_REGISTRY_URL"];
  if (url === undefined || url.trim() === "") throw new Error(NO_REGISTRY_MESSAGE);
  return url.trim().replace(/\/+$/, "");
}

/** A registry subject name unique per test and per run. */
export function freshSubject(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}-value`;
}

/** A registry client of the code under test, without auth, with short timeouts. */
export function testClient(
  url: string,
  options: Partial<RegistryConfig> & { credentials?: RegistryCredentials } = {},
): RegistryClient {
  const http = new RegistryHttp({
    name: options.name ?? "test",
    url,
    // A freshly started Apicurio answers its first request on an endpoint in seconds under a full test
    // run, and took more than 15 s once with two CPU-bound processes beside it.
    timeout: options.timeout ?? 60_000,
    retries: options.retries ?? 0,
    backoff: 50,
    credentials: options.credentials ?? { authorization: undefined, tls: undefined, secrets: [] },
  });
  return new RegistryClient(http, url);
}

// The test side talks to the registry with plain fetch, not with the code under test, so that a bug
// in the client cannot hide itself by writing what it later reads.
async function call(method: string, url: string, body?: unknown): Promise<unknown> {
  const response = await fetch(url, {
    method,
    headers: { "content-type": "application/vnd.schemaregistry.v1+json", accept: "application/json" },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: HTTP ${response.status}: ${text}`);
  return text === "" ? undefined : (JSON.parse(text) as unknown);
}

/** Registers a JSON schema under `subject`; returns the registry's id. */
export async function register(
  url: string,
  subject: string,
  schema: unknown,
  references: readonly ReferenceEntry[] = [],
  schemaType = "JSON",
): Promise<number> {
  const answer = (await call("POST", `${url}/subjects/${encodeURIComponent(subject)}/versions`, {
    schemaType,
    schema: typeof schema === "string" ? schema : JSON.stringify(schema),
    ...(references.length > 0 ? { references } : {}),
  })) as { id: number };
  return answer.id;
}

/** Soft-deletes a version through the Confluent API. */
export async function softDelete(url: string, subject: string, version: number): Promise<void> {
  await call("DELETE", `${url}/subjects/${encodeURIComponent(subject)}/versions/${version}`);
}

/** Deletes a version for good: a soft delete, then `?permanent=true`, as the Confluent API wants. */
export async function hardDelete(url: string, subject: string, version: number): Promise<void> {
  await softDelete(url, subject, version);
  await call("DELETE", `${url}/subjects/${encodeURIComponent(subject)}/versions/${version}?permanent=true`);
}

export async function setCompatibility(
  url: string,
  subject: string | undefined,
  level: string,
): Promise<void> {
  await call("PUT", `${url}/config${subject !== undefined ? `/${encodeURIComponent(subject)}` : ""}`, {
    compatibility: level,
  });
}

/** Sets a version's state through Apicurio's native API (the Confluent API has no states). */
export async function setState(url: string, subject: string, version: number, state: string): Promise<void> {
  const native = url.replace(/\/apis\/ccompat\/v\d+$/, "/apis/registry/v3");
  const response = await fetch(
    `${native}/groups/default/artifacts/${encodeURIComponent(subject)}/versions/${version}/state`,
    { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ state }) },
  );
  if (response.status !== 204)
    throw new Error(`setting state ${state}: HTTP ${response.status}: ${await response.text()}`);
}

/** A proxy in front of the registry, started on 127.0.0.1 for one test. */
export interface TestProxy {
  /** The proxy's URL with the registry URL's path: use it where the registry URL goes. */
  readonly url: string;
  /** Every request that reached the proxy, as `METHOD /path?query`. */
  readonly requests: string[];
  /** Requests whose path (query left out) ends with `suffix`. */
  count(suffix: string): number;
  close(): Promise<void>;
}

/**
 * Starts an HTTP proxy that forwards every request to `target` (a registry URL). `gate` may answer a
 * request itself (an authenticating proxy answers 401 without the right credentials); requests it
 * lets through are forwarded untouched. `port` 0 takes a free one; a given port lets a test bring a
 * closed proxy back where its clients expect it.
 */
export async function startProxy(
  target: string,
  gate?: (request: IncomingMessage, response: ServerResponse) => boolean,
  port = 0,
): Promise<TestProxy> {
  const upstream = new URL(target);
  const requests: string[] = [];
  const server: Server = createServer((incoming, outgoing) => {
    requests.push(`${incoming.method} ${incoming.url}`);
    if (gate && !gate(incoming, outgoing)) return;
    const headers = { ...incoming.headers, host: upstream.host };
    delete headers["authorization"];
    const forward = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers,
        // A connection per request, as the client does for GUIDs: on a kept-alive connection Apicurio
        // 3.3.3 sometimes leaves a request to a route it does not serve unanswered (client.test.ts).
        agent: false,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forward.on("error", (error) => {
      outgoing.writeHead(502).end(String(error));
    });
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}${upstream.pathname.replace(/\/+$/, "")}`,
    requests,
    count: (suffix) => requests.filter((r) => r.split(" ")[1]!.split("?")[0]!.endsWith(suffix)).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const run = promisify(execFile);

/**
 * A registry of the test's own, started with scripts/registry.sh on free ports and its own run dir, for a
 * test that stops it: the shared one must stay up for the other tests.
 */
export async function startOwnRegistry(runDir: string): Promise<{ url: string; stop(): Promise<void> }> {
  // Two free ports (its HTTP API and Quarkus' management port), never numbers written in: another run
  // on the same machine, or another service, may hold any given one.
  const env = {
    ...process.env,
    REGISTRY_PORT: String(await freePort()),
    REGISTRY_MANAGEMENT_PORT: String(await freePort()),
    REGISTRY_RUN_DIR: runDir,
  };
  const { stdout } = await run("scripts/registry.sh", ["start"], { env, timeout: 150_000 });
  const line = stdout.trim().split("\n").pop() ?? "";
  const url = line.replace(/^SCHEMA_REGISTRY_URL=/, "");
  if (!url.startsWith("http://")) throw new Error(`scripts/registry.sh start printed no URL: ${stdout}`);
  return {
    url,
    stop: async () => {
      await run("scripts/registry.sh", ["stop"], { env, timeout: 60_000 });
    },
  };
}
