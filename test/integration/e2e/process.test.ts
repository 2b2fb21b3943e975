// `schemawatch run` as an operator runs it: a real process, its real output streams, real signals.
// It needs dist/ (npm test builds it first).
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { writeTree } from "../../helpers/files.js";
import { waitFor } from "../../helpers/kafka.js";

/**
 * A broker that is down, as a port whose every connection is dropped at once: Kafka stays unreachable,
 * and the test can count the attempts to reach it.
 */
async function droppingPort(): Promise<{ port: number; attempts: () => number; close(): Promise<void> }> {
  let attempts = 0;
  const server = createServer((socket) => {
    attempts++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    attempts: () => attempts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Running {
  readonly lines: string[];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal: NodeJS.Signals): void;
}

function run(args: string[]): Running {
  if (!existsSync("dist/cli/main.js")) throw new Error("dist/ is missing: run `npm run build` first");
  const child = spawn(process.execPath, ["bin/schemawatch.js", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  let buffered = { stdout: "", stderr: "" };
  for (const stream of ["stdout", "stderr"] as const) {
    child[stream].setEncoding("utf8");
    child[stream].on("data", (chunk: string) => {
      const text = buffered[stream] + chunk;
      const parts = text.split("\n");
      buffered = { ...buffered, [stream]: parts.pop()! };
      lines.push(...parts.filter((l) => l !== ""));
    });
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  return { lines, exited, kill: (signal) => child.kill(signal) };
}

describe("schemawatch run as a process", () => {
  it("with the broker down: one line saying so, only JSON lines, and SIGTERM ends it", async () => {
    const broker = await droppingPort();
    const { port } = broker;
    const dir = await writeTree({
      "config.yaml": `kafka:
  brokers: ["127.0.0.1:${port}"]
  groupId: sw-process-test
subjects:
  - name: event
    topics: [events]
    schemas: ${process.cwd()}/examples/catalog/event
`,
    });
    const monitor = run(["run", "--config", `${dir}/config.yaml`, "--port", "0"]);
    try {
      await waitFor(
        () => monitor.lines.some((l) => l.includes("Kafka unreachable")),
        "the line that says Kafka is unreachable",
        undefined,
        100,
      );
      // Three more attempts to reach Kafka must not add lines about it (they are summarised a minute).
      const seen = broker.attempts();
      await waitFor(() => broker.attempts() >= seen + 3, "3 more attempts to reach Kafka", undefined, 100);
      expect(monitor.lines.filter((l) => l.includes("Kafka unreachable"))).toHaveLength(1);
      monitor.kill("SIGTERM");
      // The grace period is the test's timeout: a process that ignored SIGTERM would run past it.
      expect(await monitor.exited).toEqual({ code: 0, signal: null });
      // Every line on stdout and stderr is a JSON log line: no kafkajs or Node warning as plain text.
      const notJson = monitor.lines.filter((l) => {
        try {
          JSON.parse(l);
          return false;
        } catch {
          return true;
        }
      });
      expect(notJson).toEqual([]);
      expect(monitor.lines.some((l) => JSON.parse(l).msg === "stopping")).toBe(true);
    } finally {
      monitor.kill("SIGKILL");
      await broker.close();
    }
  }, 180_000);
});
