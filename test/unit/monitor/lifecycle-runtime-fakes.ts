// A lifecycle runtime of the bundled `event` catalog with what it logs captured, and a fake state
// topic, for the runtime's unit tests.
import { Writable } from "node:stream";
import type { Lifecycle } from "../../../src/lifecycle/lifecycle.js";
import type { Persistence } from "../../../src/monitor/lifecycle-runtime.js";
import { StateFile } from "../../../src/state/file.js";
import type { StateTopic } from "../../../src/state/topic.js";
import { createLogger } from "../../../src/log.js";
import { liveLifecycle } from "../../helpers/lifecycle.js";

export const T0 = Date.parse("2026-12-01T08:00:00Z");

export async function runtimeWith(
  options: {
    statePath?: string;
    stateTopic?: StateTopic;
    judgeInterval?: number;
    /** The state file's other sections, as the core gives them (the corpus, the registry snapshots). */
    sections?: () => { corpus?: unknown; registry?: unknown };
  } = {},
) {
  // What the runtime logs, as `msg {fields}` (pino's own fields left out).
  const logged: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const {
        msg,
        level: _l,
        time: _t,
        service: _s,
        pid: _p,
        hostname: _h,
        ...fields
      } = JSON.parse(chunk.toString()) as Record<string, unknown>;
      logged.push(`${String(msg)} ${JSON.stringify(fields)}`);
      done();
    },
  });
  const file = options.statePath === undefined ? undefined : new StateFile(options.statePath);
  const persistence: Persistence = file
    ? { kind: "file", file, sections: options.sections ?? (() => ({})) }
    : options.stateTopic
      ? { kind: "topic", topic: options.stateTopic }
      : { kind: "none" };
  const { pipeline, runtime, clock } = await liveLifecycle({
    logger: createLogger("info", sink),
    persistence,
    ...(options.judgeInterval === undefined ? {} : { judgeInterval: options.judgeInterval }),
  });
  /** Reads the state file once, as the monitor's start does, and hands the runtime what was read. */
  const load = async () => runtime.load(file ? await file.read() : {});
  return { pipeline, runtime, clock, logged, load };
}

/** A state topic that records what the runtime asks of it; `fail` makes each call reject. */
export function fakeStateTopic(fail = false) {
  const calls: string[] = [];
  const answer = async (call: string) => {
    calls.push(call);
    if (fail) throw new Error(`${call} failed`);
  };
  const topic = {
    replica: "r1",
    start: async (_lifecycle: Lifecycle, onProblem: (problem: string) => void) => {
      await answer("start");
      onProblem("record r2/events/0 unreadable");
      return 3;
    },
    publish: (_lifecycle: Lifecycle, owned: readonly unknown[]) => answer(`publish ${owned.length}`),
    publishVersions: () => answer("publishVersions"),
    publishCoverage: (owned: readonly unknown[]) => answer(`publishCoverage ${owned.length}`),
    stop: () => answer("stop"),
  };
  return { calls, topic: topic as unknown as StateTopic };
}
