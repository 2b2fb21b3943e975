import { createRequire } from "node:module";

/** kafkajs's per-connection request queue (kafkajs 2.2.x). */
const REQUEST_QUEUE_MODULE = "kafkajs/src/network/requestQueue/index.js";
const FIXED = Symbol.for("schemawatch.requestQueueIdleFix");

interface RequestQueueState {
  pending: unknown[];
  throttledUntil: number;
}

type Schedule = (this: RequestQueueState) => void;

/**
 * Stops kafkajs's request queues from waking up every millisecond while they have nothing to do.
 *
 * After every response, kafkajs 2.2.4 schedules a check of its pending requests at
 * `throttledUntil - Date.now()`; without throttling that is negative, Node runs it after 1 ms (and
 * prints a `TimeoutNegativeWarning`), and the check schedules the next one: about 1,700 timers a
 * second and 45 to 54 ms of CPU a second for an idle consumer here, against 5 ms without them
 * (kafkajs issues #1704 and #1751, open). The queue loses nothing by skipping the check when nothing
 * is pending and nothing is throttled: a request enqueued later schedules its own check (`push`),
 * and a throttled queue keeps kafkajs's own timer.
 */
export function installRequestQueueFix(): void {
  const require = createRequire(import.meta.url);
  const RequestQueue = require(REQUEST_QUEUE_MODULE) as { prototype?: Record<PropertyKey, unknown> };
  const prototype = RequestQueue.prototype;
  const original = prototype?.scheduleCheckPendingRequests;
  if (!prototype || typeof original !== "function") {
    throw new Error(`kafkajs layout changed: ${REQUEST_QUEUE_MODULE} has no scheduleCheckPendingRequests`);
  }
  if (prototype[FIXED] === true) return;
  const schedule = original as Schedule;
  prototype.scheduleCheckPendingRequests = function (this: RequestQueueState): void {
    if (this.pending.length === 0 && this.throttledUntil <= Date.now()) return;
    schedule.call(this);
  };
  prototype[FIXED] = true;
}
