import type { Message } from "kafkajs";
import { describe, expect, it } from "vitest";
import { StateMessages } from "../../../src/state/messages.js";
import { ReplicaKeys, ownerOf } from "../../../src/state/forget.js";
import { T0, rec, stateOf } from "./fixture.js";

// Records of replicas that are gone: whose each key is, when a replica is forgotten, and what a
// graceful stop deletes of its own (the `event` subject's windows: 60 s).

const MINUTE = 60_000;
const tombstonesOf = (messages: Message[]) => messages.filter((m) => m.value === null).map((m) => m.key);

describe("records of replicas that are gone", () => {
  it("knows the replica of each kind of key, and that coverage and versions are nobody's", () => {
    const parts = (key: string) => key.split("/");
    expect(
      [
        "candidate/s/1.0.0/r1",
        "unreadable/s/r2",
        "field/s/%2Fa/r3",
        "stats/s/%2Fa/p/1.0.0/7/r4",
        "rename/s/%2Fa/%2Fb/r5",
        "history/s/7/r6",
        "meta/alive/r7",
        "meta/started/r8",
        "coverage/t/0",
        "version/s/1.0.0",
        "retired/s/1.0.0",
        "field/s/%2Fa",
      ].map((k) => ownerOf(parts(k))),
    ).toEqual(["r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", undefined, undefined, undefined, undefined]);
  });

  it("a replica is gone once not heard of for the time, never itself, never one never heard of", () => {
    const keys = new ReplicaKeys("me", 10 * MINUTE);
    for (const [owner, key] of [
      ["old", "field/s/%2Fa/old"],
      ["old", "meta/alive/old"],
      ["old", "history/s/7/old"],
      ["me", "meta/alive/me"],
      ["silent", "field/s/%2Fa/silent"],
    ] as const)
      keys.read(owner, key, false);
    keys.read("old", "history/s/7/old", true);
    keys.heard("old", T0);
    keys.heard("me", T0);
    expect(keys.gone(T0 + 10 * MINUTE - 1)).toEqual([]);
    expect(keys.gone(T0 + 10 * MINUTE)).toEqual([
      {
        replica: "old",
        tombstones: [
          { key: "field/s/%2Fa/old", value: null },
          { key: "meta/alive/old", value: null },
        ],
      },
    ]);
    // Forgotten once deleted; heard of again, it is known again.
    expect(keys.gone(T0 + 20 * MINUTE)).toEqual([]);
    keys.read("old", "meta/alive/old", false);
    keys.heard("old", T0 + 20 * MINUTE);
    expect(keys.gone(T0 + 30 * MINUTE).map((g) => g.replica)).toEqual(["old"]);
  });

  it("the full publish deletes a gone replica's records, and it forgets that replica's evidence", async () => {
    const { lifecycle } = await stateOf();
    const messages = new StateMessages("replica-a", "sw-state", undefined, undefined, undefined, 10 * MINUTE);
    const candidate = { samples: 3, failures: 0, samplesSinceFailure: 3, lastFailureAt: 0, producers: {} };
    const read = (records: ReturnType<typeof rec>[]) =>
      records.forEach((r) => messages.apply(lifecycle, r, true, () => undefined));
    read([
      rec("meta/alive/ghost", { at: T0 - 11 * MINUTE }),
      rec("candidate/event/1.1.0/ghost", candidate),
      rec("meta/alive/recent", { at: T0 - MINUTE }),
      rec("candidate/event/1.1.0/recent", candidate),
    ]);
    expect([...messages.candidates.get("event\u00001.1.0")!.keys()]).toEqual(["ghost", "recent"]);
    expect(tombstonesOf(messages.publishMessages(lifecycle, []))).toEqual([
      "meta/alive/ghost",
      "candidate/event/1.1.0/ghost",
    ]);
    expect([...messages.candidates.get("event\u00001.1.0")!.keys()]).toEqual(["recent"]);
    expect(tombstonesOf(messages.publishMessages(lifecycle, []))).toEqual([]);
  });

  it("a graceful stop deletes its own field and unreadable records that no window reaches, and keeps the others", async () => {
    const { lifecycle, messages, setNow } = await stateOf();
    const use = (field: string, at: number) => ({
      field,
      producer: "web",
      writer: "1.1.0",
      lastPresentAt: at,
      lastAbsentAt: 0,
      lastUnknownAt: 0,
      presentSinceMissing: 1,
      buckets: [],
    });
    const field = (pointer: string) => ({ pointer, deprecatedIn: [], optionalIn: "1.1.0" });
    lifecycle.fields.restore({
      event: {
        fields: [field("/old"), field("/recent"), field("/late")],
        uses: {
          a: use("/old", T0 - 2 * MINUTE),
          b: use("/recent", T0 - 30_000),
          c: use("/late", T0 - 2 * MINUTE),
        },
        // Tracked from a reload half a minute ago: its evidence begins then.
        trackedSince: { "/late": T0 - 30_000 },
      },
    });
    const entry = { topic: "events", partition: 0, reason: "not_json", records: 1, firstAt: 0 };
    lifecycle.restoreUnreadable("event", [{ ...entry, lastAt: T0 - 2 * MINUTE }]);
    setNow(T0);
    const final = { everyMs: MINUTE, final: true };
    expect(tombstonesOf(messages.publishMessages(lifecycle, [], final))).toEqual([
      "field/event/%2Fold/replica-a",
      "unreadable/event/replica-a",
    ]);
    // Not at an ordinary publish.
    expect(tombstonesOf(messages.publishMessages(lifecycle, []))).toEqual([]);
    lifecycle.restoreUnreadable("event", [{ ...entry, lastAt: T0 - 30_000 }]);
    expect(tombstonesOf(messages.publishMessages(lifecycle, [], final))).toEqual([
      "field/event/%2Fold/replica-a",
    ]);
  });
});
