// A real Java transactional producer that holds its transaction open until the test ends it:
// test/helpers/java/HoldTransaction.java, compiled like the other Java helpers (java-producer.ts).
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { delimiter } from "node:path";
import { createInterface } from "node:readline";
import { compiledJavaClass, javaTool, kafkaClientClasspath } from "./java-producer.js";

export interface HeldRecord {
  readonly topic: string;
  readonly partition?: number;
  readonly value: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A transaction whose records are in the log, past the last stable offset, until commit() or abort(). */
export interface HeldTransaction {
  /** [partition, offset] of every record, in input order. */
  readonly offsets: ReadonlyArray<readonly [number, number]>;
  commit(): Promise<void>;
  abort(): Promise<void>;
  /** Ends the producer process without ending the transaction (cleanup). */
  kill(): void;
}

const ANSWER_TIMEOUT_MS = 90_000;

/** Starts the Java producer, sends `records` in one transaction and resolves once they are flushed. */
export async function holdTransaction(
  brokers: readonly string[],
  transactionalId: string,
  records: readonly HeldRecord[],
): Promise<HeldTransaction> {
  const classpath = kafkaClientClasspath();
  const classes = await compiledJavaClass(classpath, "HoldTransaction");
  const child: ChildProcessWithoutNullStreams = spawn(
    javaTool("java"),
    ["-cp", `${classes}${delimiter}${classpath}`, "HoldTransaction"],
    { stdio: ["pipe", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (what: string): Promise<Record<string, unknown>> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the Java transaction did not answer (${what}) in time:\n${stderr}`)),
        ANSWER_TIMEOUT_MS,
      );
    });
    try {
      const line = await Promise.race([lines.next(), timeout]);
      if (line.done) throw new Error(`the Java transaction exited before ${what}:\n${stderr}`);
      return JSON.parse(line.value) as Record<string, unknown>;
    } finally {
      clearTimeout(timer);
    }
  };
  child.stdin.write(`${JSON.stringify({ bootstrap: brokers.join(","), transactionalId })}\n`);
  for (const r of records) {
    const headers = Object.entries(r.headers ?? {});
    child.stdin.write(
      `${JSON.stringify({ topic: r.topic, partition: r.partition ?? null, value: r.value, headers })}\n`,
    );
  }
  child.stdin.write("send\n");
  const open = await next("the records to be flushed");
  const end = async (how: "commit" | "abort") => {
    child.stdin.write(`${how}\n`);
    const ended = await next(`the ${how}`);
    if (ended["ended"] !== how) throw new Error(`the Java transaction answered ${JSON.stringify(ended)}`);
    child.stdin.end();
  };
  return {
    offsets: open["offsets"] as [number, number][],
    commit: () => end("commit"),
    abort: () => end("abort"),
    kill: () => child.kill("SIGKILL"),
  };
}
