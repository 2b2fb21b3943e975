// The validation worker thread: builds the catalog from the config and registry snapshots it is given
// (the same files, the same builder and compiler as the consumer's thread; it never talks to a
// registry), then validates the jobs it is sent, one at a time, in order.
import { parentPort, workerData } from "node:worker_threads";
import { messageOf } from "../errors.js";
import { buildCatalog } from "../registry/catalog.js";
import { ValidationBudget } from "../engine/budget.js";
import { CompiledVersions } from "../registry/compile.js";
import {
  PROGRESS_BUSY,
  PROGRESS_ITEMS,
  type JobMessage,
  type ResultMessage,
} from "../pipeline/workers/job.js";
import { JobValidator } from "../pipeline/workers/validate.js";
import type { CatalogMessage, WorkerReply } from "../pipeline/workers/messages.js";

const port = parentPort;
if (!port) throw new Error("the validation worker runs only as a worker thread");

// Shared with the pool's watchdog, which replaces this thread if a job stops starting items.
const progress = (workerData as { progress: Int32Array }).progress;
let validator: JobValidator | undefined;
// Registered versions never change: each is compiled once for the life of the thread.
const compiled = new CompiledVersions();
// Messages are handled strictly in order: a job sent after a reload is validated with the new catalog.
let queue: Promise<void> = Promise.resolve();

port.on("message", (message: CatalogMessage | JobMessage) => {
  queue = queue.then(() => handle(message));
});

async function handle(message: CatalogMessage | JobMessage): Promise<void> {
  if (message.kind === "catalog") {
    try {
      const { catalog } = await buildCatalog(message.config, message.snapshots, { compiled });
      validator = new JobValidator(
        message.config.subjects.map((s) => catalog.subjects.get(s.name)),
        message.generation,
        message.shapes,
        new ValidationBudget(message.config.validationTimeout),
        message.config.assertFormats,
        () => Atomics.add(progress, PROGRESS_ITEMS, 1),
      );
      port!.postMessage({ kind: "catalog", generation: message.generation } satisfies WorkerReply);
    } catch (error) {
      const reply: WorkerReply = {
        kind: "catalog-failed",
        generation: message.generation,
        problem: messageOf(error),
      };
      port!.postMessage(reply);
    }
    return;
  }
  if (!validator) throw new Error("a job arrived before the catalog");
  // A version is compiled on its first job, before the watchdog counts this thread busy.
  validator.compile(message);
  Atomics.store(progress, PROGRESS_BUSY, 1);
  let result: ResultMessage;
  try {
    result = validator.validate(message);
  } finally {
    Atomics.store(progress, PROGRESS_BUSY, 0);
  }
  port!.postMessage(result, [
    result.bytes.buffer as ArrayBuffer,
    result.status.buffer as ArrayBuffer,
    result.firstReader.buffer as ArrayBuffer,
    result.passed.buffer as ArrayBuffer,
    result.keywords.buffer as ArrayBuffer,
    result.paths.buffer as ArrayBuffer,
  ]);
}
