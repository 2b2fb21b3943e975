import { createRequire } from "node:module";
import { afterEach, describe, expect, it, vi } from "vitest";

import { installRequestQueueFix } from "../../../../src/kafka/patches/request-queue.js";
import { waitFor } from "../../../helpers/wait.js";

installRequestQueueFix();

interface Queue {
  pending: unknown[];
  inflight: Map<number, unknown>;
  throttleCheckTimeoutId: unknown;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
  maybeThrottle(ms: number): void;
  push(request: unknown): void;
  destroy(): void;
}

const require = createRequire(import.meta.url);
const RequestQueue = require("kafkajs/src/network/requestQueue/index.js") as new (options: object) => Queue;
const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

function queue(): Queue {
  return new RequestQueue({
    clientId: "test",
    broker: "127.0.0.1:1",
    logger: silent,
    requestTimeout: 30_000,
  });
}

function request(correlationId: number, sent: number[]): object {
  return {
    entry: { correlationId, apiKey: 1, apiName: "Fetch", apiVersion: 11 },
    expectResponse: true,
    sendRequest: () => sent.push(correlationId),
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("kafkajs's request queue, idle", () => {
  it("schedules nothing when nothing is pending and nothing is throttled", () => {
    const q = queue();
    // What kafkajs does after every response: without the fix this sets a 1 ms timer, forever.
    q.checkPendingRequests();
    expect(q.throttleCheckTimeoutId).toBe(null);
    q.destroy();
  });

  it("still sends a request that waited for a throttle to end, once it ends", async () => {
    const q = queue();
    const sent: number[] = [];
    q.maybeThrottle(30);
    q.push(request(7, sent));
    expect(sent).toEqual([]);
    expect(q.pending.length).toBe(1);
    expect(q.throttleCheckTimeoutId).not.toBe(null);
    await waitFor(() => sent.length > 0, "the throttled request to be sent");
    expect(sent).toEqual([7]);
    expect(q.pending.length).toBe(0);
    expect(q.throttleCheckTimeoutId).toBe(null);
    q.destroy();
  });

  it("never asks Node for a negative timer: Node 24 would print a TimeoutNegativeWarning", () => {
    const timers = vi.spyOn(globalThis, "setTimeout");
    const idle = queue();
    // what kafkajs does after every response
    idle.checkPendingRequests();
    // a request waiting behind a full pipe, not throttled: kafkajs's own 10 ms re-check
    const waiting = queue();
    waiting.pending.push({});
    waiting.scheduleCheckPendingRequests();
    // throttled by the broker for 50 ms: a check when the throttle ends
    const throttled = queue();
    throttled.maybeThrottle(50);
    throttled.scheduleCheckPendingRequests();
    const delays = timers.mock.calls.map((call) => call[1] ?? 0);
    expect(delays).toHaveLength(2);
    expect(delays[0]).toBe(10);
    expect(delays[1]).toBeGreaterThan(0);
    expect(delays[1]).toBeLessThanOrEqual(50);
    for (const q of [idle, waiting, throttled]) {
      q.pending.length = 0;
      q.destroy();
    }
  });

  it("is installed once however often it is asked", () => {
    const before = (RequestQueue as unknown as { prototype: { scheduleCheckPendingRequests: unknown } })
      .prototype.scheduleCheckPendingRequests;
    installRequestQueueFix();
    expect(
      (RequestQueue as unknown as { prototype: { scheduleCheckPendingRequests: unknown } }).prototype
        .scheduleCheckPendingRequests,
    ).toBe(before);
  });
});
