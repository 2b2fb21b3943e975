import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { SchemawatchError, messageOf } from "../errors.js";
import type { LifecycleState } from "../lifecycle/lifecycle.js";
import { isCandidateEvidence, isCoverageEntry, isUnreadableList, isVersionEvidence } from "./records.js";

/**
 * The single-process home of the evidence: a JSON file replaced atomically (written beside, then
 * renamed), so a crash mid-write leaves the previous state rather than half of the new one.
 */
export async function saveState(path: string, state: LifecycleState): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(state));
  await rename(temporary, path);
}

/**
 * Reads the state file. A missing file is a first start (undefined). A file that cannot be read or
 * parsed throws STATE_INVALID: the caller reports it and treats it as a coverage gap, never as zero
 * traffic.
 */
export async function loadState(path: string): Promise<LifecycleState | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new SchemawatchError("STATE_INVALID", `${path}: cannot read state: ${messageOf(error)}`, {
      cause: error,
    });
  }
  let state: unknown;
  try {
    state = JSON.parse(text);
  } catch (error) {
    throw new SchemawatchError("STATE_INVALID", `${path}: state is not valid JSON`, { cause: error });
  }
  if (!isState(state)) throw new SchemawatchError("STATE_INVALID", `${path}: state has an unknown format`);
  return state;
}

/** `{ subject: { version: evidence } }` with every evidence of the right shape. */
function everyInSubjects(value: unknown, is: (evidence: unknown) => boolean): boolean {
  if (typeof value !== "object" || value === null) return false;
  return Object.values(value).every(
    (versions: unknown) =>
      typeof versions === "object" && versions !== null && Object.values(versions).every(is),
  );
}

// JSON holds no NaN or Infinity: a number read from it is finite.
const isTime = (at: unknown): boolean => typeof at === "number";

function isState(value: unknown): value is LifecycleState {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    v["format"] === 1 &&
    typeof v["startedAt"] === "number" &&
    Array.isArray(v["partitions"]) &&
    v["partitions"].every(isCoverageEntry) &&
    everyInSubjects(v["versions"], isVersionEvidence) &&
    everyInSubjects(v["candidates"], isCandidateEvidence) &&
    (v["retiredSince"] === undefined || everyInSubjects(v["retiredSince"], isTime)) &&
    (v["unreadable"] === undefined ||
      (typeof v["unreadable"] === "object" &&
        v["unreadable"] !== null &&
        Object.values(v["unreadable"]).every(isUnreadableList)))
  );
}

/** The state document's sections, each owned by one concern. */
export interface StateSections {
  readonly lifecycle: LifecycleState;
  /** The corpus of real shapes (src/corpus), when it is enabled. */
  readonly corpus?: unknown;
  /** The last good snapshot of every registry subject (src/registry). */
  readonly registry?: unknown;
  /** The field statistics (src/stats), when they are enabled. */
  readonly stats?: unknown;
  /** Each subject's traffic over its drain window (src/history), the status page's charts. */
  readonly history?: unknown;
  /** Each rename's counts per producer and writer version (src/fields/rename-ledger.ts). */
  readonly renames?: unknown;
}

/** What was read of the state file at start: its sections, or why it could not be read. */
export interface ReadState {
  readonly sections?: StateSections;
  /** A STATE_INVALID error: the caller reports it and treats it as a coverage gap. */
  readonly problem?: unknown;
}

/**
 * The single-process state: one JSON document in one file, read once at start (each concern takes
 * its section from what was read) and written whole at every save.
 */
export class StateFile {
  readonly path: string;

  constructor(path: string) {
    this.path = path;
  }

  /** Reads the file; a missing file is a first start (no sections), never an error. */
  async read(): Promise<ReadState> {
    try {
      const state = await loadState(this.path);
      if (!state) return {};
      // The lifecycle's format predates the other sections: they are taken out beside it.
      const { corpus, registry, stats, history, renames, ...lifecycle } = state as LifecycleState & {
        stats?: unknown;
        history?: unknown;
        renames?: unknown;
      };
      return { sections: { lifecycle, corpus, registry, stats, history, renames } };
    } catch (error) {
      return { problem: error };
    }
  }

  /** Writes every section (the lifecycle's, with the others beside it, as the format has them). */
  write(sections: StateSections): Promise<void> {
    return saveState(this.path, {
      ...sections.lifecycle,
      ...(sections.corpus === undefined ? {} : { corpus: sections.corpus }),
      ...(sections.registry === undefined ? {} : { registry: sections.registry }),
      ...(sections.stats === undefined ? {} : { stats: sections.stats }),
      ...(sections.history === undefined ? {} : { history: sections.history }),
      ...(sections.renames === undefined ? {} : { renames: sections.renames }),
    });
  }
}
