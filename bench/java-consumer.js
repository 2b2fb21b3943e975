// The Kafka project's own Java consumer (bench/java/BareConsumer.java) as one consumer of the Kafka
// benchmark: compiled once per run against the kafka-clients jar that scripts/kafka-broker.sh fetches,
// then run in a fresh JVM per round like every other consumer. Where there is no JDK or no jars, the
// benchmark says why and goes on without it.
import { execFile, spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";

const SOURCE = resolve("bench/java/BareConsumer.java");
// The client, its codecs and its logging facade: all a consumer needs at run time.
const JARS = ["kafka-clients-", "snappy-java-", "lz4-java-", "zstd-jni-", "slf4j-api-"];

/** The folder of the Kafka jars, found as scripts/kafka-broker.sh finds it (SW_CACHE, KAFKA_VERSION). */
export function kafkaLibs(env = process.env) {
  const cache = env.SW_CACHE || join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "schemawatch");
  return join(cache, `kafka-${env.KAFKA_VERSION || "4.4.0"}`, "libs");
}

/**
 * Compiles the Java consumer into a temporary folder.
 * @returns {Promise<{ run(spec): Promise<object>, close(): Promise<void> } | { unavailable: string }>}
 */
export async function buildJavaConsumer() {
  const libs = kafkaLibs();
  const files = existsSync(libs) ? readdirSync(libs) : [];
  const jars = [];
  for (const prefix of JARS) {
    const jar = files.find((f) => f.startsWith(prefix) && f.endsWith(".jar"));
    if (!jar) return { unavailable: `no ${prefix}*.jar in ${libs} (run scripts/kafka-broker.sh fetch)` };
    jars.push(join(libs, jar));
  }
  const classes = await mkdtemp(join(tmpdir(), "schemawatch-bench-java-"));
  try {
    await promisify(execFile)("javac", ["-nowarn", "-d", classes, "-cp", jars.join(":"), SOURCE]);
  } catch (error) {
    await rm(classes, { recursive: true, force: true });
    const why =
      error.code === "ENOENT"
        ? "javac not found on PATH (a JDK 17 or newer is needed)"
        : error.stderr || error.message;
    return { unavailable: `the Java consumer did not compile: ${String(why).trim().slice(0, 300)}` };
  }
  const classpath = [classes, ...jars].join(":");
  const client = files.find((f) => f.startsWith("kafka-clients-"))?.replace(/^kafka-clients-|\.jar$/g, "");
  return {
    client,
    run: (spec) => runJava(classpath, spec),
    close: () => rm(classes, { recursive: true, force: true }),
  };
}

/** One run in a fresh JVM; resolves with its JSON line (rate, cpuSecondsPerMillion, peakRssMb). */
async function runJava(classpath, spec) {
  const child = spawn(
    "java",
    ["-cp", classpath, "BareConsumer", spec.brokers.join(","), spec.topic, String(spec.records)],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const timer = setTimeout(() => child.kill("SIGKILL"), 600_000);
  const code = await new Promise((r) => child.once("exit", r));
  clearTimeout(timer);
  if (code !== 0) throw new Error(`the Java consumer failed (exit ${code}): ${stderr.slice(-500)}`);
  return JSON.parse(stdout.trim().split("\n").pop());
}
