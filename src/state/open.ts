import { SchemawatchError, messageOf } from "../errors.js";
import { backoffDelay, retry, type Backoff } from "../retry.js";

/**
 * How a replica opens the state topic and reads it to its end at start: the rules, apart from the
 * broker I/O that state-topic.ts does, so that each can be tested without a broker.
 */

/** The first wait before trying to open the topic again, and the longest, ms. */
export const FIRST_WAIT_MS = 250;
export const LONGEST_WAIT_MS = 2_000;

/** Errors that trying again does not change: wrong credentials or missing ACLs. */
export function refused(error: unknown): boolean {
  const { name, type } = (error ?? {}) as { name?: unknown; type?: unknown };
  return (
    name === "KafkaJSSASLAuthenticationError" ||
    (typeof type === "string" && type.endsWith("AUTHORIZATION_FAILED"))
  );
}

const BACKOFF: Backoff = { first: FIRST_WAIT_MS, max: LONGEST_WAIT_MS };

/** The wait after the failed attempt number `attempt` (1 for the first): 250 ms doubling to 2 s. */
export function waitAfter(attempt: number): number {
  return backoffDelay(BACKOFF, attempt);
}

/** The part of kafkajs's admin client that opening the state topic uses. */
export interface TopicAdmin {
  listTopics(): Promise<string[]>;
  createTopics(options: {
    topics: { topic: string; numPartitions: number; configEntries: { name: string; value: string }[] }[];
    waitForLeaders: boolean;
  }): Promise<boolean>;
  fetchTopicOffsets(topic: string): Promise<{ partition: number; high: string }[]>;
}

/**
 * Creates the topic if missing (one partition, compacted) and returns its end offset. Only the state
 * topic is ever created; the monitored topics never are. `created` is told when this call made it.
 */
export async function openTopic(admin: TopicAdmin, topic: string, created: () => void): Promise<bigint> {
  if (!(await admin.listTopics()).includes(topic)) {
    const made = await admin.createTopics({
      topics: [{ topic, numPartitions: 1, configEntries: [{ name: "cleanup.policy", value: "compact" }] }],
      waitForLeaders: true,
    });
    if (made) created();
  }
  const offsets = await admin.fetchTopicOffsets(topic);
  // Stryker disable next-line StringLiteral: BigInt("") is 0n as well
  return BigInt(offsets.find((o) => o.partition === 0)?.high ?? "0");
}

export interface OpenRetryOptions {
  readonly topic: string;
  /** Epoch ms after which no further attempt starts. */
  readonly deadline: number;
  /** True once the replica is stopping: no further attempt. */
  readonly stopped: () => boolean;
  readonly now?: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  /** Told of each failure that will be tried again, before the wait. */
  readonly retrying: (attempt: number, problem: string) => void;
}

/**
 * Runs `attempt` until it succeeds. Replicas started together race to create the topic, and for a
 * moment after its creation a broker may answer that it does not host it: every failure is tried
 * again (250 ms doubling to 2 s) while the next attempt would start before the deadline, except a
 * refused authentication or authorization, which no retry changes, and except after stop().
 */
export async function withRetries<T>(attempt: () => Promise<T>, options: OpenRetryOptions): Promise<T> {
  try {
    return await retry(attempt, {
      backoff: BACKOFF,
      deadline: options.deadline,
      retryable: (error) => !options.stopped() && !refused(error),
      onRetry: ({ attempt: n, error }) => options.retrying(n, messageOf(error)),
      sleep: options.sleep,
      ...(options.now ? { now: options.now } : {}),
    });
  } catch (error) {
    throw new SchemawatchError("STATE_INVALID", `state topic ${options.topic}: ${messageOf(error)}`, {
      cause: error,
    });
  }
}

/**
 * The first read of the topic, up to the end offset it had when opened: caught up once the record
 * before that offset is read, or at once when the topic was empty.
 */
export class Load {
  #read = 0;
  readonly #end: bigint;
  readonly #caughtUp: Promise<void>;
  #resolve: () => void = () => {};

  constructor(end: bigint) {
    this.#end = end;
    this.#caughtUp = new Promise<void>((resolve) => (this.#resolve = resolve));
    if (end <= 0n) this.#resolve();
  }

  /** Records read so far. */
  get read(): number {
    return this.#read;
  }

  /** One record read, at `offset`. */
  record(offset: string): void {
    this.#read++;
    if (BigInt(offset) + 1n >= this.#end) this.#resolve();
  }

  /**
   * Settles when caught up; rejects at the deadline if not, naming the topic and the time it had.
   * `timeoutMs` is the whole load's budget, for the message; `deadline` is when it runs out.
   */
  async done(
    topic: string,
    deadline: number,
    timeoutMs: number,
    now: () => number = Date.now,
  ): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.#caughtUp,
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () =>
              reject(
                new SchemawatchError(
                  "STATE_INVALID",
                  `state topic ${topic}: not read to its end in ${timeoutMs} ms`,
                ),
              ),
            Math.max(0, deadline - now()),
          );
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }
}
