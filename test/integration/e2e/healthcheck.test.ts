// The image's HEALTHCHECK (bin/healthcheck.js) against real `schemawatch run` processes: it finds the
// port in the monitor's config or its --port flag, answers 1 once the monitor is gone, and says why.
// Needs dist/ (npm test builds it first).
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeTree } from "../../helpers/files.js";
import { waitFor } from "../../helpers/kafka.js";

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const port = (server.address() as { port: number }).port;
  await new Promise((done) => server.close(done));
  return port;
}

const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

/** `schemawatch run` replaying the example capture and serving on; resolves once it listens. */
async function monitor(args: string[], cwd: string): Promise<ReturnType<typeof spawn>> {
  if (!existsSync("dist/cli/main.js")) throw new Error("dist/ is missing: run `npm run build` first");
  const capture = resolve("examples/traffic/events.ndjson");
  const child = spawn(
    process.execPath,
    [resolve("bin/schemawatch.js"), "run", ...args, "--source", `file:${capture}`],
    {
      cwd,
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  children.push(child);
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  await waitFor(
    () => stderr.includes('"msg":"capture replayed"'),
    "the monitor to replay the capture",
    30_000,
  );
  return child;
}

function healthcheck(pid: number | undefined): { status: number | null; stderr: string } {
  const result = spawnSync(process.execPath, ["bin/healthcheck.js", "--pid", String(pid)], {
    encoding: "utf8",
    timeout: 20_000,
  });
  return { status: result.status, stderr: result.stderr };
}

describe("bin/healthcheck.js", () => {
  it("asks /healthz on the port of the monitor's config, found through a relative --config", async () => {
    const port = await freePort();
    const dir = await writeTree({
      "config.yaml": `http:\n  port: ${port}\nsubjects:\n  - name: event\n    topics: [events]\n    schemas: ${resolve("examples/catalog/event")}\n`,
    });
    const child = await monitor(["--config", "config.yaml"], dir);
    expect(healthcheck(child.pid)).toEqual({ status: 0, stderr: "" });

    child.kill("SIGTERM");
    await new Promise((done) => child.once("exit", done));
    expect(healthcheck(child.pid)).toEqual({
      status: 1,
      stderr: `schemawatch healthcheck: process ${child.pid} is not a running 'schemawatch run'\n`,
    });
  });

  it("follows --port over the config, and fails when nothing answers there", async () => {
    const port = await freePort();
    const child = await monitor(["--config", resolve("examples/config.yaml"), "--port", String(port)], ".");
    expect(healthcheck(child.pid)).toEqual({ status: 0, stderr: "" });

    // The same flags on a process that is not listening there: a monitor that stopped answering.
    const silent = await freePort();
    const stopped = spawn(
      process.execPath,
      ["-e", "setTimeout(() => {}, 60_000)", "schemawatch", "run", "--port", String(silent)],
      { stdio: "ignore" },
    );
    children.push(stopped);
    const result = healthcheck(stopped.pid);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(`schemawatch healthcheck: http://127.0.0.1:${silent}/healthz: fetch failed\n`);
  });
});
