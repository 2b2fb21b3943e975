import { afterEach, describe, expect, it, vi } from "vitest";
import {
  Load,
  openTopic,
  refused,
  waitAfter,
  withRetries,
  type TopicAdmin,
} from "../../../src/state/open.js";

// The rules of opening the state topic, without a broker: the mutation run uses the unit suite only.
// The same code against a real broker (a race to create the topic, a broker refusing connections for
// 15 s) is in test/integration/state/state-topic-open.test.ts.

describe("refused: the errors no retry changes", () => {
  it.each([
    [{ name: "KafkaJSSASLAuthenticationError" }, true],
    [{ name: "KafkaJSProtocolError", type: "TOPIC_AUTHORIZATION_FAILED" }, true],
    [{ type: "CLUSTER_AUTHORIZATION_FAILED" }, true],
    [{ type: "GROUP_AUTHORIZATION_FAILED" }, true],
    [{ name: "KafkaJSProtocolError", type: "UNKNOWN_TOPIC_OR_PARTITION" }, false],
    [{ name: "KafkaJSConnectionError" }, false],
    [{ name: "KafkaJSSASLAuthenticationErrorX" }, false],
    [{ type: "AUTHORIZATION_FAILED_LATER" }, false],
    [{ type: 31 }, false],
    [new Error("Connection refused"), false],
    [undefined, false],
    [null, false],
  ])("%j → %s", (error, expected) => {
    expect(refused(error)).toBe(expected);
  });
});

describe("waitAfter: 250 ms doubling to 2 s", () => {
  it("gives the wait after each failed attempt", () => {
    expect([1, 2, 3, 4, 5, 6, 20].map(waitAfter)).toEqual([250, 500, 1_000, 2_000, 2_000, 2_000, 2_000]);
  });
});

/** A clock that the retries' sleeps move forward, so that nothing waits for real. */
function fakeClock(start = 0) {
  let now = start;
  const slept: number[] = [];
  const told: [number, string][] = [];
  return {
    slept,
    told,
    now: () => now,
    sleep: (ms: number) => {
      slept.push(ms);
      now += ms;
      return Promise.resolve();
    },
    retrying: (attempt: number, problem: string) => void told.push([attempt, problem]),
  };
}

/** An attempt that fails with `errors`, one per call, then answers `value`. */
function failing<T>(errors: unknown[], value: T) {
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    attempt: () => {
      calls++;
      const error = errors.shift();
      return error === undefined ? Promise.resolve(value) : Promise.reject(error);
    },
  };
}

describe("withRetries", () => {
  it("answers the first success without waiting", async () => {
    const clock = fakeClock();
    const run = failing([], 7n);
    await expect(
      withRetries(run.attempt, { topic: "t", deadline: 10_000, stopped: () => false, ...clock }),
    ).resolves.toBe(7n);
    expect(run.calls).toBe(1);
    expect(clock.slept).toEqual([]);
    expect(clock.told).toEqual([]);
  });

  it("tries again after each failure, 250 ms doubling, and says so each time", async () => {
    const clock = fakeClock();
    const run = failing(
      [new Error("not hosted"), new Error("still not hosted"), new Error("no leader")],
      42n,
    );
    await expect(
      withRetries(run.attempt, { topic: "t", deadline: 10_000, stopped: () => false, ...clock }),
    ).resolves.toBe(42n);
    expect(run.calls).toBe(4);
    expect(clock.slept).toEqual([250, 500, 1_000]);
    expect(clock.told).toEqual([
      [1, "not hosted"],
      [2, "still not hosted"],
      [3, "no leader"],
    ]);
  });

  it("starts no attempt that would begin at or after the deadline, and names the topic and the last problem", async () => {
    // Failures at 0 (next at 250), 250 (next at 750), 750 (next at 1 750 ≥ 1 000: give up).
    const clock = fakeClock();
    const last = new Error("This server does not host this topic-partition");
    const run = failing([new Error("a"), new Error("b"), last, new Error("never reached")], 1n);
    const error = await withRetries(run.attempt, {
      topic: "_state",
      deadline: 1_000,
      stopped: () => false,
      ...clock,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "STATE_INVALID",
      message: "state topic _state: This server does not host this topic-partition",
      cause: last,
    });
    expect(run.calls).toBe(3);
    expect(clock.slept).toEqual([250, 500]);
  });

  it("gives up when the next attempt would start exactly at the deadline, and tries once more one millisecond before", async () => {
    const exact = fakeClock();
    const atDeadline = failing([new Error("down")], 1n);
    await expect(
      withRetries(atDeadline.attempt, { topic: "t", deadline: 250, stopped: () => false, ...exact }),
    ).rejects.toMatchObject({ message: "state topic t: down" });
    expect(atDeadline.calls).toBe(1);
    const before = fakeClock();
    const justBefore = failing([new Error("down")], 2n);
    await expect(
      withRetries(justBefore.attempt, { topic: "t", deadline: 251, stopped: () => false, ...before }),
    ).resolves.toBe(2n);
    expect(justBefore.calls).toBe(2);
  });

  it("measures the deadline from the clock it is given, not from zero", async () => {
    const clock = fakeClock(1_000_000);
    const run = failing([new Error("down")], 3n);
    await expect(
      withRetries(run.attempt, { topic: "t", deadline: 1_000_200, stopped: () => false, ...clock }),
    ).rejects.toMatchObject({ message: "state topic t: down" });
    expect(run.calls).toBe(1);
  });

  it("does not try again after a refused authorization or authentication, however far the deadline", async () => {
    for (const error of [
      Object.assign(new Error("Not authorized"), { type: "TOPIC_AUTHORIZATION_FAILED" }),
      Object.assign(new Error("SASL SCRAM authentication failed"), {
        name: "KafkaJSSASLAuthenticationError",
      }),
    ]) {
      const clock = fakeClock();
      const run = failing([error], 1n);
      await expect(
        withRetries(run.attempt, { topic: "t", deadline: 1e12, stopped: () => false, ...clock }),
      ).rejects.toMatchObject({ code: "STATE_INVALID", message: `state topic t: ${error.message}` });
      expect(run.calls).toBe(1);
      expect(clock.told).toEqual([]);
    }
  });

  it("stops trying once the replica is stopping", async () => {
    const clock = fakeClock();
    let stopping = false;
    const run = failing([new Error("a"), new Error("b"), new Error("c")], 1n);
    const attempt = () => {
      if (run.calls === 1) stopping = true;
      return run.attempt();
    };
    await expect(
      withRetries(attempt, { topic: "t", deadline: 1e12, stopped: () => stopping, ...clock }),
    ).rejects.toMatchObject({ message: "state topic t: b" });
    expect(run.calls).toBe(2);
    expect(clock.slept).toEqual([250]);
  });
});

/** kafkajs's admin as far as openTopic uses it, over a list of topics in memory. */
function memoryAdmin(topics: string[], offsets: { partition: number; high: string }[], answer = true) {
  const created: unknown[] = [];
  const admin: TopicAdmin = {
    listTopics: () => Promise.resolve([...topics]),
    createTopics: (options) => {
      created.push(options);
      return Promise.resolve(answer);
    },
    fetchTopicOffsets: () => Promise.resolve(offsets),
  };
  return { admin, created };
}

describe("openTopic", () => {
  it("creates a missing topic with one compacted partition, waiting for its leader", async () => {
    const { admin, created } = memoryAdmin(["events"], [{ partition: 0, high: "0" }]);
    let told = 0;
    await expect(openTopic(admin, "_schemawatch", () => told++)).resolves.toBe(0n);
    expect(created).toEqual([
      {
        topics: [
          {
            topic: "_schemawatch",
            numPartitions: 1,
            configEntries: [{ name: "cleanup.policy", value: "compact" }],
          },
        ],
        waitForLeaders: true,
      },
    ]);
    expect(told).toBe(1);
  });

  it("says nothing of a creation another replica won", async () => {
    const { admin, created } = memoryAdmin([], [{ partition: 0, high: "3" }], false);
    let told = 0;
    await expect(openTopic(admin, "_schemawatch", () => told++)).resolves.toBe(3n);
    expect(created).toHaveLength(1);
    expect(told).toBe(0);
  });

  it("leaves an existing topic alone and reads partition 0's end, exactly", async () => {
    const { admin, created } = memoryAdmin(
      ["_schemawatch"],
      [
        { partition: 1, high: "5" },
        { partition: 0, high: "9007199254740993" },
      ],
    );
    let told = 0;
    await expect(openTopic(admin, "_schemawatch", () => told++)).resolves.toBe(9_007_199_254_740_993n);
    expect(created).toEqual([]);
    expect(told).toBe(0);
  });

  it("reads an end of 0 when the broker names no partition 0", async () => {
    const { admin } = memoryAdmin(["_schemawatch"], [{ partition: 1, high: "5" }]);
    await expect(openTopic(admin, "_schemawatch", () => {})).resolves.toBe(0n);
  });
});

describe("Load: the first read to the end offset seen at open", () => {
  it("is caught up at once on an empty topic, even with the deadline already past", async () => {
    const load = new Load(0n);
    await expect(load.done("t", 0, 30_000)).resolves.toBeUndefined();
    expect(load.read).toBe(0);
  });

  it("is caught up when the record before the end is read, not one record earlier", async () => {
    const load = new Load(3n);
    load.record("0");
    load.record("1");
    await expect(load.done("_state", Date.now() + 20, 30_000)).rejects.toMatchObject({
      code: "STATE_INVALID",
      message: "state topic _state: not read to its end in 30000 ms",
    });
    load.record("2");
    await expect(load.done("_state", 0, 30_000)).resolves.toBeUndefined();
    expect(load.read).toBe(3);
  });

  it("is caught up by a record past the end (compaction leaves gaps; the topic grows while read)", async () => {
    const load = new Load(10n);
    load.record("4");
    load.record("12");
    await expect(load.done("t", 0, 1)).resolves.toBeUndefined();
    expect(load.read).toBe(2);
  });

  it("waits until the deadline measured by the clock it is given", async () => {
    const load = new Load(1n);
    // The clock says 1 000 000; the deadline is 50 ms after it: the wait is 50 ms, not the deadline's value.
    await expect(load.done("t", 1_000_050, 7, () => 1_000_000)).rejects.toMatchObject({
      message: "state topic t: not read to its end in 7 ms",
    });
  });

  it("settles as soon as the record before the end is read while it waits", async () => {
    const load = new Load(2n);
    const waiting = load.done("t", Date.now() + 60_000, 60_000);
    // The records come after the wait began: a wait shorter than the time to the deadline would have ended.
    await new Promise((resolve) => setTimeout(resolve, 50));
    load.record("0");
    load.record("1");
    await expect(waiting).resolves.toBeUndefined();
  });

  describe("with Node's timers faked", () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it("leaves no timer behind once caught up", async () => {
      vi.useFakeTimers();
      const load = new Load(1n);
      const waiting = load.done("t", Date.now() + 30_000, 30_000);
      expect(vi.getTimerCount()).toBe(1);
      load.record("0");
      await waiting;
      expect(vi.getTimerCount()).toBe(0);
    });
  });
});
