import { hostname } from "node:os";
import { describe, expect, it } from "vitest";
import type { Message } from "kafkajs";
import { SerialSender, StateMessages } from "../../../src/state/messages.js";
import { StateTopic, replicaId } from "../../../src/state/topic.js";
import { createLogger } from "../../../src/log.js";
import { T0, candidate, coverage, stateOf, unreadableEntry } from "./fixture.js";

// What a replica publishes to the shared state topic (StateMessages), the order its sends go out in
// (SerialSender), and what the state topic does before it is opened.

const text = (messages: Message[]) => messages.map((m) => [m.key, m.value]);
const versionJson = (at: number, by: string) =>
  `{"lastDeclaredAt":${at},"lastDeclaredBy":"${by}","undeclaredDependents":0,"lastUndeclaredAt":0}`;
const unreadableJson = (records: number) =>
  `[{"topic":"events","partition":0,"reason":"not_json","records":${records},"firstAt":${T0},"lastAt":${T0 + records}}]`;

/** Replica-a's evidence: two versions declared, a candidate, unreadable records. */
async function withEvidence() {
  const state = await stateOf();
  const { lifecycle } = state;
  lifecycle.declared("event", "1.0.0", "web", T0 + 1);
  lifecycle.declared("event", "1.1.0", "mobile", T0 + 2);
  Object.assign(lifecycle.candidate("event", "2.0.0"), candidate(3));
  lifecycle.restoreUnreadable("event", [unreadableEntry(2)]);
  return state;
}

describe("a full publish", () => {
  it("is the owned partitions' coverage, every version, the candidates, the unreadable records and the start", async () => {
    const { lifecycle, messages } = await withEvidence();
    const owned = [coverage("events", 0, T0 - 5_000, "41"), coverage("a/b", 3, T0 - 6_000, null)];
    expect(text(messages.publishMessages(lifecycle, owned))).toEqual([
      [
        "coverage/events/0",
        `{"owner":"replica-a","coverage":{"topic":"events","partition":0,"coveredSince":${T0 - 5_000},"lastOffset":"41","observedUntil":${T0 - 4_000}}}`,
      ],
      [
        "coverage/a%2Fb/3",
        `{"owner":"replica-a","coverage":{"topic":"a/b","partition":3,"coveredSince":${T0 - 6_000},"lastOffset":null,"observedUntil":${T0 - 5_000}}}`,
      ],
      ["version/event/1.0.0", versionJson(T0 + 1, "web")],
      ["version/event/1.1.0", versionJson(T0 + 2, "mobile")],
      ["candidate/event/2.0.0/replica-a", JSON.stringify(candidate(3))],
      ["unreadable/event/replica-a", unreadableJson(2)],
      ["meta/started/replica-a", `{"startedAt":${T0},"fields":true}`],
      ["meta/alive/replica-a", `{"at":${T0}}`],
    ]);
  });

  it("marks a partition still caught up on, and a revocation's last word marks every one given up", async () => {
    const { lifecycle, messages, setNow } = await stateOf();
    // assigned with a backlog: catching up until a batch reaches the high watermark
    lifecycle.coverage.assigned(new Map([["events", [0, 1]]]), T0);
    setNow(T0 + 1_000);
    lifecycle.coverage.processed("events", 1, "0", "4", T0 + 1_000, "5");
    expect(text(messages.publishMessages(lifecycle, lifecycle.coverage.owned())).slice(0, 2)).toEqual([
      [
        "coverage/events/0",
        `{"owner":"replica-a","catchingUp":true,"coverage":{"topic":"events","partition":0,"coveredSince":${T0},"lastOffset":null,"observedUntil":${T0}}}`,
      ],
      [
        "coverage/events/1",
        `{"owner":"replica-a","coverage":{"topic":"events","partition":1,"coveredSince":${T0},"lastOffset":"4","observedUntil":${T0 + 1_000}}}`,
      ],
    ]);
    expect(
      text(messages.coverageMessages(lifecycle.coverage.owned(), () => ({ released: true }))).map(([, v]) =>
        JSON.parse(v as string),
      ),
    ).toMatchObject([
      { owner: "replica-a", released: true, coverage: { partition: 0 } },
      { owner: "replica-a", released: true, coverage: { partition: 1 } },
    ]);
  });

  it("of a replica with no evidence is its start only; names are URI-encoded in keys", async () => {
    const { lifecycle } = await stateOf();
    const messages = new StateMessages("pod/7", "sw-state");
    expect(text(messages.publishMessages(lifecycle, []))).toEqual([
      ["meta/started/pod%2F7", `{"startedAt":${T0},"fields":true}`],
      ["meta/alive/pod%2F7", `{"at":${T0}}`],
    ]);
    expect(text(messages.coverageMessages([coverage("events", 1, T0, "2")]))).toEqual([
      [
        "coverage/events/1",
        `{"owner":"pod/7","coverage":{"topic":"events","partition":1,"coveredSince":${T0},"lastOffset":"2","observedUntil":${T0 + 1_000}}}`,
      ],
    ]);
  });

  it("sends every version and unreadable list again, changed or not", async () => {
    const { lifecycle, messages } = await withEvidence();
    messages.publishMessages(lifecycle, []);
    expect(text(messages.publishMessages(lifecycle, [])).map(([key]) => key)).toEqual([
      "version/event/1.0.0",
      "version/event/1.1.0",
      "candidate/event/2.0.0/replica-a",
      "unreadable/event/replica-a",
      "meta/started/replica-a",
      "meta/alive/replica-a",
    ]);
  });
});

describe("between full publishes", () => {
  it("only the versions and unreadable lists whose value changed since last sent go out, with the heartbeat every time", async () => {
    const { lifecycle, messages, setNow } = await withEvidence();
    const alive = (at: number) => ["meta/alive/replica-a", `{"at":${at}}`];
    // nothing sent yet: all of them
    expect(text(messages.changedMessages(lifecycle))).toEqual([
      ["version/event/1.0.0", versionJson(T0 + 1, "web")],
      ["version/event/1.1.0", versionJson(T0 + 2, "mobile")],
      ["unreadable/event/replica-a", unreadableJson(2)],
      alive(T0),
    ]);
    setNow(T0 + 1_000);
    expect(text(messages.changedMessages(lifecycle))).toEqual([alive(T0 + 1_000)]);
    lifecycle.declared("event", "1.1.0", "batch", T0 + 9);
    expect(text(messages.changedMessages(lifecycle))).toEqual([
      ["version/event/1.1.0", versionJson(T0 + 9, "batch")],
      alive(T0 + 1_000),
    ]);
    lifecycle.restoreUnreadable("event", [unreadableEntry(4)]);
    expect(text(messages.changedMessages(lifecycle))).toEqual([
      ["unreadable/event/replica-a", unreadableJson(4)],
      alive(T0 + 1_000),
    ]);
    expect(text(messages.changedMessages(lifecycle))).toEqual([alive(T0 + 1_000)]);
  });

  it("what a full publish sent counts as sent", async () => {
    const { lifecycle, messages } = await withEvidence();
    messages.publishMessages(lifecycle, []);
    expect(text(messages.changedMessages(lifecycle)).map(([key]) => key)).toEqual(["meta/alive/replica-a"]);
    lifecycle.declared("event", "1.0.0", "web", T0 + 5);
    expect(text(messages.changedMessages(lifecycle)).map(([key]) => key)).toEqual([
      "version/event/1.0.0",
      "meta/alive/replica-a",
    ]);
  });
});

/** A send that waits until the test settles it; `sent` lists what was handed over, in order. */
function gate() {
  const sent: string[] = [];
  const settle = new Map<string, { resolve: () => void; reject: (e: Error) => void }>();
  const sender = new SerialSender(
    (messages) =>
      new Promise<void>((resolve, reject) => {
        const name = messages.map((m) => String(m.key)).join(",");
        sent.push(name);
        settle.set(name, { resolve, reject });
      }),
  );
  const batch = (...keys: string[]): Message[] => keys.map((key) => ({ key, value: "1" }));
  return { sent, settle: (name: string) => settle.get(name)!, sender, batch };
}

/** Lets every promise callback that is ready run (no timer, no wait on time). */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("sends", () => {
  it("go out one at a time, in call order, each once the one before has settled", async () => {
    const { sent, settle, sender, batch } = gate();
    const first = sender.enqueue(batch("a", "b"));
    const second = sender.enqueue(batch("c"));
    await turn();
    expect(sent).toEqual(["a,b"]);
    settle("a,b").resolve();
    await first;
    await turn();
    expect(sent).toEqual(["a,b", "c"]);
    settle("c").resolve();
    await expect(second).resolves.toBeUndefined();
  });

  it("a failed send fails its own call only; the next goes out", async () => {
    const { sent, settle, sender, batch } = gate();
    const first = sender.enqueue(batch("a"));
    const second = sender.enqueue(batch("b"));
    await turn();
    settle("a").reject(new Error("broker gone"));
    await expect(first).rejects.toThrow("broker gone");
    await turn();
    expect(sent).toEqual(["a", "b"]);
    settle("b").resolve();
    await expect(second).resolves.toBeUndefined();
  });

  it("an empty list sends nothing but keeps its place in line", async () => {
    const { sent, settle, sender, batch } = gate();
    void sender.enqueue(batch("a"));
    let emptyDone = false;
    const empty = sender.enqueue([]).then(() => (emptyDone = true));
    await turn();
    expect(emptyDone).toBe(false);
    settle("a").resolve();
    await empty;
    expect(sent).toEqual(["a"]);
  });

  it("settle, for a stop, once everything enqueued so far has gone out or failed", async () => {
    const { settle, sender, batch } = gate();
    void sender.enqueue(batch("a")).catch(() => undefined);
    let settled = false;
    const all = sender.settled().then(() => (settled = true));
    await turn();
    expect(settled).toBe(false);
    settle("a").reject(new Error("broker gone"));
    await all;
    expect(settled).toBe(true);
  });
});

describe("the state topic before it is opened", () => {
  const topic = () =>
    new StateTopic({
      kafka: { brokers: ["127.0.0.1:9"], clientId: "t", groupId: "g", fromBeginning: false, lagInterval: 0 },
      env: { SCHEMAWATCH_REPLICA_ID: "replica-a" },
      logger: createLogger("silent"),
      topic: "sw-state",
    });

  it("names its replica and its topic", () => {
    expect(topic().replica).toBe("replica-a");
    expect(topic().topic).toBe("sw-state");
  });

  it("refuses every publish, and stops without a word", async () => {
    const { lifecycle } = await withEvidence();
    const state = topic();
    const never = { code: "STATE_INVALID", message: "the state topic was never opened" };
    await expect(state.publish(lifecycle, [])).rejects.toMatchObject(never);
    await expect(state.publishVersions(lifecycle)).rejects.toMatchObject(never);
    await expect(state.publishCoverage([coverage("events", 0, T0, null)])).rejects.toMatchObject(never);
    await expect(state.stop()).resolves.toBeUndefined();
  });
});

describe("the replica id", () => {
  it("is SCHEMAWATCH_REPLICA_ID, else the host name (stable across restarts)", () => {
    expect(replicaId({ SCHEMAWATCH_REPLICA_ID: "pod-3" })).toBe("pod-3");
    expect(replicaId({ SCHEMAWATCH_REPLICA_ID: "" })).toBe(hostname());
    expect(replicaId({})).toBe(hostname());
  });
});
