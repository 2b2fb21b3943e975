import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";

import { SchemawatchError, messageOf, type ErrorCode } from "../errors.js";
import { retry } from "../retry.js";
import { redact, type RegistryCredentials } from "./secrets.js";

/** A registry's answers are small JSON documents; anything larger is refused rather than buffered. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;
const MAX_BACKOFF_MS = 5_000;
const ACCEPT =
  "application/vnd.schemaregistry.v1+json, application/vnd.schemaregistry+json, application/json";

/**
 * A failed registry request. `status` is the HTTP status (undefined when there was no answer) and
 * `errorCode` the Confluent `error_code` of the body (40401 subject not found, 40402 version not
 * found, 40403 schema not found …), undefined when the body had none.
 */
export class RegistryError extends SchemawatchError {
  readonly status: number | undefined;
  readonly errorCode: number | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    details: { status?: number; errorCode?: number; cause?: unknown },
  ) {
    super(code, message, details.cause !== undefined ? { cause: details.cause } : undefined);
    this.name = "RegistryError";
    this.status = details.status;
    this.errorCode = details.errorCode;
  }
}

export interface RegistryHttpOptions {
  /** The `registries` key, for messages. */
  readonly name: string;
  /** Base URL of the Confluent API, no trailing slash. */
  readonly url: string;
  /** Milliseconds per attempt. */
  readonly timeout: number;
  readonly retries: number;
  readonly credentials: RegistryCredentials;
  /** First retry delay in milliseconds, doubled per retry up to 5 s (default 250). */
  readonly backoff?: number;
}

interface Answer {
  status: number;
  body: string;
  retryAfter: number | undefined;
}

/**
 * Requests to one registry: one keep-alive agent, a deadline per attempt, bounded retries
 * with exponential backoff on network errors, timeouts, 429 and 5xx, and errors that name the registry,
 * the method and the path, never a secret. Counts its requests (attempts, retries included).
 */
export class RegistryHttp {
  readonly #options: RegistryHttpOptions;
  readonly #base: URL;
  readonly #agent: HttpAgent;
  #requests = 0;

  constructor(options: RegistryHttpOptions) {
    this.#options = options;
    this.#base = new URL(options.url);
    const https = this.#base.protocol === "https:";
    const agentOptions = { keepAlive: true, maxSockets: 8, ...options.credentials.tls };
    this.#agent = https ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions);
  }

  /** The registry as messages show it: its name and base URL (which never holds credentials). */
  get label(): string {
    return `registry '${this.#options.name}' (${this.#options.url})`;
  }

  /** Requests sent so far, retries included. */
  get requests(): number {
    return this.#requests;
  }

  /** GET `path` (relative to the base URL, starting with `/`) and parse the JSON answer. */
  get(path: string): Promise<unknown> {
    return this.#send("GET", this.#basePath + path, path, undefined);
  }

  /**
   * GET a path of a route the registry may not serve, on a connection of its own that closes after
   * the answer. Apicurio 3.3.3 leaves about one in 200 requests to a route it does not serve (an
   * empty 404) unanswered when it comes on a kept-alive connection, which then hangs until the
   * timeout; on a fresh connection it answered 900 of 900 (test/integration/registry/client.test.ts).
   */
  probe(path: string): Promise<unknown> {
    return this.#send("GET", this.#basePath + path, path, undefined, undefined, true);
  }

  /** GET a path from the root of the registry's host (another API of the same server). */
  getFromRoot(pathname: string): Promise<unknown> {
    return this.#send("GET", pathname, pathname, undefined);
  }

  /** POST a JSON body to `path` and parse the JSON answer. */
  post(path: string, body: unknown): Promise<unknown> {
    return this.#send("POST", this.#basePath + path, path, JSON.stringify(body));
  }

  /** DELETE `path` (relative to the base URL) and parse the JSON answer. */
  delete(path: string): Promise<unknown> {
    return this.#send("DELETE", this.#basePath + path, path, undefined);
  }

  /**
   * PUT a JSON body to a path from the root of the registry's host (another API of the same server,
   * which takes `application/json` rather than the Confluent media type).
   */
  putToRoot(pathname: string, body: unknown): Promise<unknown> {
    return this.#send("PUT", pathname, pathname, JSON.stringify(body), "application/json");
  }

  /** The full URL of a request path, as a plan shows it: from the host's root, or from the base URL. */
  urlOf(path: string, root: boolean): string {
    return new URL(root ? path : this.#basePath + path, this.#base).href;
  }

  /** The base URL's path without a trailing slash: `/apis/ccompat/v7`, or empty. */
  get #basePath(): string {
    return this.#base.pathname.replace(/\/$/, "");
  }

  close(): void {
    this.#agent.destroy();
  }

  async #send(
    method: string,
    pathname: string,
    path: string,
    body: string | undefined,
    contentType = "application/vnd.schemaregistry.v1+json",
    ownConnection = false,
  ): Promise<unknown> {
    const where = `${this.label}: ${method} ${path}`;
    const attempts = this.#options.retries + 1;
    let answer: Answer;
    try {
      answer = await retry(
        async () => {
          const got = await this.#attempt(method, pathname, body, contentType, ownConnection);
          if (got.status === 429 || got.status >= 500) throw new RetriableAnswer(got);
          return got;
        },
        {
          attempts,
          backoff: { first: this.#options.backoff ?? 250, max: MAX_BACKOFF_MS },
          // A 429 or 503 may say how long to wait; never longer than the backoff's cap.
          delay: (error, backoff) =>
            error instanceof RetriableAnswer
              ? Math.min(error.answer.retryAfter ?? backoff, MAX_BACKOFF_MS)
              : backoff,
        },
      );
    } catch (error) {
      // The last answer of a registry that kept failing is read as any answer: its status, its body.
      if (error instanceof RetriableAnswer) answer = error.answer;
      else
        throw new RegistryError(
          "REGISTRY_UNAVAILABLE",
          `${where}: ${this.#scrub(messageOf(error))} (${attempts} attempt${attempts === 1 ? "" : "s"}); is the registry up and the url right?`,
          { cause: error },
        );
    }
    return this.#interpret(answer, where, attempts);
  }

  #interpret(answer: Answer, where: string, attempts: number): unknown {
    let parsed: unknown;
    let parseError: unknown;
    try {
      parsed = answer.body === "" ? undefined : (JSON.parse(answer.body) as unknown);
    } catch (error) {
      parseError = error;
    }
    if (answer.status >= 200 && answer.status < 300) {
      if (parseError !== undefined) {
        throw new RegistryError("REGISTRY_INVALID", `${where}: the answer is not JSON`, {
          status: answer.status,
          cause: parseError,
        });
      }
      return parsed;
    }
    const body = parsed as { error_code?: unknown; message?: unknown } | undefined;
    const errorCode = typeof body?.error_code === "number" ? body.error_code : undefined;
    const said = typeof body?.message === "string" ? `: ${this.#scrub(body.message).slice(0, 300)}` : "";
    const status = answer.status;
    const details = { status, ...(errorCode !== undefined ? { errorCode } : {}) };
    if (status === 401 || status === 403) {
      throw new RegistryError(
        "REGISTRY_UNAUTHORIZED",
        `${where}: HTTP ${status}${said}; check registries.${this.#options.name}.auth (${status === 401 ? "the credentials were refused or are missing" : "the credentials may not read this"})`,
        details,
      );
    }
    if (status === 404) throw new RegistryError("REGISTRY_NOT_FOUND", `${where}: HTTP 404${said}`, details);
    if (status === 429 || status >= 500) {
      throw new RegistryError(
        "REGISTRY_UNAVAILABLE",
        `${where}: HTTP ${status}${said} (${attempts} attempt${attempts === 1 ? "" : "s"})`,
        details,
      );
    }
    throw new RegistryError("REGISTRY_REJECTED", `${where}: HTTP ${status}${said}`, details);
  }

  #scrub(text: string): string {
    return redact(text, this.#options.credentials.secrets);
  }

  #attempt(
    method: string,
    pathname: string,
    body: string | undefined,
    contentType: string,
    ownConnection: boolean,
  ): Promise<Answer> {
    this.#requests++;
    const url = new URL(pathname, this.#base);
    const headers: Record<string, string> = { accept: ACCEPT };
    if (this.#options.credentials.authorization !== undefined) {
      headers["authorization"] = this.#options.credentials.authorization;
    }
    if (body !== undefined) {
      headers["content-type"] = contentType;
      headers["content-length"] = String(Buffer.byteLength(body));
    }
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    return new Promise<Answer>((resolve, reject) => {
      // `agent: false` opens a socket for this request alone (and says `Connection: close`); the TLS
      // options then go on the request, as the agent would have given them.
      const request = ownConnection
        ? send(url, { method, headers, agent: false, ...this.#options.credentials.tls })
        : send(url, { method, headers, agent: this.#agent });
      // The deadline starts when the request has a socket: a wait for one of the agent's sockets is
      // the monitor's own queue, not the registry being slow, and must not read as its failure.
      let timer: NodeJS.Timeout | undefined;
      request.once("socket", () => {
        timer = setTimeout(() => {
          request.destroy(new Error(`no answer within ${this.#options.timeout}ms`));
        }, this.#options.timeout);
      });
      request.once("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
      request.once("response", (response: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_BODY_BYTES) {
            request.destroy(new Error(`the answer is larger than ${MAX_BODY_BYTES} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        response.once("end", () => {
          clearTimeout(timer);
          const retryAfter = Number(response.headers["retry-after"]);
          resolve({
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks).toString("utf8"),
            retryAfter: Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter * 1000 : undefined,
          });
        });
        response.once("error", (error) => {
          clearTimeout(timer);
          reject(error);
        });
        // A connection cut mid-answer closes the response without "end"; a settled promise ignores this.
        response.once("close", () => {
          clearTimeout(timer);
          if (!response.complete) reject(new Error("the connection closed before the answer was complete"));
        });
      });
      request.end(body);
    });
  }
}

/** An answer worth asking again for (429, 5xx), carried through retry() as a failure. */
class RetriableAnswer extends Error {
  constructor(readonly answer: Answer) {
    super(`HTTP ${answer.status}`);
  }
}
