// Deferred commits as logic: which offsets may be committed while the batches' tallies finish on
// validation workers. Through a real broker they are exercised by every integration test (which run
// with a validation worker), by the kill -9 test in test/integration/e2e/crash.test.ts, and by
// test/integration/kafka/commits.test.ts (a commit kafkajs skips while its consumer stops).
import { describe, expect, it } from "vitest";
import {
  CommitNotTaken,
  CommitTracker,
  DeferredCommits,
  type CommitEvent,
  type CommitOffset,
} from "../../../src/kafka/commits.js";

function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const flushed = () => new Promise((r) => setImmediate(r));

describe("the commit tracker", () => {
  it("makes an offset committable only when every batch before it is tallied", async () => {
    const tracker = new CommitTracker();
    const [a, b, c] = [deferred(), deferred(), deferred()];
    tracker.track("t", 0, "10", a.promise);
    tracker.track("t", 0, "20", b.promise);
    tracker.track("t", 0, "30", c.promise);
    b.resolve();
    await flushed();
    expect(tracker.uncommitted()).toEqual([]);
    a.resolve();
    await flushed();
    expect(tracker.uncommitted()).toEqual([{ topic: "t", partition: 0, offset: "20" }]);
    c.resolve();
    await flushed();
    expect(tracker.uncommitted()).toEqual([{ topic: "t", partition: 0, offset: "30" }]);
    tracker.committed([{ topic: "t", partition: 0, offset: "30" }]);
    expect(tracker.uncommitted()).toEqual([]);
  });

  it("counts a batch whose validation failed as tallied, and keeps partitions apart", async () => {
    const tracker = new CommitTracker();
    tracker.track("t", 0, "5", Promise.reject(new Error("worker died")));
    tracker.track("t", 1, "7", Promise.resolve());
    await flushed();
    expect(tracker.uncommitted()).toEqual([
      { topic: "t", partition: 0, offset: "5" },
      { topic: "t", partition: 1, offset: "7" },
    ]);
  });

  it("forgets everything on reset; batches that finish after it change nothing", async () => {
    const tracker = new CommitTracker();
    const a = deferred();
    tracker.track("t", 0, "10", a.promise);
    tracker.reset();
    a.resolve();
    await flushed();
    expect(tracker.uncommitted()).toEqual([]);
  });
});

describe("deferred commits", () => {
  /**
   * A consumer as kafkajs 2.2.4's: while running, a commit reaches the coordinator and COMMIT_OFFSETS
   * says so before commitOffsets resolves; while not running (stopping, crashed, rejoining), Runner's
   * commitOffsets resolves all the same, with nothing committed and no event.
   */
  function consumer() {
    const commits: CommitOffset[][] = [];
    const paused: string[] = [];
    const listeners = new Set<(event: CommitEvent) => void>();
    const fake = {
      running: true,
      commits,
      paused,
      listeners,
      events: { COMMIT_OFFSETS: "consumer.commit_offsets" } as const,
      on: (_name: "consumer.commit_offsets", listener: (event: CommitEvent) => void) => {
        listeners.add(listener);
        return () => void listeners.delete(listener);
      },
      commitOffsets: async (offsets: CommitOffset[]) => {
        if (!fake.running) return;
        commits.push(offsets);
        const topics = [...new Set(offsets.map((o) => o.topic))].map((topic) => ({
          topic,
          partitions: offsets
            .filter((o) => o.topic === topic)
            .map(({ partition, offset }) => ({ partition, offset })),
        }));
        for (const listener of listeners) listener({ payload: { topics } });
      },
      pause: (topics: Array<{ topic: string }>) => void paused.push(...topics.map((t) => t.topic)),
    };
    return fake;
  }

  it("at the end: pauses, waits for the batch being read and every tally, then commits", async () => {
    const fake = consumer();
    const commits = new DeferredCommits(fake, 60_000, () => undefined);
    const batch = deferred();
    const tally = deferred();
    const handler = commits.wrap(async () => {
      commits.track("t", 0, "42", tally.promise);
      await batch.promise;
    });
    const reading = handler(undefined);
    const finished = commits.finish(["t"]);
    await flushed();
    expect(fake.paused).toEqual(["t"]);
    expect(fake.commits).toEqual([]);
    batch.resolve();
    await reading;
    await flushed();
    expect(fake.commits).toEqual([]);
    tally.resolve();
    await finished;
    expect(fake.commits).toEqual([[{ topic: "t", partition: 0, offset: "42" }]]);
  });

  it("skips what a rejoin makes kafkajs read again, but never offsets that start over", async () => {
    const fake = consumer();
    const commits = new DeferredCommits(fake, 60_000, () => undefined);
    commits.track("t", 0, "100", Promise.resolve());
    await flushed();
    await commits.commit();
    commits.track("t", 0, "150", Promise.resolve());
    // kafkajs resumes at the group's commit (100): offsets 100..149 were counted here already.
    expect(commits.alreadyCounted("t", 0, "100")).toBe(149n);
    expect(commits.alreadyCounted("t", 0, "120")).toBe(149n);
    expect(commits.alreadyCounted("t", 0, "150")).toBeUndefined();
    // Before this member's own commit: not a resumption, the offsets mean other records.
    expect(commits.alreadyCounted("t", 0, "99")).toBeUndefined();
    expect(commits.alreadyCounted("t", 1, "0")).toBeUndefined();
    commits.forget("t");
    expect(commits.alreadyCounted("t", 0, "120")).toBeUndefined();
    commits.stop();
  });

  it("commits a new group's start offset without taking it for records read here", async () => {
    const fake = consumer();
    const commits = new DeferredCommits(fake, 60_000, () => undefined);
    commits.start("t", 0, "2");
    await flushed();
    await commits.commit();
    expect(fake.commits).toEqual([[{ topic: "t", partition: 0, offset: "2" }]]);
    // nothing before the start was read here: a batch from 0 or 1 is counted
    expect(commits.alreadyCounted("t", 0, "1")).toBeUndefined();
    await commits.commit();
    expect(fake.commits).toHaveLength(1);
    commits.stop();
  });

  it("carries what it read over to the consumer of a reconnect, which resumes at the group's commit", async () => {
    const old = new DeferredCommits(consumer(), 60_000, () => undefined);
    old.track("t", 0, "100", Promise.resolve());
    await flushed();
    await old.commit();
    old.track("t", 0, "150", Promise.resolve());
    old.stop();
    const next = new DeferredCommits(consumer(), 60_000, () => undefined, old);
    expect(next.alreadyCounted("t", 0, "100")).toBe(149n);
    expect(next.alreadyCounted("t", 0, "99")).toBeUndefined();
    // without the old one's word, the new consumer would count 100..149 again
    const fresh = new DeferredCommits(consumer(), 60_000, () => undefined);
    expect(fresh.alreadyCounted("t", 0, "100")).toBeUndefined();
    next.stop();
    fresh.stop();
  });

  it("keeps offsets pending when kafkajs returns without committing (consumer not running)", async () => {
    const fake = consumer();
    const errors: unknown[] = [];
    const commits = new DeferredCommits(fake, 60_000, (e) => errors.push(e));
    commits.track("t", 0, "100", Promise.resolve());
    commits.track("t", 1, "7", Promise.resolve());
    await flushed();
    await commits.commit();
    commits.track("t", 0, "150", Promise.resolve());
    commits.track("t", 1, "9", Promise.resolve());
    await flushed();
    fake.running = false;
    await commits.commit();
    // Nothing reached the broker: what the group took is still 100 and 7, and 150 and 9 wait.
    expect(fake.commits).toEqual([
      [
        { topic: "t", partition: 0, offset: "100" },
        { topic: "t", partition: 1, offset: "7" },
      ],
    ]);
    expect(commits.committedOffsets()).toEqual([
      { topic: "t", partition: 0, offset: "100" },
      { topic: "t", partition: 1, offset: "7" },
    ]);
    expect(commits.tracker.uncommitted()).toEqual([
      { topic: "t", partition: 0, offset: "150" },
      { topic: "t", partition: 1, offset: "9" },
    ]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(CommitNotTaken);
    expect((errors[0] as CommitNotTaken).offsets).toEqual([
      { topic: "t", partition: 0, offset: "150" },
      { topic: "t", partition: 1, offset: "9" },
    ]);
    // What the debug log says of it.
    expect([(errors[0] as Error).name, (errors[0] as Error).message]).toEqual([
      "CommitNotTaken",
      "kafkajs returned without committing 2 offset(s) (its consumer was not running: stopping or crashed); they stay pending",
    ]);
    // kafkajs resumes at the group's real commit (100): 100..149 were counted here, so skipped.
    expect(commits.alreadyCounted("t", 0, "100")).toBe(149n);
    expect(commits.alreadyCounted("t", 1, "7")).toBe(8n);
    // Running again: the next commit carries them, and then they count.
    fake.running = true;
    await commits.commit();
    expect(fake.commits).toHaveLength(2);
    expect(fake.commits[1]).toEqual([
      { topic: "t", partition: 0, offset: "150" },
      { topic: "t", partition: 1, offset: "9" },
    ]);
    expect(commits.tracker.uncommitted()).toEqual([]);
    expect(commits.committedOffsets()).toEqual([
      { topic: "t", partition: 0, offset: "150" },
      { topic: "t", partition: 1, offset: "9" },
    ]);
    expect(errors).toHaveLength(1);
    commits.stop();
  });

  it("hands the group's real commit, not a commit kafkajs skipped, to the consumer of a reconnect", async () => {
    const fake = consumer();
    const old = new DeferredCommits(fake, 60_000, () => undefined);
    old.track("t", 0, "100", Promise.resolve());
    await flushed();
    await old.commit();
    old.track("t", 0, "150", Promise.resolve());
    await flushed();
    // The consumer crashed; a commit made before the source reconnects is skipped by kafkajs.
    fake.running = false;
    await old.commit();
    old.stop();
    const next = new DeferredCommits(consumer(), 60_000, () => undefined, old);
    // The new consumer resumes at 100, where the group is: 100..149 are not counted twice.
    expect(next.committedOffsets()).toEqual([{ topic: "t", partition: 0, offset: "100" }]);
    expect(next.alreadyCounted("t", 0, "100")).toBe(149n);
    expect(next.alreadyCounted("t", 0, "99")).toBeUndefined();
    next.stop();
  });

  it("counts as committed only the offsets the coordinator took", async () => {
    const fake = consumer();
    const errors: unknown[] = [];
    const commits = new DeferredCommits(fake, 60_000, (e) => errors.push(e));
    // A commit that resolves, but whose event names partition 0 only, and partition 1 at another offset.
    fake.commitOffsets = async (offsets: CommitOffset[]) => {
      fake.commits.push(offsets);
      const partitions = [
        { partition: 0, offset: "10" },
        { partition: 1, offset: "3" },
      ];
      for (const listener of fake.listeners) listener({ payload: { topics: [{ topic: "t", partitions }] } });
    };
    commits.track("t", 0, "10", Promise.resolve());
    commits.track("t", 1, "4", Promise.resolve());
    await flushed();
    await commits.commit();
    expect(commits.committedOffsets()).toEqual([{ topic: "t", partition: 0, offset: "10" }]);
    expect(commits.tracker.uncommitted()).toEqual([{ topic: "t", partition: 1, offset: "4" }]);
    expect((errors[0] as CommitNotTaken).offsets).toEqual([{ topic: "t", partition: 1, offset: "4" }]);
    expect(errors).toHaveLength(1);
    commits.stop();
  });

  it("reports a commit that threw once, keeps its offsets, and stops listening when stopped", async () => {
    const fake = consumer();
    const errors: unknown[] = [];
    const commits = new DeferredCommits(fake, 60_000, (e) => errors.push(e));
    const broken = new Error("REBALANCE_IN_PROGRESS");
    fake.commitOffsets = () => Promise.reject(broken);
    commits.track("t", 0, "5", Promise.resolve());
    await flushed();
    await commits.commit();
    expect(errors).toEqual([broken]);
    expect(commits.committedOffsets()).toEqual([]);
    expect(commits.tracker.uncommitted()).toEqual([{ topic: "t", partition: 0, offset: "5" }]);
    expect(fake.listeners.size).toBe(1);
    commits.stop();
    expect(fake.listeners.size).toBe(0);
  });
});
