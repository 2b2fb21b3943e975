import { access, readFile, writeFile } from "node:fs/promises";
import { afterEach, describe, expect, it, vi } from "vitest";
import { StateFile, loadState, saveState } from "../../../src/state/file.js";
import { writeTree } from "../../helpers/files.js";
import { T0, fakeStateTopic, runtimeWith } from "./lifecycle-runtime-fakes.js";

// Where the lifecycle runtime keeps its state: a file, or the shared state topic; and what it logs
// when either cannot be read or written.

afterEach(() => {
  vi.useRealTimers();
});

describe("the state file", () => {
  it("saves the evidence with the corpus and the registry snapshots beside it, and restores them", async () => {
    const dir = await writeTree({});
    const path = `${dir}/state.json`;
    const { runtime } = await runtimeWith({
      statePath: path,
      sections: () => ({ corpus: { shapes: 2 }, registry: { subjects: ["event"] } }),
    });
    runtime.lifecycle.coverage.processed("events", 0, "0", "41", T0);
    await runtime.save();
    const saved = (await loadState(path))!;
    expect(saved.corpus).toEqual({ shapes: 2 });
    expect(saved.registry).toEqual({ subjects: ["event"] });

    const { runtime: restarted, logged, load } = await runtimeWith({ statePath: path });
    await load();
    expect(logged).toEqual([`lifecycle state restored {"path":"${path}","partitions":1}`]);
    expect(restarted.lifecycle.coverage.get("events", 0)).toMatchObject({ lastOffset: "41" });
    expect((await new StateFile(path).read()).sections).toMatchObject({
      corpus: { shapes: 2 },
      registry: { subjects: ["event"] },
    });
    expect(restarted.stateProblem).toBeUndefined();
  });

  it("leaves out what has nothing to save", async () => {
    const dir = await writeTree({});
    const path = `${dir}/state.json`;
    const { runtime } = await runtimeWith({ statePath: path, sections: () => ({ corpus: undefined }) });
    await runtime.save();
    const saved = JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
    expect(Object.keys(saved).sort()).toEqual([
      "candidates",
      "fields",
      "format",
      "partitions",
      "retiredSince",
      "savedAt",
      "startedAt",
      "unreadable",
      "versions",
    ]);
  });

  it("a missing file is a first start: no problem, no gap, nothing logged", async () => {
    const dir = await writeTree({});
    const { runtime, logged, load } = await runtimeWith({ statePath: `${dir}/state.json` });
    await load();
    expect(runtime.stateProblem).toBeUndefined();
    expect(runtime.lifecycle.coverage.gapCounts.size).toBe(0);
    expect(logged).toEqual([]);
    // and the first save writes it, with neither corpus nor registry hooks set
    await runtime.save();
    await access(`${dir}/state.json`);
  });

  it("a file that cannot be read is reported and restarts every window now, never zero traffic", async () => {
    const dir = await writeTree({ "state.json": "{ not json" });
    const { runtime, load } = await runtimeWith({ statePath: `${dir}/state.json` });
    await load();
    expect(runtime.stateProblem).toBe(`${dir}/state.json: state is not valid JSON`);
    expect(runtime.lifecycle.coverage.gapCounts.get("events")).toBe(1);
  });

  it("a save that fails is logged, not thrown; without a path nothing is read or written", async () => {
    const dir = await writeTree({ "state.json": "{}" });
    const { runtime, logged } = await runtimeWith({ statePath: `${dir}/state.json/inside` });
    // the problem is logged and returned (the stop says whether the state was saved), never thrown
    await expect(runtime.save()).resolves.toMatch(/^EEXIST: file already exists/);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(
      /^could not save lifecycle state \{"path":".*\/state.json\/inside","problem":"/,
    );
    const { runtime: none, logged: quiet, load: loadNone } = await runtimeWith();
    await loadNone();
    await none.save();
    expect(none.stateProblem).toBeUndefined();
    expect(quiet).toEqual([]);
    // the first state written there is read back as it was
    await saveState(`${dir}/other.json`, none.lifecycle.toState());
    await writeFile(`${dir}/state.json`, await readFile(`${dir}/other.json`));
    const { runtime: again, load: loadAgain } = await runtimeWith({ statePath: `${dir}/state.json` });
    await loadAgain();
    expect(again.stateProblem).toBeUndefined();
  });
});

describe("the shared state topic", () => {
  it("is read at start (a bad record is a problem, not a failure), published at each verdict, versions every second", async () => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
    const { calls, topic } = fakeStateTopic();
    const { runtime, logged } = await runtimeWith({ stateTopic: topic, judgeInterval: 10_000 });
    await runtime.load();
    expect(runtime.stateProblem).toBe("record r2/events/0 unreadable");
    runtime.lifecycle.coverage.assigned(new Map([["events", [0]]]), T0, false);
    runtime.startTicking();
    // versions go out at the first tick after the verdict (250 ms), then exactly a second later
    await vi.advanceTimersByTimeAsync(1250);
    runtime.sourceEvents.onRevoked();
    await runtime.stop();
    // the stop saves; closing the topic's clients is a step of its own, after the last save
    await runtime.close();
    expect(calls).toEqual([
      "start",
      "publish 1",
      "publishVersions",
      "publishVersions",
      "publishCoverage 1",
      "publish 0",
      "stop",
    ]);
    expect(logged).toEqual([
      'lifecycle state record unreadable {"problem":"record r2/events/0 unreadable"}',
      'lifecycle state read from the state topic {"records":3,"replica":"r1"}',
    ]);
  });

  it("a state topic that cannot be read restarts every window; failed publishes are logged, never thrown", async () => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
    const { calls, topic } = fakeStateTopic(true);
    const { runtime, logged } = await runtimeWith({ stateTopic: topic });
    await runtime.load();
    expect(runtime.stateProblem).toBe("start failed");
    expect(runtime.lifecycle.coverage.gapCounts.get("events")).toBe(1);
    runtime.startTicking();
    await vi.advanceTimersByTimeAsync(1000);
    runtime.sourceEvents.onRevoked();
    await runtime.save();
    expect(calls).toEqual(["start", "publish 0", "publishVersions", "publishCoverage 0", "publish 0"]);
    await vi.advanceTimersByTimeAsync(0);
    expect(logged).toEqual([
      'lifecycle state unreadable: every window restarts now {"problem":"start failed"}',
      'could not publish lifecycle state {"problem":"publish 0 failed"}',
      'could not publish version evidence {"problem":"publishVersions failed"}',
      'could not publish coverage on revocation {"problem":"publishCoverage 0 failed"}',
      'could not publish lifecycle state {"problem":"publish 0 failed"}',
    ]);
  });
});
