// Authenticated registries against a real Apicurio Registry (SCHEMA_REGISTRY_URL). Apicurio's own
// basic auth needs an OIDC server to check credentials against, which cannot run here, so a small
// authenticating proxy of the test's own sits in front of the real registry: it answers 401 unless the
// Authorization header is the expected one, and forwards everything else unchanged.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import type { RegistryConfig } from "../../../src/config/types.js";
import { defaultLookups } from "../../../src/config/registries.js";
import { connectRegistry } from "../../../src/registry/connect.js";
import { SnapshotReader } from "../../../src/registry/snapshot.js";
import { freshSubject, register, registryUrl, startProxy, type TestProxy } from "../../helpers/registry.js";

const url = registryUrl();
const KEY = "SWKEY7QX";
const SECRET = "cflt-S3cr3t/with+chars==";
const TOKEN = "eyJhbGciOi.test-token.S1gn";

let dir = "";
let proxy: TestProxy | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "sw-registry-auth-"));
});
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** A proxy that lets through only requests carrying `expected` as their Authorization header. */
function guarded(expected: string): Promise<TestProxy> {
  return startProxy(url, (request, response) => {
    if (request.headers["authorization"] === expected) return true;
    // Like some registries do, echo what was sent: the client must scrub it from its error.
    const sent = request.headers["authorization"] ?? "nothing";
    response.writeHead(401, { "content-type": "application/json" });
    response.end(JSON.stringify({ error_code: 40101, message: `Unauthorized: got ${sent}` }));
    return false;
  });
}

function config(proxyUrl: string, auth: RegistryConfig["auth"]): RegistryConfig {
  return {
    name: "cloud",
    url: proxyUrl,
    ...(auth ? { auth } : {}),
    pollInterval: 30_000,
    timeout: 5_000,
    retries: 0,
    ...defaultLookups(),
  };
}

describe("an authenticated registry", () => {
  it("reads with basic auth whose secret comes from a file (a Confluent Cloud API key and secret)", async () => {
    const subject = freshSubject("auth");
    const id = await register(url, subject, { title: subject, type: "object", properties: { a: {} } });
    proxy = await guarded(`Basic ${Buffer.from(`${KEY}:${SECRET}`).toString("base64")}`);
    const secretFile = join(dir, "secret");
    await writeFile(secretFile, `${SECRET}\n`);
    const client = await connectRegistry(
      config(proxy.url, { type: "basic", usernameEnv: "SR_KEY", passwordFile: secretFile }),
      { SR_KEY: KEY },
    );
    const snapshot = await new SnapshotReader("cloud", client).read(subject);
    expect(snapshot.versions.map((v) => [v.version, v.id])).toEqual([[1, id]]);
    // Two version lists, the native API probe and states, the level, version 1: all let through.
    expect(proxy.requests.length).toBe(6);
    client.http.close();
  });

  it("reads with a bearer token from an environment variable", async () => {
    const subject = freshSubject("bearer");
    await register(url, subject, { title: subject, type: "object", properties: { a: {} } });
    proxy = await guarded(`Bearer ${TOKEN}`);
    const client = await connectRegistry(config(proxy.url, { type: "bearer", tokenEnv: "SR_TOKEN" }), {
      SR_TOKEN: TOKEN,
    });
    expect(await client.versions(subject)).toEqual([1]);
    client.http.close();
  });

  it("says the credentials were refused, naming the key to check and never the secret", async () => {
    proxy = await guarded(`Basic ${Buffer.from(`${KEY}:${SECRET}`).toString("base64")}`);
    const wrong = "wrong-S3cr3t-value";
    const client = await connectRegistry(
      config(proxy.url, { type: "basic", username: KEY, passwordEnv: "SR_SECRET" }),
      {
        SR_SECRET: wrong,
      },
    );
    const error = await client.subjects().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "REGISTRY_UNAUTHORIZED", status: 401, errorCode: 40101 });
    const message = (error as Error).message;
    expect(message).toBe(
      `registry 'cloud' (${proxy.url}): GET /subjects: HTTP 401: Unauthorized: got Basic [redacted]; check registries.cloud.auth (the credentials were refused or are missing)`,
    );
    expect(message).not.toContain(wrong);
    expect(message).not.toContain(Buffer.from(`${KEY}:${wrong}`).toString("base64"));
    // Without credentials at all, the same answer, and nothing to redact.
    const anonymous = await connectRegistry(config(proxy.url, undefined), {});
    await expect(anonymous.subjects()).rejects.toMatchObject({ code: "REGISTRY_UNAUTHORIZED" });
    client.http.close();
    anonymous.http.close();
  });
});
