/**
 * The kafkajs this room was written against, and every private part of it the room reaches. kafkajs
 * is pinned to exactly this version in package.json; test/unit/kafka/patches/kafkajs-pin.test.ts
 * fails when the installed version, the pin or any of these internals differ, so that an upgrade of
 * kafkajs is a review of this room rather than a silent change of what the patches replace.
 */
export const KAFKAJS_VERSION = "2.2.4";

/** kafkajs's private modules, by what the room uses them for. Only this room names them (eslint.config.js). */
export const PRIVATE_MODULES = {
  /** The per-connection request queue whose idle re-check request-queue.ts replaces. */
  requestQueue: "kafkajs/src/network/requestQueue/index.js",
  /** The record batch decoder that decode-guard.ts puts record-batch.ts in front of. */
  recordBatchDecoder: "kafkajs/src/protocol/recordBatch/v0/decoder.js",
  /** The fetch responses' helper (fetch versions 4 to 11) that loads the record batch decoder. */
  fetchDecoder: "kafkajs/src/protocol/requests/fetch/v4/decodeMessages.js",
  /** `lookupCodecByAttributes`: the codec table the decoders read. */
  compression: "kafkajs/src/protocol/message/compression/index.js",
  /** `KafkaJSPartialMessageError`, which the fetch decoder expects for a batch cut short. */
  errors: "kafkajs/src/errors.js",
  /** The admin factory, emitter and isolation levels that log-end.ts builds its admin from. */
  admin: "kafkajs/src/admin/index.js",
  emitter: "kafkajs/src/instrumentation/emitter.js",
  isolationLevel: "kafkajs/src/protocol/isolationLevel.js",
} as const;

/** Descriptions of the Kafka instance's private symbols (kafkajs/src/index.js) that log-end.ts reads. */
export const PRIVATE_MEMBERS = {
  createCluster: "private:Kafka:createCluster",
  logger: "private:Kafka:logger",
} as const;
