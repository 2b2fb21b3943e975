// `diff` on a pair that needs far longer than any budget (400 properties, each with a lowered maximum:
// every one a break whose witness check compiles a copy of the whole version): SIGTERM or SIGINT
// ends it at once, with the status a shell reads as 143 or 130, and `--budget 2` ends it by itself
// with the directions that ran out undecided (budget). Issue 41: the comparison used to run on while
// its signal handler waited for it. Needs dist/ (`npm run build`).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { writeTree } from "../../helpers/files.js";
import { spawnCli, type CliProcess } from "../../helpers/process.js";
import { waitFor } from "../../helpers/wait.js";

const running: CliProcess[] = [];
const children: { kill(signal: NodeJS.Signals): unknown }[] = [];
afterEach(() => {
  for (const child of [...running.splice(0), ...children.splice(0)]) child.kill("SIGKILL");
});

/** 400 integer properties whose maximum each version sets: 10 in OLD, 5 in NEW. */
function wide(maximum: number): object {
  const properties = Object.fromEntries(
    Array.from({ length: 400 }, (_, i) => [`p${i}`, { type: "integer", maximum }]),
  );
  return { type: "object", properties };
}

async function slowPair(): Promise<[string, string]> {
  const dir = await writeTree({ "old.json": wide(10), "new.json": wide(5) });
  return [`${dir}/old.json`, `${dir}/new.json`];
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

/** The exit status as a shell reports it: the code, or 128 + the number of the signal that ended it. */
const SIGNAL_STATUS: Readonly<Record<string, number>> = { SIGINT: 130, SIGTERM: 143 };
const shellStatus = (exit: { code: number | null; signal: NodeJS.Signals | null }) =>
  exit.code ?? SIGNAL_STATUS[exit.signal ?? ""] ?? -1;

describe("diff stops on a signal", () => {
  for (const [signal, status] of [
    ["SIGTERM", 143],
    ["SIGINT", 130],
  ] as const) {
    it(`${signal} a second into a long comparison ends it within two more, status ${status}`, async () => {
      const [old, next] = await slowPair();
      // A budget far past the test: only the signal can end it here.
      const args = ["bin/schemawatch.js", "diff", old, next, "--format", "json", "--budget", "600"];
      const child = spawn(process.execPath, args, {
        stdio: ["ignore", "pipe", "ignore"],
      });
      children.push(child);
      let stdout = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
      child.on("exit", (code, signal) => (exit = { code, signal }));
      // A second of CPU past start-up (which takes a fraction of one): it is comparing, not loading.
      const pid = child.pid!;
      await waitFor(() => cpuSeconds(pid) >= 1.5, "diff to be a second into its comparison", 60_000, 50);
      expect(exit, "still comparing").toBeUndefined();
      child.kill(signal);
      await waitFor(() => exit !== undefined, `diff to end on ${signal}`, 2_000, 20);
      expect(shellStatus(exit!)).toBe(status);
      // Nothing half-written: the verdict is printed whole at the end or not at all.
      expect(stdout).toBe("");
    });
  }
});

describe("diff --budget", () => {
  it("ends the same pair by itself, the directions that ran out undecided (budget)", async () => {
    const [old, next] = await slowPair();
    const child = spawnCli(["diff", old, next, "--format", "json", "--budget", "2"]);
    running.push(child);
    const exit = await child.exited;
    // A major change with no declared version: exit 1, the JSON printed whole.
    expect(exit).toMatchObject({ code: 1, signal: null });
    const output = JSON.parse(child.lines.map((l) => l.text).join("\n")) as {
      backward: string;
      bump: string;
      budget: { seconds: number; ranOut: string[] };
      changes: { kind: string; backward: string; forward: string; reason: string }[];
    };
    expect(output.budget).toEqual({ seconds: 2, ranOut: ["backward"] });
    expect(output.bump).toBe("major");
    const outOfTime = output.changes.filter((c) => c.backward === "undecided");
    expect(outOfTime.length).toBeGreaterThan(0);
    for (const change of outOfTime)
      expect(change.reason).toMatch(/backward undecided: budget \(the 2 s time budget ran out/);
    // Forward was proven ok structurally for every change, and stays so.
    expect(output.changes.filter((c) => c.forward !== "ok")).toEqual([]);
  });
});
