// The bounds on id lookups, pure: the limiter and the resolver's memory with an injected clock and a
// registry stub that answers at once. What reaches a real registry is in lookups.test.ts.
import { describe, expect, it } from "vitest";

import type { SchemaById, SubjectVersion } from "../../../src/registry/client.js";
import { RegistryError } from "../../../src/registry/http.js";
import { IdResolver } from "../../../src/registry/ids.js";
import { LookupLimiter } from "../../../src/registry/limiter.js";

/** A registry that knows the ids in `known` and answers 404 (Confluent 40403) for every other. */
function stubRegistry(known: ReadonlySet<number> = new Set()) {
  const asked: number[] = [];
  const client = {
    schemaById(id: number): Promise<SchemaById> {
      asked.push(id);
      if (known.has(id)) return Promise.resolve({ id, schemaType: "JSON", schema: "{}", references: [] });
      return Promise.reject(
        new RegistryError("REGISTRY_NOT_FOUND", `schema ${id} not found`, { status: 404, errorCode: 40403 }),
      );
    },
    subjectVersionsById(): Promise<SubjectVersion[]> {
      return Promise.resolve([{ subject: "s-value", version: 1 }]);
    },
    schemaByGuid(): Promise<SchemaById | undefined> {
      return Promise.resolve(undefined);
    },
  };
  return { client, asked };
}

describe("LookupLimiter", () => {
  it("lets at most inFlight lookups run at once", () => {
    const limiter = new LookupLimiter({ inFlight: 2, perSecond: 100, now: () => 0 });
    expect([limiter.tryAcquire(), limiter.tryAcquire(), limiter.tryAcquire()]).toEqual([true, true, false]);
    expect(limiter.running).toBe(2);
    limiter.release();
    expect([limiter.tryAcquire(), limiter.tryAcquire()]).toEqual([true, false]);
  });

  it("starts at most perSecond lookups a second, refilling with the clock, never past one second's worth", () => {
    let now = 1_000;
    const limiter = new LookupLimiter({ inFlight: 100, perSecond: 4, now: () => now });
    const take = (n: number) => {
      let taken = 0;
      for (let i = 0; i < n; i++) {
        if (limiter.tryAcquire()) {
          taken++;
          limiter.release();
        }
      }
      return taken;
    };
    expect(take(10)).toBe(4);
    now += 250;
    expect(take(10)).toBe(1);
    now += 499;
    expect(take(10)).toBe(1);
    // A quiet minute refills one second's worth, not sixty.
    now += 60_000;
    expect(take(100)).toBe(4);
    // A clock that goes back gives nothing and takes nothing.
    now -= 5_000;
    expect(take(10)).toBe(0);
    now += 500;
    expect(take(10)).toBe(2);
  });
});

describe("IdResolver bounds", () => {
  it("skips lookups past the bounds without remembering the id, and counts them exactly", async () => {
    let now = 0;
    const { client, asked } = stubRegistry();
    const resolver = new IdResolver({ client, inFlight: 2, perSecond: 3, now: () => now });
    // Records of 10 distinct unknown ids at once: two lookups go out, eight are skipped.
    const pending = Array.from({ length: 10 }, (_, i) => resolver.request(100 + i));
    expect(pending.filter((p) => p !== undefined)).toHaveLength(2);
    expect(resolver.skipped).toBe(8);
    expect(resolver.size.ids).toBe(2);
    // A record of an id being looked up waits for that lookup: neither a request nor a skip.
    expect(resolver.request(100)).toBe(pending[0]);
    expect(resolver.skipped).toBe(8);
    await Promise.all(pending);
    expect(resolver.results).toEqual({ found: 0, missing: 2, failed: 0, unsupported: 0 });
    // The slots are free, one token is left this second: one more lookup, then skips again.
    expect(resolver.request(102)).toBeDefined();
    expect(resolver.request(103)).toBeUndefined();
    expect(resolver.skipped).toBe(9);
    now += 1_000;
    await resolver.request(103);
    // Every distinct id was asked for at most once, and every record was a request or a skip.
    expect(asked).toEqual([100, 101, 102, 103]);
    expect(resolver.results.missing + resolver.skipped).toBe(4 + 9);
  });

  it("keeps a miss as a negative answer until it expires, then asks again with a doubled backoff", async () => {
    let now = 0;
    const { client, asked } = stubRegistry();
    const resolver = new IdResolver({ client, initialBackoff: 1_000, maxBackoff: 8_000, now: () => now });
    await resolver.request(7);
    expect(resolver.peek(7)).toEqual({ status: "missing", retryAt: 1_000 });
    // Within the expiry: no request, no lookup in flight to wait for, nothing skipped.
    now = 999;
    expect(resolver.request(7)).toBeUndefined();
    expect(asked).toEqual([7]);
    expect(resolver.skipped).toBe(0);
    now = 1_000;
    await resolver.request(7);
    expect(resolver.peek(7)).toEqual({ status: "missing", retryAt: 3_000 });
    expect(asked).toEqual([7, 7]);
  });

  it("remembers at most lookupCache ids after 100 000 distinct ids, all of them looked up", async () => {
    let now = 0;
    const { client, asked } = stubRegistry(new Set([5, 99_999]));
    const resolver = new IdResolver({
      client,
      maxEntries: 1_000,
      inFlight: 6,
      perSecond: 1_000,
      now: () => now,
      onFound: () => undefined,
    });
    let largest = 0;
    for (let id = 0; id < 100_000; id++) {
      // A second per id: the rate never refuses one, so every id is remembered before it is evicted.
      now += 1_000;
      await resolver.request(id);
      largest = Math.max(largest, resolver.size.ids);
    }
    expect(asked).toHaveLength(100_000);
    expect(resolver.skipped).toBe(0);
    expect(largest).toBe(1_000);
    expect(resolver.size).toEqual({ ids: 1_000, guids: 0 });
    expect(resolver.results).toEqual({ found: 2, missing: 99_998, failed: 0, unsupported: 0 });
    // The newest are the ones kept; the oldest were forgotten.
    expect(resolver.peek(99_999)?.status).toBe("found");
    expect(resolver.peek(5)).toBeUndefined();
  });

  it("remembers a lookup that failed by its error's code, not the error with its cause and stacks", async () => {
    const refused = new Error("connect ECONNREFUSED 127.0.0.1:9");
    const errors = [
      new RegistryError("REGISTRY_UNAVAILABLE", "GET /schemas/ids/7: connect ECONNREFUSED", {
        cause: refused,
      }),
      new TypeError("not a registry error"),
    ];
    const client = {
      ...stubRegistry().client,
      schemaById: () => Promise.reject(errors.shift()!),
    };
    const resolver = new IdResolver({ client, initialBackoff: 500, now: () => 0 });
    expect(await resolver.lookupId(7)).toEqual({
      status: "failed",
      retryAt: 500,
      code: "REGISTRY_UNAVAILABLE",
    });
    expect(await resolver.lookupId(8)).toEqual({ status: "failed", retryAt: 500, code: undefined });
    // What stays until the id is forgotten: ~280 bytes an id, where the error held ~1.8 KB.
    expect(resolver.peek(7)).toEqual({ status: "failed", retryAt: 500, code: "REGISTRY_UNAVAILABLE" });
    expect(Object.keys(resolver.peek(8)!)).toEqual(["status", "retryAt", "code"]);
    expect(resolver.results).toEqual({ found: 0, missing: 0, failed: 2, unsupported: 0 });
  });

  it("stays within lookupCache under a flood at the default bounds, skipping what it cannot send", async () => {
    let now = 0;
    const { client, asked } = stubRegistry();
    const resolver = new IdResolver({ client, maxEntries: 500, now: () => now });
    let largest = 0;
    for (let id = 0; id < 100_000; id++) {
      // 2 000 distinct ids a second, as the flood of issue 16 sent them: 50 s in all.
      now = Math.floor(id / 2);
      const pending = resolver.request(1_000_000 + id);
      if (pending !== undefined) await pending;
      largest = Math.max(largest, resolver.size.ids);
    }
    // 10 lookups at the start, then one per 100 ms for the 49.999 s that followed: 499. The rest
    // were skipped, each counted.
    expect(asked.length).toBe(509);
    expect(resolver.skipped).toBe(100_000 - 509);
    expect(largest).toBe(500);
  });
});
