import { DEFAULTS } from "../../../src/config/defaults.js";
// The id resolver against a real Apicurio Registry (SCHEMA_REGISTRY_URL). What is asserted is how
// many requests reached the registry; Apicurio exposes no per-path request count, so a counting proxy
// of the test's own sits in front of it and every request passes through unchanged.
import { afterEach, describe, expect, it } from "vitest";

import { IdResolver, type IdAnswer } from "../../../src/registry/ids.js";
import {
  freshSubject,
  register,
  registryUrl,
  startProxy,
  testClient,
  type TestProxy,
} from "../../helpers/registry.js";

const url = registryUrl();
let proxy: TestProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

// Far above anything a fresh registry hands out in a test run.
const UNKNOWN_ID = 1_999_999_999;

describe("IdResolver against Apicurio", () => {
  it("answers a burst of 10 000 lookups of an unknown id with one request, then backs off", async () => {
    proxy = await startProxy(url);
    const client = testClient(proxy.url);
    let now = 1_000_000;
    const resolver = new IdResolver({ client, initialBackoff: 1_000, maxBackoff: 4_000, now: () => now });

    const burst = await Promise.all(Array.from({ length: 10_000 }, () => resolver.lookupId(UNKNOWN_ID)));
    expect(proxy.count(`/schemas/ids/${UNKNOWN_ID}`)).toBe(1);
    expect(proxy.requests.length).toBe(1);
    expect(new Set(burst).size).toBe(1);
    expect(burst[0]).toEqual({ status: "missing", retryAt: 1_001_000 });

    // Within the backoff every record gets the cached answer for nothing.
    for (let i = 0; i < 10_000; i++) resolver.request(UNKNOWN_ID);
    now += 999;
    expect(await resolver.lookupId(UNKNOWN_ID)).toEqual({ status: "missing", retryAt: 1_001_000 });
    expect(proxy.requests.length).toBe(1);

    // After it, one request more, and the backoff doubles: 1 s, 2 s, 4 s, capped at 4 s.
    now = 1_001_000;
    expect(await resolver.lookupId(UNKNOWN_ID)).toEqual({ status: "missing", retryAt: 1_003_000 });
    now = 1_003_000;
    expect(await resolver.lookupId(UNKNOWN_ID)).toEqual({ status: "missing", retryAt: 1_007_000 });
    now = 1_007_000;
    expect(await resolver.lookupId(UNKNOWN_ID)).toEqual({ status: "missing", retryAt: 1_011_000 });
    expect(proxy.count(`/schemas/ids/${UNKNOWN_ID}`)).toBe(4);
    expect(resolver.peek(UNKNOWN_ID)).toEqual({ status: "missing", retryAt: 1_011_000 });
    // Forgotten (the catalog learnt the id another way): the next lookup asks again at once.
    resolver.forgetId(UNKNOWN_ID);
    expect(resolver.peek(UNKNOWN_ID)).toBeUndefined();
    expect(await resolver.lookupId(UNKNOWN_ID)).toEqual({ status: "missing", retryAt: 1_008_000 });
    expect(proxy.requests.length).toBe(5);
    client.http.close();
  });

  it("finds an id registered after it was first missed, once, with the subject versions that use it", async () => {
    const subject = freshSubject("late");
    // Apicurio hands out content ids in sequence, and test files run one at a time: the id after a
    // probe's is the id the next new schema gets.
    const probe = await register(url, subject, { title: subject, type: "object", properties: { probe: {} } });
    const next = probe + 1;
    proxy = await startProxy(url);
    const client = testClient(proxy.url);
    let now = 0;
    const found: Array<[string, IdAnswer]> = [];
    const resolver = new IdResolver({
      client,
      now: () => now,
      onFound: (key, answer) => void found.push([key, answer]),
    });

    expect(await resolver.lookupId(next)).toEqual({ status: "missing", retryAt: 1_000 });
    const schema = { title: subject, type: "object", properties: { late: {} } };
    expect(await register(url, subject, schema)).toBe(next);
    // Still within the backoff: the cached miss, no request.
    expect(await resolver.lookupId(next)).toEqual({ status: "missing", retryAt: 1_000 });
    now = 1_000;
    const lookups = await Promise.all(Array.from({ length: 1_000 }, () => resolver.lookupId(next)));
    const answer: IdAnswer = {
      schema: { id: next, schemaType: "JSON", schema: JSON.stringify(schema), references: [] },
      usedBy: [{ subject, version: 2 }],
    };
    expect(new Set(lookups).size).toBe(1);
    expect(lookups[0]).toEqual({ status: "found", answer });
    // One request for the miss; then one for the schema and one for the versions that use it.
    expect(proxy.requests.map((r) => r.replace(String(next), "ID"))).toEqual([
      "GET /apis/ccompat/v7/schemas/ids/ID",
      "GET /apis/ccompat/v7/schemas/ids/ID",
      "GET /apis/ccompat/v7/schemas/ids/ID/versions?deleted=true",
    ]);
    // A found id stays found: no request however late.
    now += 10_000_000;
    expect(await resolver.lookupId(next)).toEqual({ status: "found", answer });
    expect(proxy.requests.length).toBe(3);
    expect(found).toEqual([[`id:${next}`, answer]]);
    client.http.close();
  });

  it("stops asking for GUIDs where the registry serves no /schemas/guids (Apicurio)", async () => {
    proxy = await startProxy(url);
    const client = testClient(proxy.url);
    const resolver = new IdResolver({ client });
    expect(await resolver.lookupGuid("5e2d3a0c-4b8e-4d8f-9f1a-0123456789ab")).toEqual({
      status: "unsupported",
    });
    expect(await resolver.lookupGuid("6f3e4b1d-5c9f-4e90-8a2b-123456789abc")).toEqual({
      status: "unsupported",
    });
    expect(proxy.requests).toEqual([
      "GET /apis/ccompat/v7/schemas/guids/5e2d3a0c-4b8e-4d8f-9f1a-0123456789ab",
    ]);
    client.http.close();
  });

  it("requests a GUID the per-record way once, counting how the lookups ended", async () => {
    proxy = await startProxy(url);
    // The monitor's default retries: Apicurio closed a fresh GUID connection without an answer once in
    // CI (an error at once, see client.test.ts); a retry is the same lookup, not a request of its own.
    const client = testClient(proxy.url, { retries: DEFAULTS.registry.retries });
    const resolver = new IdResolver({ client });
    for (let i = 0; i < 1000; i++) resolver.requestGuid("7a4f5c2e-6d0a-4f01-9b3c-23456789abcd");
    // The lookup in flight, shared: no request of its own.
    expect(await resolver.lookupGuid("7a4f5c2e-6d0a-4f01-9b3c-23456789abcd")).toEqual({
      status: "unsupported",
    });
    for (let i = 0; i < 1000; i++) resolver.requestGuid("8b5a6d3f-7e1b-4012-8c4d-3456789abcde");
    expect([...new Set(proxy.requests)]).toEqual([
      "GET /apis/ccompat/v7/schemas/guids/7a4f5c2e-6d0a-4f01-9b3c-23456789abcd",
    ]);
    expect(proxy.requests.length).toBe(client.http.requests);
    expect(client.http.requests).toBeLessThanOrEqual(1 + DEFAULTS.registry.retries);
    expect(resolver.results).toEqual({ found: 0, missing: 0, failed: 0, unsupported: 1 });
    client.http.close();
  });

  it("looks Apicurio's globalIds and contentIds up through its native search, one request per id", async () => {
    // The same schema under two subjects: one contentId, a globalId each.
    const first = freshSubject("native-a");
    const second = freshSubject("native-b");
    const schema = {
      $schema: "http://json-schema.org/draft-07/schema#",
      $id: `https://example.com/${first}.json`,
      type: "object",
      properties: { id: { type: "string" } },
    };
    await register(url, first, schema);
    await register(url, second, schema);
    const base = url.replace(/\/apis\/ccompat\/v\d+$/, "/apis/registry/v3");
    const ids = (await (await fetch(`${base}/groups/default/artifacts/${second}/versions/1`)).json()) as {
      globalId: number;
      contentId: number;
    };

    proxy = await startProxy(url);
    const client = testClient(proxy.url);
    let now = 5_000;
    const found: string[] = [];
    const resolver = new IdResolver({
      client,
      initialBackoff: 1_000,
      now: () => now,
      onFound: (key, answer) => void found.push(`${key} ${JSON.stringify(answer.usedBy)}`),
    });
    expect(await resolver.lookupNative("globalId", ids.globalId)).toEqual({
      status: "found",
      answer: { usedBy: [{ subject: second, version: 1 }] },
    });
    const byContent = await resolver.lookupNative("contentId", ids.contentId);
    expect(byContent.status).toBe("found");
    const usedBy = byContent.status === "found" ? byContent.answer.usedBy : [];
    expect([...usedBy].sort((a, b) => a.subject.localeCompare(b.subject))).toEqual([
      { subject: first, version: 1 },
      { subject: second, version: 1 },
    ]);
    // A burst of one unknown globalId costs one request, then backs off as a wire id does.
    for (let i = 0; i < 1000; i++) resolver.requestNative("globalId", UNKNOWN_ID);
    expect(await resolver.lookupNative("globalId", UNKNOWN_ID)).toEqual({
      status: "missing",
      retryAt: 6_000,
    });
    now = 5_999;
    expect(resolver.requestNative("globalId", UNKNOWN_ID)).toBeUndefined();
    expect(proxy.requests).toEqual([
      "GET /apis/registry/v3/system/info",
      `GET /apis/registry/v3/search/versions?globalId=${ids.globalId}&limit=100`,
      `GET /apis/registry/v3/search/versions?contentId=${ids.contentId}&limit=100`,
      `GET /apis/registry/v3/search/versions?globalId=${UNKNOWN_ID}&limit=100`,
    ]);
    expect(resolver.results).toEqual({ found: 2, missing: 1, failed: 0, unsupported: 0 });
    expect(found).toEqual([
      `globalId:${ids.globalId} ${JSON.stringify([{ subject: second, version: 1 }])}`,
      `contentId:${ids.contentId} ${JSON.stringify(usedBy)}`,
    ]);
    client.http.close();
  });

  it("answers Apicurio ids unsupported, without a request, where the registry has no native API", async () => {
    proxy = await startProxy(url);
    // Not a ccompat URL: a Confluent registry, say.
    const client = testClient(proxy.url.replace(/\/apis\/ccompat\/v\d+$/, ""));
    const resolver = new IdResolver({ client });
    expect(await resolver.lookupNative("globalId", 7)).toEqual({ status: "unsupported" });
    expect(resolver.requestNative("contentId", 8)).toBeUndefined();
    expect(proxy.requests).toEqual([]);
    client.http.close();
  });

  it("backs off a registry that does not answer, without calling the id missing", async () => {
    const client = testClient("http://127.0.0.1:9/apis/ccompat/v7", { name: "down" });
    let now = 0;
    const resolver = new IdResolver({ client, initialBackoff: 500, now: () => now });
    const lookups = await Promise.all(Array.from({ length: 100 }, () => resolver.lookupId(7)));
    expect(lookups[0]).toEqual({ status: "failed", retryAt: 500, code: "REGISTRY_UNAVAILABLE" });
    expect(client.http.requests).toBe(1);
    now = 499;
    await resolver.lookupId(7);
    expect(client.http.requests).toBe(1);
    client.http.close();
  });
});
