import type { Message } from "kafkajs";
import type { HistoryShare } from "../history/share.js";
import { stateKey } from "./records.js";

// The state topic's records of the traffic history (`history/<subject>/<index>/<replica>`): what one
// means to this replica and the records it publishes. shared.ts hands each such record here.

const UNREADABLE_HISTORY = "is unreadable: left out of the traffic history";

/**
 * `history/<subject>/<index>/<replica>` (null: a tombstone): a previous run's of this replica, read on
 * start, becomes its own; another replica's is kept apart and drawn with its own. The problem when
 * unreadable (no window restarts: the history is no verdict's evidence).
 */
export function readHistoryRecord(
  share: HistoryShare | undefined,
  replica: string,
  parts: readonly string[],
  value: unknown,
  loading: boolean,
): string | undefined {
  const [, subject, index, from] = parts as [string, string, string, string];
  const own = from === replica;
  if (!share || (own && !loading)) return undefined;
  if (!/^\d+$/.test(index)) return UNREADABLE_HISTORY;
  return share.apply(from, own, subject, Number(index), value) ? undefined : UNREADABLE_HISTORY;
}

/** This replica's history buckets that changed since last sent, and tombstones for those that left the ring. */
export function historyMessages(share: HistoryShare | undefined, replica: string): Message[] {
  return (share?.records() ?? []).map(({ parts, value }) => ({
    key: stateKey("history", ...parts, replica),
    value,
  }));
}
