import { createRequire } from "node:module";
import { PRIVATE_MODULES } from "./kafkajs.js";

const REQUEST_QUEUE_MODULE = PRIVATE_MODULES.requestQueue;
const FIXED = Symbol.for("schemawatch.requestQueueIdleFix");
/** kafkajs's CHECK_PENDING_REQUESTS_INTERVAL: how soon a queue full of in-flight requests looks again. */
const PENDING_RECHECK_MS = 10;

interface RequestQueueState {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: ReturnType<typeof setTimeout> | null;
  checkPendingRequests(): void;
}

/**
 * Stops kafkajs's request queues from waking up every millisecond while they have nothing to do, and
 * from ever asking Node for a negative timer.
 *
 * After every response, kafkajs 2.2.4 schedules a check of its pending requests at
 * `throttledUntil - Date.now()`; without throttling `throttledUntil` is -1, so the delay is minus the
 * epoch: Node runs it after 1 ms, prints a `TimeoutNegativeWarning` (Node 24, once a process, on the
 * first response of any client, `demo-produce` included), and the check schedules the next one: about
 * 1,700 timers a second and 45 to 54 ms of CPU a second for an idle consumer here, against 5 ms
 * without them (kafkajs issues #1704 and #1751, open). The replacement computes the delay once and
 * schedules nothing when nothing is pending and nothing is throttled: a request enqueued later
 * schedules its own check (`push`), a throttled queue checks when the throttle ends, and a queue with
 * pending requests re-checks after kafkajs's own 10 ms.
 */
export function installRequestQueueFix(): void {
  const require = createRequire(import.meta.url);
  const RequestQueue = require(REQUEST_QUEUE_MODULE) as { prototype?: Record<PropertyKey, unknown> };
  const prototype = RequestQueue.prototype;
  if (!prototype || typeof prototype.scheduleCheckPendingRequests !== "function") {
    throw new Error(`kafkajs layout changed: ${REQUEST_QUEUE_MODULE} has no scheduleCheckPendingRequests`);
  }
  if (prototype[FIXED] === true) return;
  prototype.scheduleCheckPendingRequests = function (this: RequestQueueState): void {
    // one check at a time, as in kafkajs: the check that runs schedules the next one if needed
    if (this.throttleCheckTimeoutId) return;
    const throttledFor = this.throttledUntil - Date.now();
    if (this.pending.length === 0 && throttledFor <= 0) return;
    const delay = throttledFor > 0 ? throttledFor : PENDING_RECHECK_MS;
    this.throttleCheckTimeoutId = setTimeout(() => {
      this.throttleCheckTimeoutId = null;
      this.checkPendingRequests();
    }, delay);
  };
  prototype[FIXED] = true;
}

/** Whether kafkajs's request queues schedule their checks as installRequestQueueFix makes them. */
export function isRequestQueueFixed(): boolean {
  const require = createRequire(import.meta.url);
  const RequestQueue = require(REQUEST_QUEUE_MODULE) as { prototype?: Record<PropertyKey, unknown> };
  return RequestQueue.prototype?.[FIXED] === true;
}
