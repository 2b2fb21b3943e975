import { Kafka } from "kafkajs";
import type { Admin } from "kafkajs";
import type { Logger } from "pino";

import { messageOf } from "../errors.js";
import { SharedAdmin, connectAdmin } from "./admin.js";
import { buildKafkaConfig } from "./connection.js";
import {
  measureGroupLag,
  uncommittedStarts,
  type PartitionCounts,
  type PartitionOffsets,
} from "./offsets.js";
import type { KafkaSourceOptions } from "./options.js";
import type { KafkaReporter } from "./reporting.js";
import { describeTopics } from "./topics.js";

/** One start() to stop() span; a late kafkajs callback of an earlier session sees `closing`. */
export interface Session {
  readonly kafka: Kafka;
  readonly admin: SharedAdmin;
  /** Lists offsets up to the log end, past open transactions (see log-end.ts). */
  readonly logEndAdmin: SharedAdmin;
  closing: boolean;
}

/** Calls an option's hook; one that throws is logged, never let into kafkajs's callbacks. */
export function callHook(log: Logger, name: string, call: () => void): void {
  try {
    call();
  } catch (error) {
    log.error({ hook: name, error: messageOf(error) }, "a KafkaSource hook threw");
  }
}

/**
 * The admin side of a KafkaSource: what it asks the brokers apart from reading records (the group's
 * lag, the offsets a new group starts at, which monitored topics exist). The consumer's life (join,
 * assignment, reconnects, stop) stays in source.ts; these queries only borrow its session's admins,
 * and a failed query drops them so that the next one reconnects.
 */
export class SourceQueries {
  readonly #options: KafkaSourceOptions;
  readonly #report: KafkaReporter;
  readonly #log: Logger;

  constructor(options: KafkaSourceOptions, report: KafkaReporter) {
    this.#options = options;
    this.#report = report;
    this.#log = options.logger;
  }

  /** A session's client, or a new one outside start()/stop(). */
  async client(session: Session | undefined): Promise<Kafka> {
    const { kafka, env } = this.#options;
    return session?.kafka ?? new Kafka(await buildKafkaConfig(kafka, env, this.#log));
  }

  newSession(kafka: Kafka): Session {
    return {
      kafka,
      admin: new SharedAdmin(kafka),
      logEndAdmin: new SharedAdmin(kafka, true),
      closing: false,
    };
  }

  /**
   * Measures the group's lag on every partition of the topics (not only this member's) into
   * `health.lag`. Without an open session it uses short-lived admin clients.
   */
  async measureLag(session: Session | undefined): Promise<PartitionCounts> {
    const shared = session !== undefined && !session.closing;
    // A closing session's client still makes short-lived admins, as before the split.
    const client = shared ? undefined : await this.client(session);
    const admin = shared ? await session.admin.get() : await connectAdmin(client!);
    let logEnd: Admin | undefined;
    try {
      logEnd = shared ? await session.logEndAdmin.get() : await connectAdmin(client!, true);
      // Taken before asking: a lag of 0 then says that every record produced before this time is read.
      const at = Date.now();
      const { present } = await describeTopics(admin, this.#options.topics);
      const { lag, ends } = await measureGroupLag(
        admin,
        this.#options.kafka.groupId,
        present,
        (topic, e) => this.#log.debug({ topic, error: messageOf(e) }, "cannot measure the lag of a topic"),
        logEnd,
      );
      const { health } = this.#options;
      for (const [topic, partitions] of lag) {
        health.lag.set(topic, partitions);
        health.lagMeasuredAt.set(topic, at);
        const topicEnds = ends.get(topic);
        if (topicEnds !== undefined) health.ends.set(topic, topicEnds);
        this.#options.onLagMeasured?.(topic, partitions, topicEnds, at);
      }
      return lag;
    } catch (error) {
      if (shared) {
        session.admin.drop();
        session.logEndAdmin.drop();
      }
      throw error;
    } finally {
      if (!shared) {
        await admin.disconnect().catch(() => undefined);
        await logEnd?.disconnect().catch(() => undefined);
      }
    }
  }

  /**
   * The monitored topics that exist now; the missing ones are reported (once), handed to `forget`
   * and left out. When the brokers cannot tell, all of them (the consumer's own errors then tell).
   */
  async presentTopics(session: Session, forget: (topic: string) => void): Promise<string[]> {
    let presence;
    try {
      presence = await describeTopics(await session.admin.get(), this.#options.topics);
    } catch (error) {
      session.admin.drop();
      this.#log.debug({ error: messageOf(error) }, "cannot list the topics");
      return [...this.#options.topics];
    }
    this.#report.topics(presence);
    for (const topic of presence.missing) {
      forget(topic);
      callHook(this.#log, "onTopicMissing", () => this.#options.onTopicMissing?.(topic));
    }
    return presence.present;
  }

  /** Where the group has no committed offset yet: the offsets to seek to (latest, or earliest). */
  async startOffsets(session: Session, topics: readonly string[]): Promise<PartitionOffsets> {
    const { groupId, fromBeginning } = this.#options.kafka;
    try {
      const admin = await session.admin.get();
      return await uncommittedStarts(admin, groupId, topics, fromBeginning, (topic, e) =>
        this.#log.debug({ topic, error: messageOf(e) }, "cannot read the offsets of a topic"),
      );
    } catch (error) {
      session.admin.drop();
      this.#log.warn({ error: messageOf(error) }, "cannot read the group's offsets; kafkajs picks the start");
      return new Map();
    }
  }
}
