// DeferredCommits against a real broker: kafkajs 2.2.4's consumer.commitOffsets resolves without
// committing once its runner stops running (here: a stop that waits for the batch being read, the
// window a crash or a topic change also opens). What DeferredCommits says the group took must be
// what the broker holds for the group, exactly.
import type { Consumer } from "kafkajs";
import { afterEach, describe, expect, it } from "vitest";

import { CommitNotTaken, DeferredCommits } from "../../../src/kafka/commits.js";
import {
  createTopic,
  freshGroupId,
  freshTopic,
  kafkaBrokers,
  kafkaClient,
  produce,
  waitFor,
  withAdmin,
} from "../../helpers/kafka.js";

const topics: string[] = [];
const consumers: Consumer[] = [];
/** Run first: a failed assertion must not leave a batch held, or the consumer's stop waits for it. */
const releases: Array<() => void> = [];

afterEach(async () => {
  for (const release of releases.splice(0)) release();
  await Promise.all(consumers.splice(0).map((c) => c.disconnect().catch(() => undefined)));
  const brokers = await kafkaBrokers();
  await withAdmin(brokers, (admin) => admin.deleteTopics({ topics: topics.splice(0) })).catch(
    () => undefined,
  );
});

function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

const records = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({ value: JSON.stringify({ n: from + i }) }));

describe("deferred commits on a real broker", () => {
  it("a commit made while the consumer stops stays pending, and the group's offset is the one reported", async () => {
    const brokers = await kafkaBrokers();
    const topic = freshTopic("sw-commits");
    topics.push(topic);
    await createTopic(brokers, topic, 1);
    const groupId = freshGroupId();
    await produce(brokers, topic, records(0, 10));

    const consumer = kafkaClient(brokers).consumer({ groupId, maxWaitTimeInMs: 200 });
    consumers.push(consumer);
    const errors: unknown[] = [];
    // No interval commit during the test: every commit is one the test makes.
    const commits = new DeferredCommits(consumer, 3_600_000, (error) => errors.push(error));
    // Tallies of the records after the first ten finish later, as a validation worker's do.
    const tallies = gate();
    const hold = gate();
    releases.push(tallies.open, hold.open);
    let next = 0n;
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      eachBatch: commits.wrap(async ({ batch, resolveOffset }) => {
        if (batch.messages.length === 0) return;
        const end = BigInt(batch.lastOffset()) + 1n;
        commits.track(
          topic,
          batch.partition,
          end.toString(),
          end <= 10n ? Promise.resolve() : tallies.promise,
        );
        resolveOffset(batch.lastOffset());
        next = end;
        // The batch that reaches offset 15 is still being read when the stop begins.
        if (end === 15n) await hold.promise;
      }),
    });

    await waitFor(() => next === 10n, "the first ten records read");
    await commits.commit();
    expect(commits.committedOffsets()).toEqual([{ topic, partition: 0, offset: "10" }]);

    await produce(brokers, topic, records(10, 5));
    await waitFor(() => next === 15n, "records 10..14 read");
    // kafkajs's stop turns its runner's `running` off at once, then waits for the batch being read.
    const stopping = consumer.stop();
    tallies.open();
    await commits.commit();
    expect(commits.committedOffsets()).toEqual([{ topic, partition: 0, offset: "10" }]);
    expect(commits.tracker.uncommitted()).toEqual([{ topic, partition: 0, offset: "15" }]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(CommitNotTaken);
    hold.open();
    await stopping;

    const group = await withAdmin(brokers, (admin) => admin.fetchOffsets({ groupId, topics: [topic] }));
    const held = group.flatMap((t) =>
      t.partitions.map((p) => ({ topic: t.topic, partition: p.partition, offset: p.offset })),
    );
    expect(held).toEqual([{ topic, partition: 0, offset: "10" }]);
    expect(commits.committedOffsets()).toEqual(held);

    // The consumer of a reconnect resumes at 10 and skips 10..14 as counted here, not twice.
    const again = new DeferredCommits(consumer, 3_600_000, () => undefined, commits);
    commits.stop();
    expect(again.alreadyCounted(topic, 0, "10")).toBe(14n);
    again.stop();
  });
});
