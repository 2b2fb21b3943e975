import type { Message } from "kafkajs";
import { describe, expect, it } from "vitest";
import { TrafficHistory } from "../../../src/history/history.js";
import { HistoryShare } from "../../../src/history/share.js";
import { StateMessages } from "../../../src/state/messages.js";
import { rec, stateOf } from "./fixture.js";

// The state topic's `history/<subject>/<index>/<replica>` records, through a replica's StateMessages.

const problem = (key: string, what: string) => `state topic sw-state: record ${key} ${what}`;
const historyOf = (messages: Message[]) =>
  messages.filter((m) => String(m.key).startsWith("history/")).map((m) => [m.key, m.value]);

async function withHistory() {
  const state = await stateOf();
  const history = new TrafficHistory({ buckets: 4, now: () => 100_500 });
  const share = new HistoryShare(history);
  const messages = new StateMessages("replica-a", "sw-state", undefined, undefined, share);
  const problems: string[] = [];
  const apply = (records: ReturnType<typeof rec>[], loading = false) =>
    records.forEach((r) => messages.apply(state.lifecycle, r, loading, (p) => problems.push(p)));
  return { ...state, history, share, messages, apply, problems };
}

const value = { bucketMs: 1_000, versions: [["web", "1.1.0", 3]], fields: [] };

describe("history records of the state topic", () => {
  it("another replica's bucket is drawn, its tombstone takes it back; an unreadable one is reported, never a coverage gap", async () => {
    const { share, apply, problems, gaps } = await withHistory();
    apply([rec("history/event/100/replica-b", value)]);
    expect(share.view("event")!.versions).toEqual([
      { producer: "web", version: "1.1.0", records: [0, 0, 0, 3] },
    ]);
    apply([rec("history/event/100/replica-b", null)]);
    expect(share.view("event")).toBeUndefined();
    apply([
      rec("history/event/1x/replica-b", value),
      rec("history/event/100/replica-b", { ...value, fields: 3 }),
    ]);
    const left = "is unreadable: left out of the traffic history";
    expect(problems).toEqual([
      problem("history/event/1x/replica-b", left),
      problem("history/event/100/replica-b", left),
    ]);
    expect(gaps()).toEqual([]);
  });

  it("its own previous run's buckets, read on start, become its own; its own publish coming back later is nothing", async () => {
    const { history, share, apply } = await withHistory();
    apply([rec("history/event/100/replica-a", value)], true);
    share.loaded();
    apply([rec("history/event/100/replica-a", { ...value, versions: [["web", "1.1.0", 50]] })]);
    expect(history.view("event")!.versions).toEqual([
      { producer: "web", version: "1.1.0", records: [0, 0, 0, 3] },
    ]);
  });

  it("the full publish carries the buckets that changed, keyed by subject, index and replica", async () => {
    const { lifecycle, history, messages } = await withHistory();
    history.adopt("event", 1_000, 100, { versions: [["web", "1.1.0", 2]], fields: [] });
    expect(historyOf(messages.publishMessages(lifecycle, []))).toEqual([
      [
        "history/event/100/replica-a",
        JSON.stringify({ bucketMs: 1_000, versions: [["web", "1.1.0", 2]], fields: [] }),
      ],
    ]);
    expect(historyOf(messages.publishMessages(lifecycle, []))).toEqual([]);
  });
});
