import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { isSchemawatchError } from "../../../src/errors.js";
import { createLogger } from "../../../src/log.js";
import { StopDeadline, StopRequest, runStop, type StopSteps } from "../../../src/monitor/stop.js";

const never = () => new Promise<never>(() => {});

function capture() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger("info", { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines, messages: () => lines.map((l) => l["msg"]) };
}

function steps(logger: StopSteps["logger"], overrides: Partial<StopSteps> = {}): StopSteps {
  return {
    logger,
    stopSource: async () => {},
    saveState: async () => undefined,
    stateAt: "the state file /var/lib/sw/state.json",
    stopRegistries: async () => {},
    close: async () => {},
    ...overrides,
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe("a stop within its deadline", () => {
  it("saves the state and says so when every step finishes", async () => {
    const { logger, lines, messages } = capture();
    const outcome = await runStop(steps(logger), new StopDeadline(20_000));
    expect(outcome).toEqual({ state: "saved", inTime: true });
    expect(messages()).toEqual(["stopped"]);
    expect(lines[0]).toMatchObject({ state: "saved" });
  });

  it("gives up a silent broker and a silent state topic at the deadline, less the second kept to exit", async () => {
    const { logger, messages } = capture();
    const given: number[] = [];
    const stopping = runStop(
      steps(logger, {
        stopSource: (ms) => (given.push(ms), never()),
        saveState: never,
        stateAt: "the state topic sw-state",
      }),
      new StopDeadline(3_000),
    );
    // 2 s of the 3 s: a quarter kept for the save, the source told 100 ms less so it says itself.
    expect(given).toEqual([1_400]);
    await vi.advanceTimersByTimeAsync(1_499);
    expect(messages()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(messages()).toEqual([
      "Kafka did not close: the deadline (3s) passed while leaving the consumer group",
    ]);
    await vi.advanceTimersByTimeAsync(500);
    expect(await stopping).toEqual({ state: "not saved", inTime: false });
    expect(messages()).toEqual([
      "Kafka did not close: the deadline (3s) passed while leaving the consumer group",
      "state not saved: the deadline (3s) passed while saving it to the state topic sw-state",
      "stopped",
    ]);
  });

  it("says why a save failed", async () => {
    const { logger, lines } = capture();
    const outcome = await runStop(
      steps(logger, { saveState: async () => "ENOSPC: no space left on device" }),
      new StopDeadline(20_000),
    );
    expect(outcome).toEqual({ state: "not saved", inTime: true });
    expect(lines.map((l) => l["msg"])).toEqual([
      "state not saved: ENOSPC: no space left on device",
      "stopped",
    ]);
  });

  it("has nothing to say about the state of a replay, which keeps none", async () => {
    const { logger, lines } = capture();
    const outcome = await runStop(steps(logger, { stateAt: undefined }), new StopDeadline(20_000));
    expect(outcome).toEqual({ state: "none", inTime: true });
    expect(lines).toEqual([expect.objectContaining({ msg: "stopped", state: "none" })]);
  });

  it("ends every step at once when cut short", async () => {
    const { logger, messages } = capture();
    const deadline = new StopDeadline(20_000);
    const stopping = runStop(steps(logger, { stopSource: never, saveState: never, close: never }), deadline);
    deadline.cutShort("a second signal came");
    expect(await stopping).toEqual({ state: "not saved", inTime: false });
    expect(messages()).toEqual([
      "Kafka did not close: a second signal came while leaving the consumer group",
      "state not saved: a second signal came while saving it to the state file /var/lib/sw/state.json",
      "a second signal came while closing the HTTP server, the registries and the state topic",
      "stopped",
    ]);
  });
});

describe("a stop asked for by a signal", () => {
  it("logs stopping at the signal, and once", () => {
    const { logger, lines } = capture();
    const signal = new AbortController();
    const request = new StopRequest(20_000, logger, { stop: signal.signal });
    expect(lines).toEqual([]);
    signal.abort();
    expect(lines).toEqual([expect.objectContaining({ msg: "stopping", deadline: "20s" })]);
    request.deadline();
    expect(lines).toHaveLength(1);
  });

  it("gives up a start-up step that waits on the network, undoing what came before it", async () => {
    const { logger, messages } = capture();
    const signal = new AbortController();
    const request = new StopRequest(20_000, logger, { stop: signal.signal });
    const undone: string[] = [];
    const step = request.step(never(), "reading the schema registries", async () => undone.push("sources"));
    signal.abort();
    const error: unknown = await step.catch((e: unknown) => e);
    expect(isSchemawatchError(error) && [error.code, error.message]).toEqual([
      "STOPPED",
      "stopped while reading the schema registries",
    ]);
    expect(undone).toEqual(["sources"]);
    expect(messages()).toEqual([
      "stopping",
      "state not saved: the stop came while reading the schema registries, before the state was read; the saved state is left as it was",
    ]);
  });

  it("a second signal cuts the deadline short", async () => {
    const { logger, messages } = capture();
    const first = new AbortController();
    const second = new AbortController();
    const request = new StopRequest(20_000, logger, { stop: first.signal, now: second.signal });
    first.abort();
    const pending = request.deadline().within(never());
    second.abort();
    expect(await pending).toBe(false);
    expect(request.deadline().why).toBe("a second signal came");
    expect(messages()).toEqual(["stopping", "a second signal: stopping at once"]);
  });
});
