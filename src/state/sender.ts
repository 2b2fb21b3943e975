import type { Message } from "kafkajs";

// Sending the state topic's records: in call order, each list cut into sends a broker accepts.

/** The most bytes of keys and values one send carries: its record batch stays under Kafka's 1 MB. */
export const MAX_SEND_BYTES = 900_000;

/**
 * A list cut into sends of at most MAX_SEND_BYTES each, in order (a single larger message alone):
 * one send is one record batch, and a broker refuses a batch past its `message.max.bytes`.
 */
export function chunks(messages: readonly Message[]): Message[][] {
  const out: Message[][] = [];
  let current: Message[] = [];
  let bytes = 0;
  for (const m of messages) {
    // Per record, about 70 bytes of framing besides its key and value.
    const size = 70 + byteLength(m.key) + byteLength(m.value);
    if (current.length > 0 && bytes + size > MAX_SEND_BYTES) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(m);
    bytes += size;
  }
  if (current.length > 0) out.push(current);
  return out;
}

const byteLength = (v: Message["key"] | Message["value"]) =>
  v === null || v === undefined ? 0 : typeof v === "string" ? Buffer.byteLength(v) : v.length;

/**
 * Sends lists of messages one after the other, in call order: each waits until the one before has
 * settled, and a failure fails its own call only. An empty list sends nothing (but keeps its place).
 */
export class SerialSender {
  #pending: Promise<void> = Promise.resolve();

  constructor(readonly send: (messages: Message[]) => Promise<unknown>) {}

  enqueue(messages: Message[]): Promise<void> {
    const sent = this.#pending.then(async () => {
      for (const chunk of chunks(messages)) await this.send(chunk);
    });
    this.#pending = sent.catch(() => undefined);
    return sent;
  }

  /** Settles once every list enqueued so far has been sent or has failed. */
  settled(): Promise<void> {
    return this.#pending;
  }
}
