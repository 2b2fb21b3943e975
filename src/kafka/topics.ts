import type { Admin } from "kafkajs";

/** The monitored topics split by whether the cluster has them now. */
export interface TopicPresence {
  readonly present: string[];
  readonly missing: string[];
}

/**
 * Which monitored topics exist. A consumer subscribed to a topic that does not exist (never created,
 * or deleted while the monitor ran) fails every fetch, stalling the topics that do exist; the source
 * subscribes to the present ones only and reports the others.
 */
export async function describeTopics(admin: Admin, topics: readonly string[]): Promise<TopicPresence> {
  const existing = new Set(await admin.listTopics());
  return {
    present: topics.filter((t) => existing.has(t)),
    missing: topics.filter((t) => !existing.has(t)),
  };
}

const MISSING_TYPES = new Set(["UNKNOWN_TOPIC_OR_PARTITION", "UNKNOWN_TOPIC_ID"]);

/** Whether an error (or one of its causes) says that a topic or partition is not there. */
export function isMissingTopicError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    const fields = e as { type?: unknown; name?: unknown; message?: unknown; cause?: unknown };
    if (typeof fields.type === "string" && MISSING_TYPES.has(fields.type)) return true;
    if (fields.name === "KafkaJSTopicMetadataNotLoaded") return true;
    if (typeof fields.message === "string" && /does not host this topic-partition/i.test(fields.message))
      return true;
    e = fields.cause;
  }
  return false;
}

/** Whether two topic lists hold the same topics. */
export function sameTopics(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const set = new Set(a);
  return b.every((t) => set.has(t));
}
