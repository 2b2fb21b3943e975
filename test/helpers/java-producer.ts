// A real Java producer for integration tests: test/helpers/java/ProduceRecords.java, compiled with the
// JDK's javac against the Kafka client jars that scripts/kafka-broker.sh fetches, so that tests read
// batches exactly as production Java producers write them (their codecs, framing and batching).
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rename, rm } from "node:fs/promises";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";

const JAVA_DIR = join(import.meta.dirname, "java");
const PRODUCER = "ProduceRecords";
// Everything ProduceRecords needs: the client, its codecs (loaded by compression.type), its logging
// API (no binding: slf4j prints one warning on stderr and stays quiet) and Jackson for the spec.
const JARS = [
  "kafka-clients-",
  "snappy-java-",
  "lz4-java-",
  "zstd-jni-",
  "slf4j-api-",
  "jackson-core-",
  "jackson-databind-",
  "jackson-annotations-",
];
// Bounds a JVM that hangs; a loaded machine may take long to start one, so it is generous.
const RUN_TIMEOUT_MS = 180_000;

export type JavaCompression = "none" | "gzip" | "snappy" | "lz4" | "zstd";
/** A key, value or header value: null, a UTF-8 string, or bytes. */
export type JavaBytes = string | Buffer | null;

export interface JavaRecord {
  readonly topic: string;
  readonly partition?: number;
  readonly key?: JavaBytes;
  readonly value: JavaBytes;
  /** In order; a name may repeat, and a value may be null (Kafka allows it). */
  readonly headers?: ReadonlyArray<readonly [string, JavaBytes]>;
  /** Milliseconds since the epoch; the producer's clock when absent. */
  readonly timestamp?: number;
}

export interface JavaProduceOptions {
  readonly compression: JavaCompression;
  readonly records: readonly JavaRecord[];
  /** linger.ms (default 60 000, longer than any run: every record sent before the flush shares its partition's batch). */
  readonly lingerMs?: number;
  /** batch.size in bytes (default 1 MiB). */
  readonly batchSize?: number;
  /** Further producer properties, e.g. { "compression.lz4.level": "1" }. */
  readonly config?: Readonly<Record<string, string>>;
}

/** Where the broker acknowledged one record (offsets as decimal strings, the way kafkajs spells them). */
export interface ProducedRecord {
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
}

const nonEmpty = (value: string | undefined): string | undefined => (value ? value : undefined);

/** The cache root outside the repository, by the same rule as scripts/kafka-broker.sh (SW_CACHE). */
export function swCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return (
    nonEmpty(env["SW_CACHE"]) ??
    join(nonEmpty(env["XDG_CACHE_HOME"]) ?? join(homedir(), ".cache"), "schemawatch")
  );
}

/** The folder of the Kafka jars, by the same SW_CACHE and KAFKA_VERSION rules as scripts/kafka-broker.sh. */
export function kafkaLibsDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(swCacheDir(env), `kafka-${nonEmpty(env["KAFKA_VERSION"]) ?? "4.4.0"}`, "libs");
}

/** The class path of the Kafka client and its codecs; throws saying how to fetch them when missing. */
export function kafkaClientClasspath(libs = kafkaLibsDir()): string {
  const files = existsSync(libs) ? readdirSync(libs) : [];
  const jars = JARS.map((prefix) => {
    const jar = files.find((file) => file.startsWith(prefix) && file.endsWith(".jar"));
    if (jar === undefined) {
      throw new Error(
        `No ${prefix}*.jar in ${libs}: the Java producer needs the Kafka client jars.\n` +
          "Fetch them (once) with: scripts/kafka-broker.sh fetch",
      );
    }
    return join(libs, jar);
  });
  return jars.join(delimiter);
}

export function javaTool(name: "java" | "javac"): string {
  const home = process.env["JAVA_HOME"];
  return home ? join(home, "bin", name) : name;
}

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(command: string, args: readonly string[], input: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => child.kill("SIGKILL"), RUN_TIMEOUT_MS);
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`cannot run ${command} (is a JDK on PATH or JAVA_HOME set?)`, { cause: error }));
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({
        code,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      });
    });
    child.stdin.end(input);
  });
}

/**
 * The folder holding the compiled class `name` (test/helpers/java/NAME.java): compiled once per source
 * and class path (the cache key is their hash) into $SW_CACHE/java-classes, and reused by every later
 * test run.
 */
export async function compiledJavaClass(classpath: string, name = PRODUCER): Promise<string> {
  const sourceFile = join(JAVA_DIR, `${name}.java`);
  const source = await readFile(sourceFile);
  const key = createHash("sha256").update(source).update(classpath).digest("hex").slice(0, 16);
  const root = join(swCacheDir(), "java-classes");
  const target = join(root, `${name}-${key}`);
  if (existsSync(join(target, `${name}.class`))) return target;
  await mkdir(root, { recursive: true });
  const staging = await mkdtemp(join(root, ".compile-"));
  try {
    const javac = await run(javaTool("javac"), ["-nowarn", "-cp", classpath, "-d", staging, sourceFile], "");
    if (javac.code !== 0) throw new Error(`javac failed on ${sourceFile}:\n${javac.stderr}`);
    // Another test process may have won the race; its classes are the same.
    await rename(staging, target).catch(() => undefined);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return target;
}

const encodeBytes = (value: JavaBytes | undefined): string | { base64: string } | null =>
  value === undefined || value === null
    ? null
    : typeof value === "string"
      ? value
      : { base64: value.toString("base64") };

/**
 * Produces records with the Kafka Java client (acks=all; compression.type, linger.ms and batch.size as
 * given) and returns where each landed, in input order.
 */
export async function produceWithJava(
  brokers: string[],
  options: JavaProduceOptions,
): Promise<ProducedRecord[]> {
  const classpath = kafkaClientClasspath();
  const classes = await compiledJavaClass(classpath);
  const lines = [
    JSON.stringify({
      bootstrap: brokers.join(","),
      compression: options.compression,
      lingerMs: options.lingerMs ?? 60_000,
      batchSize: options.batchSize ?? 1 << 20,
      config: options.config ?? {},
    }),
    ...options.records.map((r) =>
      JSON.stringify({
        topic: r.topic,
        partition: r.partition ?? null,
        timestamp: r.timestamp ?? null,
        key: encodeBytes(r.key),
        value: encodeBytes(r.value),
        headers: (r.headers ?? []).map(([name, value]) => [name, encodeBytes(value)]),
      }),
    ),
  ];
  const result = await run(
    javaTool("java"),
    ["-cp", `${classes}${delimiter}${classpath}`, PRODUCER],
    lines.join("\n"),
  );
  if (result.code !== 0) {
    throw new Error(`the Java producer exited with ${result.code ?? "a signal"}:\n${result.stderr}`);
  }
  const produced = result.stdout
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const { topic, partition, offset } = JSON.parse(line) as {
        topic: string;
        partition: number;
        offset: number;
      };
      return { topic, partition, offset: String(offset) };
    });
  if (produced.length !== options.records.length) {
    throw new Error(`the Java producer acknowledged ${produced.length} of ${options.records.length} records`);
  }
  return produced;
}
