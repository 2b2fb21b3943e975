// A second, throw-away Kafka broker with a SASL_PLAINTEXT listener (PLAIN, SCRAM-SHA-256 and
// SCRAM-SHA-512), for the tests of KafkaSource's SASL path and of a broker that goes away.
//
// It runs from the same jars as scripts/kafka-broker.sh (fetched into the same cache by `fetch`) on
// two free ports and a temporary folder, takes about 4 s to format and start, and can be stopped and
// started again on the same data, as a broker restart would be.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";

import { Kafka, logLevel, type SASLOptions } from "kafkajs";

import { freePort } from "../../helpers/ports.js";

export const ADMIN: SASLOptions = { mechanism: "plain", username: "admin", password: "admin-secret" };
export const PLAIN_USER = { username: "alice", password: "alice-Secret-1" };
export const SCRAM_USER = { username: "bob", password: "bob-Secret-2" };

function libsDir(): string {
  const cache =
    process.env["SW_CACHE"] ??
    join(process.env["XDG_CACHE_HOME"] ?? join(homedir(), ".cache"), "schemawatch");
  return join(cache, `kafka-${process.env["KAFKA_VERSION"] ?? "4.4.0"}`, "libs");
}

function properties(dir: string, port: number, controllerPort: number): string {
  const plainUsers = `user_admin="admin-secret" user_${PLAIN_USER.username}="${PLAIN_USER.password}"`;
  return `process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:${controllerPort}
listeners=SASL_PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}
advertised.listeners=SASL_PLAINTEXT://127.0.0.1:${port}
controller.listener.names=CONTROLLER
inter.broker.listener.name=SASL_PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT
sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256,SCRAM-SHA-512
sasl.mechanism.inter.broker.protocol=PLAIN
listener.name.sasl_plaintext.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" password="admin-secret" ${plainUsers};
listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
log.dirs=${join(dir, "data")}
num.partitions=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
num.network.threads=2
num.io.threads=2
`;
}

const LOG4J = `status = warn
appender.stdout.type = Console
appender.stdout.name = STDOUT
appender.stdout.layout.type = PatternLayout
appender.stdout.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = WARN
rootLogger.appenderRef.stdout.ref = STDOUT
logger.server.name = kafka.server.KafkaRaftServer
logger.server.level = INFO
`;

export class SaslBroker {
  readonly brokers: string[];
  readonly #dir: string;
  readonly #java: string[];
  #process: ChildProcess | undefined;
  #log = "";

  private constructor(dir: string, port: number, java: string[]) {
    this.#dir = dir;
    this.brokers = [`127.0.0.1:${port}`];
    this.#java = java;
  }

  /** Formats a fresh broker (with the SCRAM user) and starts it; fails with the reason when it cannot. */
  static async create(): Promise<SaslBroker> {
    const libs = libsDir();
    if (!existsSync(libs)) {
      throw new Error(
        `Kafka's jars are not in ${libs}: run scripts/kafka-broker.sh fetch (needs Java and Maven)`,
      );
    }
    const dir = await mkdtemp(join(tmpdir(), "sw-sasl-broker-"));
    const [port, controllerPort] = [await freePort(), await freePort()];
    await writeFile(join(dir, "server.properties"), properties(dir, port, controllerPort));
    await writeFile(join(dir, "log4j2.properties"), LOG4J);
    const java = ["-Xms128m", "-Xmx384m", `-Dlog4j2.configurationFile=${join(dir, "log4j2.properties")}`];
    java.push("-cp", join(libs, "*"));
    const scram = `name=${SCRAM_USER.username},password=${SCRAM_USER.password}`;
    const clusterId = randomBytes(16).toString("base64url");
    const format = spawnSync(
      "java",
      [
        ...java,
        "kafka.tools.StorageTool",
        "format",
        // "=": a random id may begin with "-", which would otherwise read as an option.
        `--cluster-id=${clusterId}`,
        "-c",
        join(dir, "server.properties"),
        "--add-scram",
        `SCRAM-SHA-256=[${scram}]`,
        "--add-scram",
        `SCRAM-SHA-512=[${scram}]`,
      ],
      { encoding: "utf8", timeout: 60_000 },
    );
    if (format.status !== 0) {
      await rm(dir, { recursive: true, force: true });
      throw new Error(`formatting the SASL broker failed: ${format.error?.message ?? format.stderr}`);
    }
    const broker = new SaslBroker(dir, port, java);
    await broker.start();
    return broker;
  }

  /** Starts the JVM on the existing data and waits until an authenticated admin gets an answer. */
  async start(): Promise<void> {
    const child = spawn("java", [...this.#java, "kafka.Kafka", join(this.#dir, "server.properties")], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.#process = child;
    // The JVM must not outlive a test process that ends without afterAll (a crash, a Ctrl-C).
    const kill = (): void => void child.kill("SIGKILL");
    process.once("exit", kill);
    child.once("exit", () => process.off("exit", kill));
    this.#log = "";
    const keep = (chunk: Buffer): void => {
      this.#log = (this.#log + chunk.toString()).slice(-8_000);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the SASL broker exited:\n${this.#log}`);
      if (await this.#answers()) return;
      if (Date.now() > deadline) throw new Error(`the SASL broker did not answer in 60 s:\n${this.#log}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  /** A kafkajs client as the broker's admin user. */
  client(): Kafka {
    return new Kafka({
      brokers: this.brokers,
      sasl: ADMIN,
      logLevel: logLevel.NOTHING,
      connectionTimeout: 1_000,
      retry: { retries: 3, initialRetryTime: 100 },
    });
  }

  async #answers(): Promise<boolean> {
    const admin = new Kafka({
      brokers: this.brokers,
      sasl: ADMIN,
      logLevel: logLevel.NOTHING,
      connectionTimeout: 1_000,
      retry: { retries: 0 },
    }).admin();
    try {
      await admin.connect();
      const cluster = await admin.describeCluster();
      return cluster.brokers.length === 1;
    } catch {
      return false;
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }

  /** Stops the JVM (SIGTERM, SIGKILL after 20 s) and waits for it to exit. */
  async stop(): Promise<void> {
    const child = this.#process;
    this.#process = undefined;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    await exited;
    clearTimeout(timer);
  }

  /** Stops the broker and removes its data. */
  async destroy(): Promise<void> {
    await this.stop();
    await rm(this.#dir, { recursive: true, force: true });
  }
}
