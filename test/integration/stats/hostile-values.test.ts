import { spawn, type ChildProcess } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeTree } from "../../helpers/files.js";
import { waitForValue } from "../../helpers/wait.js";

// Issue 42: 50 producers send distinct 120 KB strings in an enum field (invalid, still profiled). The
// real CLI under the image's heap flags (Dockerfile's NODE_OPTIONS) replays them: it kept each string
// as a value's name (20 a bucket, 50 producers: 120 MB) and died "JavaScript heap out of memory". It
// must survive with its peak RSS within stats.maxMemoryMiB of the same replay without statistics, and
// say in a metric what it folded away. Needs dist/ (npm run build).

const IMAGE_FLAGS = ["--max-old-space-size=96", "--max-semi-space-size=8"];
const PRODUCERS = 50;
const EACH = 24;
const RECORDS = PRODUCERS * EACH;
const T0 = Date.parse("2026-12-01T08:00:00Z");
const MIB = 1024 * 1024;

const config = (stats: boolean) => `logLevel: info
stats:
  enabled: ${String(stats)}
subjects:
  - name: event
    topics: [events]
    schemas: ${resolve("examples/catalog/event")}
    versions:
      "1.1.0": { status: active }
`;

/** Each record's `event` a string of 120 KB that no other record sends. */
function capture(): string {
  const lines: string[] = [];
  for (let i = 0; i < EACH; i++)
    for (let p = 0; p < PRODUCERS; p++) {
      const offset = i * PRODUCERS + p;
      lines.push(
        JSON.stringify({
          topic: "events",
          partition: 0,
          offset,
          timestamp: T0 + offset * 100,
          headers: { producer: `p${p}`, "schema-version": "1.1" },
          value: { id: offset, event: `${offset}:${"x".repeat(120_000)}` },
        }),
      );
    }
  return lines.join("\n") + "\n";
}

const running = new Set<ChildProcess>();
afterEach(() => {
  for (const child of running) child.kill("SIGKILL");
  running.clear();
});

/** Replays the capture with `run` under the image's flags; its /metrics once every record is counted, and its peak RSS. */
async function replay(dir: string, stats: boolean): Promise<{ metrics: string; peakBytes: number }> {
  await writeFile(`${dir}/config-${String(stats)}.yaml`, config(stats));
  const child = spawn(
    process.execPath,
    [
      ...IMAGE_FLAGS,
      "bin/schemawatch.js",
      ...["run", "--config", `${dir}/config-${String(stats)}.yaml`],
      ...["--source", `file:${dir}/capture.ndjson`, "--port", "0"],
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  running.add(child);
  let stderr = "";
  let exited: string | undefined;
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  child.on("exit", (code, signal) => (exited = `exited (${String(code ?? signal)}): ${stderr.slice(-300)}`));
  // An exit ends each wait at once, with the monitor's last words (a probe that throws is asked again).
  const address = await waitForValue("the monitor's address", () =>
    exited ? { exited } : /"address":"(http:\/\/[^"]+)"/.exec(stderr)?.[1],
  );
  if (typeof address !== "string") throw new Error(`stats ${String(stats)}: ${address.exited}`);
  const counted = await waitForValue(
    `${RECORDS} records counted`,
    async () => {
      if (exited) return { exited };
      const text = await (await fetch(`${address}/metrics`)).text();
      const records = text
        .split("\n")
        .filter((l) => l.startsWith("schemawatch_records_total{"))
        .reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(" ") + 1)), 0);
      return records === RECORDS ? text : undefined;
    },
    240_000,
  );
  if (typeof counted !== "string") throw new Error(`stats ${String(stats)}: ${counted.exited}`);
  const metrics = counted;
  const status = await readFile(`/proc/${String(child.pid)}/status`, "utf8");
  const peakBytes = Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) * 1024;
  child.kill("SIGTERM");
  return { metrics, peakBytes };
}

const sample = (metrics: string, line: string) =>
  metrics.split("\n").find((l) => l.startsWith(line + " ") || l === line);

describe("field statistics under the image's heap flags", () => {
  it(
    "survive 50 producers of distinct 120 KB enum values within stats.maxMemoryMiB of the replay without them, and say what they folded",
    { timeout: 600_000 },
    async () => {
      const dir = await writeTree({ "capture.ndjson": capture() });
      const without = await replay(dir, false);
      const withStats = await replay(dir, true);
      // Every value is outside the enum: one `(other)` count, named nowhere.
      expect(sample(withStats.metrics, 'schemawatch_field_stats_folded_total{reason="outside_enum"}')).toBe(
        `schemawatch_field_stats_folded_total{reason="outside_enum"} ${RECORDS}`,
      );
      const bytes = Number(sample(withStats.metrics, "schemawatch_field_stats_bytes")!.split(" ")[1]);
      expect(bytes).toBeLessThanOrEqual(32 * MIB);
      // The default stats.maxMemoryMiB (32) over the same replay without statistics.
      expect({
        peakMiB: Math.round(withStats.peakBytes / MIB),
        baselineMiB: Math.round(without.peakBytes / MIB),
      }).toSatisfy(
        ({ peakMiB, baselineMiB }: { peakMiB: number; baselineMiB: number }) => peakMiB <= baselineMiB + 32,
      );
    },
  );
});
