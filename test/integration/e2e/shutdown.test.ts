// SIGTERM against brokers, registries and state topics that accept connections and never answer:
// the process must log "stopping" at once and end by itself within shutdown.deadline (Kubernetes
// sends SIGKILL 30 s after SIGTERM), saving the state when it can. It needs dist/ (`npm run build`).
import { readFile } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { writeTree } from "../../helpers/files.js";
import { waitFor } from "../../helpers/kafka.js";
import { blackHole, closedPort, spawnCli, type BlackHole, type CliProcess } from "../../helpers/process.js";

const SCHEMAS = `${process.cwd()}/examples/catalog/event`;
const SERVING = "serving the status page at /, /metrics, /healthz, /readyz and /api/*";
/** What kafkajs alone takes to give up on a black-holed broker is 84 s or more: far past this. */
const EXIT_WITHIN_MS = 15_000;

const running: CliProcess[] = [];
const holes: BlackHole[] = [];

afterEach(async () => {
  for (const monitor of running.splice(0)) monitor.kill("SIGKILL");
  await Promise.all(holes.splice(0).map((hole) => hole.close()));
});

async function hole(): Promise<BlackHole> {
  const made = await blackHole();
  holes.push(made);
  return made;
}

function start(config: string): CliProcess {
  const monitor = spawnCli(["run", "--config", config, "--port", "0"]);
  running.push(monitor);
  return monitor;
}

/** Waits for the status page to answer: the monitor is up (its consumer still connecting). */
async function serving(monitor: CliProcess): Promise<void> {
  await waitFor(() => monitor.logged(SERVING).length > 0, "the monitor to listen", 60_000, 50);
  const address = String(monitor.logged(SERVING)[0]!["address"]);
  expect((await fetch(`${address}/healthz`)).status).toBe(200);
}

/** Sends SIGTERM and waits (at most EXIT_WITHIN_MS) for the exit; `ms` counts from the signal. */
async function terminate(
  monitor: CliProcess,
): Promise<{ code: number | null; signal: string | null; ms: number; stoppingMs: number }> {
  const sentAt = Date.now();
  monitor.kill("SIGTERM");
  const exit = await Promise.race([
    monitor.exited,
    new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), EXIT_WITHIN_MS)),
  ]);
  if (!exit)
    throw new Error(
      `still running ${EXIT_WITHIN_MS} ms after SIGTERM; last lines:\n${monitor.lines
        .slice(-5)
        .map((l) => l.text)
        .join("\n")}`,
    );
  const stopping = monitor.lines.find((l) => l.text.includes('"msg":"stopping"'));
  return {
    code: exit.code,
    signal: exit.signal,
    ms: exit.at - sentAt,
    stoppingMs: (stopping?.at ?? Infinity) - sentAt,
  };
}

function config(
  brokerPort: number,
  extra: string,
  subjects = `subjects:\n  - name: event\n    topics: [events]\n    schemas: ${SCHEMAS}\n`,
): string {
  return `kafka:\n  brokers: ["127.0.0.1:${brokerPort}"]\n  groupId: sw-shutdown-test\n${extra}${subjects}`;
}

describe("SIGTERM within shutdown.deadline", () => {
  it("with a black-holed broker: logs stopping at once, saves the state and exits 0 within the deadline", async () => {
    const broker = await hole();
    const dir = await writeTree({
      "config.yaml": config(broker.port, "shutdown:\n  deadline: 3s\nstate:\n  file: state.json\n"),
    });
    const monitor = start(`${dir}/config.yaml`);
    await serving(monitor);
    await waitFor(() => broker.accepted() > 0, "the consumer to connect to the black hole", 30_000, 50);

    const stop = await terminate(monitor);

    expect({ code: stop.code, signal: stop.signal }).toEqual({ code: 0, signal: null });
    expect(stop.stoppingMs).toBeLessThan(3_000);
    expect(monitor.logged("stopping")).toEqual([expect.objectContaining({ deadline: "3s" })]);
    const stopped = monitor.logged("stopped");
    expect(stopped).toEqual([expect.objectContaining({ state: "saved" })]);
    // The deadline less the second kept for the process itself to end.
    expect(stopped[0]!["elapsedMs"]).toBeLessThanOrEqual(2_000);
    const saved = JSON.parse(await readFile(`${dir}/state.json`, "utf8")) as Record<string, unknown>;
    expect(Object.keys(saved)).toContain("partitions");
    expect(monitor.lines.filter((l) => l.text.includes("state not saved"))).toEqual([]);
  }, 120_000);

  it("with the state topic on a black-holed broker: stops during start-up and says the state was not saved", async () => {
    const broker = await hole();
    const dir = await writeTree({
      "config.yaml": config(broker.port, "shutdown:\n  deadline: 3s\nstate:\n  topic: sw-shutdown-state\n"),
    });
    const monitor = start(`${dir}/config.yaml`);
    // Start-up waits to read the state topic: nothing listens yet.
    await waitFor(() => broker.accepted() > 0, "the state topic's client to connect", 60_000, 50);

    const stop = await terminate(monitor);

    expect({ code: stop.code, signal: stop.signal }).toEqual({ code: 0, signal: null });
    expect(stop.stoppingMs).toBeLessThan(3_000);
    expect(
      monitor.lines.filter((l) => l.text.includes("state not saved")).map((l) => JSON.parse(l.text).msg),
    ).toEqual([
      "state not saved: the stop came while reading the state from the state topic sw-shutdown-state, before the state was read; the saved state is left as it was",
    ]);
  }, 120_000);

  it("with a black-holed registry: stops during start-up, leaving the state as it was", async () => {
    const registry = await hole();
    const broker = await closedPort();
    const dir = await writeTree({
      "config.yaml": config(
        broker,
        `shutdown:\n  deadline: 3s\nregistries:\n  main: { url: "http://127.0.0.1:${registry.port}" }\n`,
        "subjects:\n  - name: event\n    topics: [events]\n    registry: { name: main }\n",
      ),
    });
    const monitor = start(`${dir}/config.yaml`);
    await waitFor(() => registry.accepted() > 0, "the registry client to connect", 60_000, 50);

    const stop = await terminate(monitor);

    expect({ code: stop.code, signal: stop.signal }).toEqual({ code: 0, signal: null });
    expect(stop.stoppingMs).toBeLessThan(3_000);
    expect(
      monitor.lines.filter((l) => l.text.includes("state not saved")).map((l) => JSON.parse(l.text).msg),
    ).toEqual([
      "state not saved: the stop came while reading the schema registries, before the state was read; the saved state is left as it was",
    ]);
  }, 120_000);

  it("a second SIGTERM stops at once, long before the deadline", async () => {
    const broker = await hole();
    const dir = await writeTree({ "config.yaml": config(broker.port, "state:\n  file: state.json\n") });
    const monitor = start(`${dir}/config.yaml`);
    await serving(monitor);
    await waitFor(() => broker.accepted() > 0, "the consumer to connect to the black hole", 30_000, 50);
    const sentAt = Date.now();
    monitor.kill("SIGTERM");
    await waitFor(() => monitor.logged("stopping").length > 0, "stopping", 3_000, 20);
    monitor.kill("SIGTERM");

    const exit = await monitor.exited;

    expect({ code: exit.code, signal: exit.signal }).toEqual({ code: 0, signal: null });
    // The default deadline is 20 s, and the black-holed consumer alone would take 14 s of it.
    expect(exit.at - sentAt).toBeLessThan(8_000);
    expect(monitor.logged("a second signal: stopping at once")).toHaveLength(1);
    expect(monitor.logged("stopped")).toEqual([expect.objectContaining({ state: "not saved" })]);
  }, 120_000);

  it("with the broker refusing connections: stops in a few seconds and saves the state", async () => {
    const broker = await closedPort();
    const dir = await writeTree({ "config.yaml": config(broker, "state:\n  file: state.json\n") });
    const monitor = start(`${dir}/config.yaml`);
    await serving(monitor);
    await waitFor(
      () => monitor.lines.some((l) => l.text.includes("Kafka unreachable")),
      "Kafka unreachable",
      60_000,
      50,
    );

    const stop = await terminate(monitor);

    expect({ code: stop.code, signal: stop.signal }).toEqual({ code: 0, signal: null });
    expect(stop.stoppingMs).toBeLessThan(3_000);
    expect(stop.ms).toBeLessThan(10_000);
    expect(monitor.logged("stopped")).toEqual([expect.objectContaining({ state: "saved" })]);
    expect(Object.keys(JSON.parse(await readFile(`${dir}/state.json`, "utf8")) as object)).toContain(
      "partitions",
    );
  }, 120_000);
});
