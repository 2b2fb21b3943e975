// Unit tests of reading a registry's secrets and keeping them out of messages. The one HTTP server
// here is a local stand-in for a registry that echoes what it was sent (some do, in error bodies):
// what is tested is that the client scrubs that echo, which no real registry here would provoke.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import type { RegistryConfig } from "../../../src/config/types.js";
import { defaultLookups } from "../../../src/config/registries.js";
import { RegistryHttp } from "../../../src/registry/http.js";
import { redact, registryCredentials } from "../../../src/registry/secrets.js";

const SECRET = "s3cr3t-Pa55:word";

let dir = "";
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "sw-registry-secrets-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function config(auth: RegistryConfig["auth"], tls?: RegistryConfig["tls"]): RegistryConfig {
  return {
    name: "main",
    url: "https://sr.example.com",
    ...(auth ? { auth } : {}),
    ...(tls ? { tls } : {}),
    pollInterval: 30_000,
    timeout: 1_000,
    retries: 0,
    ...defaultLookups(),
  };
}

async function messageOf(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => "resolved",
    (error: unknown) => (error as Error).message,
  );
}

describe("registryCredentials", () => {
  it("builds a basic header from a user name and a password file, dropping the trailing newline", async () => {
    const file = join(dir, "secret");
    await writeFile(file, `${SECRET}\n`);
    const credentials = await registryCredentials(
      config({ type: "basic", username: "KEY", passwordFile: file }),
      {},
    );
    const encoded = Buffer.from(`KEY:${SECRET}`).toString("base64");
    expect(credentials).toEqual({
      authorization: `Basic ${encoded}`,
      tls: undefined,
      secrets: [SECRET, encoded],
    });
  });

  it("builds a bearer header from an environment variable", async () => {
    const credentials = await registryCredentials(config({ type: "bearer", tokenEnv: "TOKEN" }), {
      TOKEN: "tok-123",
    });
    expect(credentials).toEqual({ authorization: "Bearer tok-123", tls: undefined, secrets: ["tok-123"] });
  });

  it("sends nothing without auth", async () => {
    expect(await registryCredentials(config(undefined), {})).toEqual({
      authorization: undefined,
      tls: undefined,
      secrets: [],
    });
  });

  it("names the missing variable, never a value", async () => {
    const message = await messageOf(
      registryCredentials(config({ type: "basic", usernameEnv: "SR_KEY", passwordEnv: "SR_SECRET" }), {
        SR_KEY: "KEY",
      }),
    );
    expect(message).toBe(
      "registries.main.auth.passwordEnv: the environment variable SR_SECRET (the registry password) is not set or empty",
    );
  });

  it("names an unreadable or empty secret file", async () => {
    const missing = join(dir, "nope");
    expect(await messageOf(registryCredentials(config({ type: "bearer", tokenFile: missing }), {}))).toMatch(
      new RegExp(
        `^registries\\.main\\.auth\\.tokenFile: cannot read the registry token file ${missing}: ENOENT`,
      ),
    );
    const empty = join(dir, "empty");
    await writeFile(empty, "\n");
    expect(await messageOf(registryCredentials(config({ type: "bearer", tokenFile: empty }), {}))).toBe(
      `registries.main.auth.tokenFile: the registry token file ${empty} is empty`,
    );
  });

  it("refuses a user name with a colon, which basic auth cannot carry", async () => {
    expect(
      await messageOf(
        registryCredentials(config({ type: "basic", username: "a:b", passwordEnv: "P" }), { P: SECRET }),
      ),
    ).toBe("registries.main.auth: the user name contains ':', which basic auth cannot carry");
  });

  it("reads the TLS files", async () => {
    const ca = join(dir, "ca.pem");
    await writeFile(ca, "CA PEM");
    const credentials = await registryCredentials(config(undefined, { ca, rejectUnauthorized: false }), {});
    expect(credentials.tls).toEqual({ rejectUnauthorized: false, ca: ["CA PEM"] });
  });
});

describe("redaction", () => {
  it("replaces every occurrence of every secret", () => {
    expect(redact(`a ${SECRET} b ${SECRET} c tok`, [SECRET, "tok"])).toBe(
      "a [redacted] b [redacted] c [redacted]",
    );
    expect(redact("nothing here", [])).toBe("nothing here");
  });

  let server: Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
    server = undefined;
  });

  it("keeps secrets a registry echoes out of the error", async () => {
    server = createServer((request, response) => {
      response.writeHead(500, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          error_code: 50001,
          message: `backend failed for ${request.headers["authorization"]} (${SECRET})`,
        }),
      );
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    const credentials = await registryCredentials(
      { ...config({ type: "basic", username: "KEY", passwordEnv: "P" }), url: `http://127.0.0.1:${port}` },
      { P: SECRET },
    );
    const http = new RegistryHttp({
      name: "main",
      url: `http://127.0.0.1:${port}`,
      timeout: 1_000,
      retries: 1,
      backoff: 1,
      credentials,
    });
    const message = await messageOf(http.get("/subjects"));
    expect(message).toBe(
      `registry 'main' (http://127.0.0.1:${port}): GET /subjects: HTTP 500: backend failed for Basic [redacted] ([redacted]) (2 attempts)`,
    );
    expect(http.requests).toBe(2);
    http.close();
  });
});
