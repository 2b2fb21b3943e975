// The product's peak memory without Kafka: the real `schemawatch run` replaying a capture in its own
// process, with the heap limits the image sets. The child reports its own peak (getrusage's maxRSS)
// as it exits, so the figure misses nothing between two polls.
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { PRODUCT_NODE_OPTIONS } from "./kafka.js";

const REPORT_PEAK = encodeURIComponent(
  'process.on("exit",()=>process.stderr.write("maxrss-kb "+process.resourceUsage().maxRSS+"\\n"))',
);

/** Peak resident memory (MB) of `schemawatch run --source file:CAPTURE --exit-at-end`. */
export async function replayMemory(capture, records) {
  const config = join(dirname(capture), "config.yaml");
  await writeFile(
    config,
    `logLevel: warn\nsubjects:\n  - name: event\n    topics: [events]\n    schemas: ${resolve("examples/catalog/event")}\n    sampling:\n      maxPerSecond: 100000000\n`,
  );
  const child = spawn(
    process.execPath,
    [
      "bin/schemawatch.js",
      "run",
      "--config",
      config,
      "--source",
      `file:${capture}`,
      "--exit-at-end",
      "--port",
      "0",
      "--format",
      "json",
    ],
    {
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        NODE_OPTIONS: `${PRODUCT_NODE_OPTIONS} --import=data:text/javascript,${REPORT_PEAK}`,
      },
    },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const timer = setTimeout(() => child.kill("SIGKILL"), 300_000);
  const code = await new Promise((r) => child.once("exit", r));
  clearTimeout(timer);
  const kb = Number(/maxrss-kb (\d+)/.exec(stderr)?.[1]);
  const counted = JSON.parse(stdout || "{}").subjects?.[0]?.records;
  if (code !== 0 || !kb || counted !== records)
    throw new Error(
      `schemawatch run replaying ${capture} failed (exit ${code}, ${counted} records): ${stderr}`,
    );
  return { peakMb: kb / 1024, nodeOptions: `NODE_OPTIONS=${PRODUCT_NODE_OPTIONS}` };
}
