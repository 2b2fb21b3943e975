// A lifecycle of the bundled `event` catalog (topic `events`) on a settable clock, and a replica's
// side of the state topic `sw-state` around it, for the unit tests of state-messages.ts.
import { UNDECODABLE } from "../../../src/kafka/patches/index.js";
import { Lifecycle, type LifecycleSubject } from "../../../src/lifecycle/lifecycle.js";
import { StateMessages, type StateRecord } from "../../../src/state/messages.js";
import { createLogger } from "../../../src/log.js";
import { eventPipeline } from "../../helpers/monitor.js";

export const T0 = Date.parse("2026-12-01T08:00:00Z");

export async function stateOf(replica = "replica-a") {
  const { pipeline } = await eventPipeline();
  const subject = pipeline.subjects.get("event")!;
  const s: LifecycleSubject = { subject: subject.subject, drainWindow: 60, readyWindow: 60, minSamples: 1 };
  let now = T0;
  const lifecycle = new Lifecycle([s], createLogger("silent"), () => now);
  const messages = new StateMessages(replica, "sw-state");
  const problems: string[] = [];
  /** Applies records as read after the first read to the end (`loading` false), or during it. */
  const apply = (records: StateRecord[], loading = false) => {
    for (const record of records) messages.apply(lifecycle, record, loading, (p) => problems.push(p));
  };
  const gaps = () =>
    lifecycle.coverage.gaps.map((g) => [`${g.topic}/${g.partition}`, g.reason, g.at, g.detail]);
  return { lifecycle, messages, problems, apply, gaps, setNow: (t: number) => (now = t) };
}

let offset = 0;

/** A record of the state topic: a key and a JSON value (a string as it is; null: a tombstone). */
export function rec(key: string | null, value: unknown): StateRecord {
  return {
    key: key === null ? null : Buffer.from(key),
    value: value === null ? null : Buffer.from(typeof value === "string" ? value : JSON.stringify(value)),
    offset: String(offset++),
  };
}

/** The decode guard's stand-in for a batch it could not decode, ending at `last`. */
export function undecodable(last: number): StateRecord {
  return Object.assign(rec(null, null), { offset: String(last), [UNDECODABLE]: { reason: "crc" } });
}

export const coverage = (
  topic: string,
  partition: number,
  coveredSince: number,
  lastOffset: string | null,
) => ({
  topic,
  partition,
  coveredSince,
  lastOffset,
  observedUntil: coveredSince + 1_000,
});

export const version = (lastDeclaredAt: number, lastDeclaredBy: string | null = "web") => ({
  lastDeclaredAt,
  lastDeclaredBy,
  undeclaredDependents: 0,
  lastUndeclaredAt: 0,
});

export const candidate = (samples: number, failures = 0) => ({
  samples,
  failures,
  samplesSinceFailure: failures ? 0 : samples,
  lastFailureAt: failures ? T0 : 0,
  producers: {
    web: {
      samples,
      failures,
      samplesSinceFailure: failures ? 0 : samples,
      lastFailureAt: failures ? T0 : 0,
      keyword: failures ? "required" : null,
      instancePath: failures ? "/amount" : null,
    },
  },
});

export const unreadableEntry = (records: number, reason = "not_json") => ({
  topic: "events",
  partition: 0,
  reason,
  records,
  firstAt: T0,
  lastAt: T0 + records,
});
