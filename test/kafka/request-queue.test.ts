import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

import { installRequestQueueFix } from "../../src/kafka/request-queue.js";
import { waitFor } from "../helpers/wait.js";

installRequestQueueFix();

interface Queue {
  pending: unknown[];
  inflight: Map<number, unknown>;
  throttleCheckTimeoutId: unknown;
  checkPendingRequests(): void;
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
