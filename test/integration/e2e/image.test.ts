// The built image as an operator runs it: `scripts/image.sh run` (Docker, podman or buildah, whichever
// the machine has) with its default command and a mounted config, on the host network, against the
// real broker. Needs SCHEMAWATCH_IMAGE: the name `scripts/image.sh build` prints (.ci/run builds it).
import { spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { chmod, readFile } from "node:fs/promises";
import { createServer } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { parseCaptureLine } from "../../../src/source/capture-line.js";
import { writeTree } from "../../helpers/files.js";
import {
  createTopic,
  freshGroupId,
  freshTopic,
  kafkaBrokers,
  produce,
  waitFor,
  type TestMessage,
} from "../../helpers/kafka.js";

const NO_IMAGE =
  "SCHEMAWATCH_IMAGE is not set: build the image with `scripts/image.sh build` and export " +
  "SCHEMAWATCH_IMAGE=<the name it prints last> (.ci/run does both), then run this test again";

/** The bundled example traffic (examples/traffic/events.ndjson) as records for `topic`. */
async function exampleTraffic(): Promise<TestMessage[]> {
  const lines = (await readFile("examples/traffic/events.ndjson", "utf8")).split("\n").filter((l) => l);
  return lines.map((line, index) => {
    const { record } = parseCaptureLine(line, index);
    const headers = Object.fromEntries(
      Object.entries(record.headers ?? {}).map(([name, value]) => [name, value as Buffer]),
    );
    return {
      key: record.key,
      value: record.value ?? Buffer.alloc(0),
      headers,
      partition: record.partition,
      timestamp: String(record.timestamp),
    };
  });
}

/** A loopback port that is free now, for the monitor to listen on. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The non-zero series of the counters the replay moves, with the topic written as TOPIC. */
function counted(metrics: string, topic: string): string[] {
  return metrics
    .split("\n")
    .filter((l) => /^schemawatch_(records|validations|decode_errors)_total\{/.test(l) && !l.endsWith(" 0"))
    .map((l) => l.replaceAll(`topic="${topic}"`, 'topic="TOPIC"'))
    .sort();
}

const series = (name: string, labels: string, value: number) =>
  `schemawatch_${name}_total{topic="TOPIC",subject="event",${labels}} ${value}`;
const records = (producer: string, writer: string, value: number) =>
  series("records", `producer="${producer}",writer_version="${writer}"`, value);
const validations = (
  producer: string,
  writer: string,
  reader: string,
  direction: string,
  result: string,
  value: number,
) =>
  series(
    "validations",
    `producer="${producer}",writer_version="${writer}",reader_version="${reader}",direction="${direction}",result="${result}"`,
    value,
  );

// What the monitor counts of the 204 example records, as `schemawatch run --source file:` counts them.
const EXPECTED = [
  ...["not_json", "not_utf8", "truncated_wire_prefix", "unknown_schema_id"].map(
    (reason) => `schemawatch_decode_errors_total{topic="TOPIC",reason="${reason}"} 1`,
  ),
  records("billing", "1.1.0", 40),
  records("billing", "unknown", 2),
  records("legacy-batch", "none", 21),
  records("mobile", "1.1.0", 40),
  records("partner-feed", "1.1.0", 20),
  records("web", "1.0.0", 81),
  validations("web", "1.0.0", "1.0.0", "conformance", "pass", 80),
  validations("web", "1.0.0", "1.1.0", "backward", "pass", 80),
  validations("web", "1.0.0", "2.0.0", "backward", "fail", 80),
  ...["mobile", "billing"].flatMap((producer) => [
    validations(producer, "1.1.0", "1.0.0", "forward", "fail", 40),
    validations(producer, "1.1.0", "1.1.0", "conformance", "pass", 40),
    validations(producer, "1.1.0", "2.0.0", "backward", "pass", 40),
  ]),
  validations("partner-feed", "1.1.0", "1.0.0", "forward", "fail", 20),
  validations("partner-feed", "1.1.0", "1.1.0", "conformance", "fail", 20),
  validations("partner-feed", "1.1.0", "2.0.0", "backward", "fail", 20),
  validations("legacy-batch", "none", "1.0.0", "undeclared", "pass", 20),
  validations("legacy-batch", "none", "1.1.0", "undeclared", "pass", 20),
  validations("legacy-batch", "none", "2.0.0", "undeclared", "fail", 20),
].sort();

const containers: string[] = [];
afterAll(() => {
  // Normally `scripts/image.sh run` removed its container when the monitor ended; this is for a run
  // that had to be killed.
  for (const name of containers) spawnSync("scripts/image.sh", ["rm", name], { stdio: "ignore" });
});

describe("the image", () => {
  it("monitors the example traffic from the broker: exact counts, /healthz 200, exit 0 on SIGTERM", async () => {
    const image = process.env["SCHEMAWATCH_IMAGE"];
    if (image === undefined || image === "") throw new Error(NO_IMAGE);
    const brokers = await kafkaBrokers();
    const topic = freshTopic("sw-image");
    await createTopic(brokers, topic, 3);
    await produce(brokers, topic, await exampleTraffic());

    const port = await freePort();
    // The image's default command reads /etc/schemawatch/config.yaml; its catalog is the example's,
    // inside the image.
    const dir = await writeTree({
      "config.yaml": `http:
  host: 127.0.0.1
  port: ${port}
kafka:
  brokers: [${brokers.join(", ")}]
  groupId: ${freshGroupId("sw-image")}
  fromBeginning: true
state:
  file: /var/lib/schemawatch/state.json
subjects:
  - name: event
    topics: [${topic}]
    schemas: /app/examples/catalog/event
    versions:
      "1.0.0": { status: deprecated, deprecatedSince: "2026-11-01", confluentId: 101 }
      "1.1.0": { status: active, confluentId: 102 }
      "2.0.0": { status: candidate }
    writer:
      sources: [wire, header]
      header: schema-version
`,
    });
    // The image's user (1000) reads the mounted file through the folder.
    await chmod(dir, 0o755);
    const name = `schemawatch-test-${randomUUID().slice(0, 8)}`;
    containers.push(name);
    const child = spawn(
      "scripts/image.sh",
      ["run", "--name", name, "-v", `${dir}/config.yaml:/etc/schemawatch/config.yaml:ro`],
      // Its own process group: a run that must be killed takes the engine's processes with it.
      {
        stdio: ["ignore", "ignore", "pipe"],
        env: { ...process.env, SCHEMAWATCH_IMAGE: image },
        detached: true,
      },
    );
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const url = `http://127.0.0.1:${port}`;
    try {
      let metrics = "";
      await waitFor(
        async () => {
          metrics = await fetch(`${url}/metrics`).then(
            (r) => r.text(),
            () => "",
          );
          return counted(metrics, topic).join("\n") === EXPECTED.join("\n");
        },
        `the example's counts on ${url}/metrics (stderr so far: ${stderr.slice(-2_000)})`,
        180_000,
        500,
      ).catch(() => undefined);
      expect(counted(metrics, topic)).toEqual(EXPECTED);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);

      child.kill("SIGTERM");
      const code = await Promise.race([
        exited,
        new Promise<string>((resolve) => setTimeout(() => resolve("still running after 30 s"), 30_000)),
      ]);
      expect(code, stderr.slice(-2_000)).toBe(0);
    } finally {
      if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    }
  }, 300_000);
});
