import type { Admin, Kafka } from "kafkajs";
import { logEndAdmin } from "./patches/index.js";

// Lag lookups are retried by the next measurement; a short retry keeps one failure short.
const ADMIN_RETRY = { retries: 2 };

/**
 * Connects a kafkajs admin client. `logEnd`: one whose topic offsets end at the log end offset, past
 * the records of open transactions (see log-end.ts), instead of the last stable offset.
 */
export async function connectAdmin(kafka: Kafka, logEnd = false): Promise<Admin> {
  const admin = logEnd ? logEndAdmin(kafka, ADMIN_RETRY) : kafka.admin({ retry: ADMIN_RETRY });
  await admin.connect();
  return admin;
}

/**
 * One admin client shared by the lag measurements and the start-offset lookup of a KafkaSource
 * session: connected on first use, reconnected after a failure, and closed even when its connect
 * is still retrying at close() (close() does not wait for that; the connect closes what it opened).
 */
export class SharedAdmin {
  readonly #kafka: Kafka;
  readonly #logEnd: boolean;
  #admin: Promise<Admin> | undefined;
  #connected: Admin | undefined;
  #closed = false;

  constructor(kafka: Kafka, logEnd = false) {
    this.#kafka = kafka;
    this.#logEnd = logEnd;
  }

  get(): Promise<Admin> {
    if (this.#closed) return Promise.reject(new Error("the Kafka source is stopping"));
    this.#admin ??= connectAdmin(this.#kafka, this.#logEnd).then(
      async (admin) => {
        if (this.#closed) {
          await admin.disconnect().catch(() => undefined);
          throw new Error("the Kafka source is stopping");
        }
        this.#connected = admin;
        return admin;
      },
      (error: unknown) => {
        this.#admin = undefined;
        throw error;
      },
    );
    return this.#admin;
  }

  /** Forgets the client after a failed request, so that the next get() connects afresh. */
  drop(): void {
    const admin = this.#connected;
    this.#admin = undefined;
    this.#connected = undefined;
    void admin?.disconnect().catch(() => undefined);
  }

  async close(): Promise<void> {
    this.#closed = true;
    const admin = this.#connected;
    this.#connected = undefined;
    await admin?.disconnect().catch(() => undefined);
  }
}
