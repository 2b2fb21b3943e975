import { createRequire } from "node:module";
import { registerCodecs, type CodecTable } from "./codecs/index.js";
import { installDecodeGuard, isDecodeGuardInstalled } from "./decode-guard.js";
import { installRequestQueueFix, isRequestQueueFixed } from "./request-queue.js";

/*
 * The one room that changes kafkajs (2.2.4, pinned exactly: see kafkajs.ts). Everything else of
 * schemawatch uses kafkajs's public API, and imports this room through this file only.
 */
export { UNDECODABLE, type UndecodableBatch } from "./decode-guard.js";
export { KafkaRecord } from "./kafka-record.js";
export { logEndAdmin } from "./log-end.js";

/** Marks kafkajs's codec table once schemawatch's codecs are in it. */
const CODECS = Symbol.for("schemawatch.kafkaCodecs");

function codecTable(): CodecTable & { [CODECS]?: true } {
  const require = createRequire(import.meta.url);
  // kafkajs is CommonJS and Node's ESM loader does not see this export by name: take it off the module.
  return (require("kafkajs") as { CompressionCodecs: CodecTable }).CompressionCodecs;
}

/**
 * Puts schemawatch's adaptations into kafkajs, for every kafkajs client of the process:
 *
 * - the codecs (`codecs/`): gzip, snappy, lz4 and zstd batches, read with a cap on their size;
 * - the decode guard (`decode-guard.ts`): the in-place batch decoder (`record-batch.ts`) in kafkajs's
 *   fetch path, and a batch nothing can decode handed over as one marker instead of failing the fetch;
 * - the request queue fix (`request-queue.ts`): idle queues stop re-checking every millisecond.
 *
 * The composition root calls it before it builds its first kafkajs client: kafkajs's fetch path
 * captures the batch decoder when it first loads, so a later call throws. Calling it again does
 * nothing. Throws when the installed kafkajs is not laid out as the pinned version is.
 */
export function install(): void {
  installDecodeGuard();
  installRequestQueueFix();
  const table = codecTable();
  if (table[CODECS] === true) return;
  registerCodecs(table);
  table[CODECS] = true;
}

/** Whether install() has run in this process (kafkajs's modules are shared by every importer). */
export function installed(): boolean {
  return isDecodeGuardInstalled() && isRequestQueueFixed() && codecTable()[CODECS] === true;
}
