// `check` over a large folder, `report` and `readiness` on a large capture: SIGTERM or SIGINT, sent
// once the command is working, ends it within two seconds with the status a shell reads as 143 or
// 130, and `report --out` leaves no file (whole or partial) behind. Issue 41 asks this of every
// command; test/integration/cli/diff-stop.test.ts holds `diff` to it. These commands get no signal
// handler (src/cli/main.ts), so the signal's default action ends them wherever they are. Needs dist/
// (`npm run build`).
import { spawn } from "node:child_process";
import { createWriteStream, existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { once } from "node:events";
import { resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeTree } from "../../helpers/files.js";
import { waitFor } from "../../helpers/wait.js";

const children: { kill(signal: NodeJS.Signals): unknown }[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

const EVENT = resolve("examples/catalog/event");
const CONFIG = `logLevel: silent
subjects:
  - name: event
    topics: [events]
    schemas: ${EVENT}
    versions:
      "1.0.0": { status: deprecated }
      "1.1.0": { status: active }
    drainWindow: 60s
`;

/** A capture of `records` records, 1.0 and 1.1 in turn over three partitions (about 170 bytes each). */
async function largeCapture(dir: string, records: number): Promise<string> {
  const path = `${dir}/capture.ndjson`;
  const out = createWriteStream(path);
  const t0 = Date.parse("2026-12-01T08:00:00Z");
  let chunk = "";
  for (let i = 0; i < records; i++) {
    const version = i % 2 === 0 ? "1.1" : "1.0";
    const value = version === "1.0" ? { id: i, event: "view" } : { id: i, event: "buy", amount: 5 };
    const headers = { producer: version === "1.0" ? "web" : "mobile", "schema-version": version };
    const line = { topic: "events", partition: i % 3, offset: Math.floor(i / 3), timestamp: t0 + i };
    chunk += `${JSON.stringify({ ...line, headers, value })}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, "drain");
      chunk = "";
    }
  }
  out.end(chunk);
  await once(out, "finish");
  return path;
}

/** Seconds of CPU the process has used (Linux: /proc/PID/stat, user and system ticks). */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

const SIGNAL_STATUS: Readonly<Record<string, number>> = { SIGINT: 130, SIGTERM: 143 };
const shellStatus = (exit: { code: number | null; signal: NodeJS.Signals | null }) =>
  exit.code ?? SIGNAL_STATUS[exit.signal ?? ""] ?? -1;

/**
 * Starts the built CLI, waits until it has used `working` seconds of CPU (start-up takes a fraction
 * of that: it is reading and validating), sends `signal`, and returns how it ended and within how
 * many milliseconds.
 */
async function stopWorking(args: readonly string[], signal: NodeJS.Signals, working: number) {
  const child = spawn(process.execPath, ["bin/schemawatch.js", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.resume();
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  child.on("exit", (code, sig) => (exit = { code, signal: sig }));
  const pid = child.pid!;
  await waitFor(
    () => exit !== undefined || cpuSeconds(pid) >= working,
    "the command to be working",
    120_000,
    20,
  );
  expect(exit, "still working when the signal is sent").toBeUndefined();
  const sent = Date.now();
  child.kill(signal);
  await waitFor(() => exit !== undefined, `the command to end on ${signal}`, 2_000, 10);
  return { status: shellStatus(exit!), ms: Date.now() - sent, stdout };
}

describe("every command stops on a signal", () => {
  for (const [signal, status] of [
    ["SIGTERM", 143],
    ["SIGINT", 130],
  ] as const) {
    it(`check over 30,000 documents: ${signal} ends it, status ${status}`, { timeout: 300_000 }, async () => {
      const dir = await writeTree({ "new/d0.json": { id: 0, event: "buy", amount: 5 } });
      await mkdir(`${dir}/old`);
      for (let i = 0; i < 30_000; i += 1000)
        await Promise.all(
          Array.from({ length: 1000 }, (_, j) =>
            writeFile(`${dir}/old/d${i + j}.json`, JSON.stringify({ id: i + j, event: "view" })),
          ),
        );
      const args = ["check", `${EVENT}/1.0.json`, `${EVENT}/1.1.json`];
      const ended = await stopWorking(
        [...args, "--old-docs", `${dir}/old`, "--new-docs", `${dir}/new`],
        signal,
        0.8,
      );
      expect(ended.status).toBe(status);
      // The summary is the last line of a finished run: it never came.
      expect(ended.stdout).not.toMatch(/documents ok/);
    });

    it(
      `report --out on a capture of 600,000 records: ${signal} ends it, status ${status}, no file left`,
      { timeout: 300_000 },
      async () => {
        const dir = await writeTree({ "config.yaml": CONFIG });
        const capture = await largeCapture(dir, 600_000);
        const out = `${dir}/report.html`;
        const args = ["report", "--config", `${dir}/config.yaml`, "--source", `file:${capture}`];
        const ended = await stopWorking([...args, "--format", "html", "--out", out], signal, 0.8);
        expect(ended.status).toBe(status);
        expect(existsSync(out)).toBe(false);
        expect(readdirSync(dir).sort()).toEqual(["capture.ndjson", "config.yaml"]);
      },
    );

    it(
      `readiness on a capture of 600,000 records: ${signal} ends it, status ${status}`,
      { timeout: 300_000 },
      async () => {
        const dir = await writeTree({ "config.yaml": CONFIG });
        const capture = await largeCapture(dir, 600_000);
        const args = [
          "readiness",
          "--subject",
          "event",
          "--version",
          "1.0",
          "--config",
          `${dir}/config.yaml`,
        ];
        const ended = await stopWorking([...args, "--source", `file:${capture}`], signal, 0.8);
        expect(ended.status).toBe(status);
        expect(ended.stdout).toBe("");
      },
    );
  }
});
