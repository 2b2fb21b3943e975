import type { Logger } from "pino";

import { messageOf } from "../errors.js";
import { RegistryError } from "./http.js";
import { mapLimited, type SnapshotReader } from "./snapshot.js";
import type { RegistryState, SkippedVersion, SubjectSnapshot } from "./types.js";

/** What changed in a subject between two snapshots. The first snapshot adds every version. */
export type SnapshotChange =
  | { readonly kind: "added"; readonly version: number; readonly id: number }
  | { readonly kind: "removed"; readonly version: number; readonly id: number }
  | {
      readonly kind: "state";
      readonly version: number;
      readonly from?: RegistryState;
      readonly to?: RegistryState;
    }
  | { readonly kind: "deleted"; readonly version: number; readonly deleted: boolean }
  | {
      readonly kind: "ids";
      readonly version: number;
      readonly globalId?: number;
      readonly contentId?: number;
    }
  | { readonly kind: "skipped"; readonly version: number; readonly reason: SkippedVersion["reason"] }
  | { readonly kind: "compatibility"; readonly from?: string; readonly to?: string };

export interface PollerOptions {
  readonly reader: SnapshotReader;
  /** The registry subjects to follow. */
  readonly subjects: readonly string[];
  /** Milliseconds between the end of one poll and the start of the next. */
  readonly interval: number;
  readonly logger: Logger;
  /** Called after a poll for every subject whose snapshot changed, with what changed. */
  readonly onChange?: (snapshot: SubjectSnapshot, changes: readonly SnapshotChange[]) => void;
  /** Called when the registry goes from up to down or back. */
  readonly onStatus?: (up: boolean, error: Error | undefined) => void;
  /** Called after every poll, with whether it read every subject and why not. */
  readonly onPolled?: (up: boolean, error: Error | undefined) => void;
  readonly now?: () => number;
}

/**
 * Subjects read at once in a poll: a catalog of hundreds of registry subjects is read in about its
 * size over this many round trips instead of its size (the HTTP agent keeps 8 connections).
 */
const SUBJECTS_IN_FLIGHT = 8;

/** Compares two snapshots of one subject. */
export function diffSnapshots(before: SubjectSnapshot | undefined, after: SubjectSnapshot): SnapshotChange[] {
  const changes: SnapshotChange[] = [];
  const old = new Map(before?.versions.map((v) => [v.version, v]));
  const current = new Set(after.versions.map((v) => v.version));
  for (const version of after.versions) {
    const previous = old.get(version.version);
    if (!previous) {
      changes.push({ kind: "added", version: version.version, id: version.id });
      continue;
    }
    if (previous.state !== version.state) {
      changes.push({
        kind: "state",
        version: version.version,
        ...(previous.state !== undefined ? { from: previous.state } : {}),
        ...(version.state !== undefined ? { to: version.state } : {}),
      });
    }
    if (previous.deleted !== version.deleted) {
      changes.push({ kind: "deleted", version: version.version, deleted: version.deleted });
    }
    // Apicurio's ids never change, but a snapshot saved before they were read, or while the native
    // API did not answer, lacks them: the records that carry them wait for this change.
    if (previous.globalId !== version.globalId || previous.contentId !== version.contentId) {
      changes.push({
        kind: "ids",
        version: version.version,
        ...(version.globalId !== undefined ? { globalId: version.globalId } : {}),
        ...(version.contentId !== undefined ? { contentId: version.contentId } : {}),
      });
    }
  }
  for (const [number, version] of old) {
    if (!current.has(number)) changes.push({ kind: "removed", version: number, id: version.id });
  }
  const skippedBefore = new Set(before?.skipped.map((s) => s.version));
  for (const skipped of after.skipped) {
    if (!skippedBefore.has(skipped.version)) {
      changes.push({ kind: "skipped", version: skipped.version, reason: skipped.reason });
    }
  }
  const from = before?.compatibility?.level;
  const to = after.compatibility?.level;
  if (from !== to) {
    changes.push({
      kind: "compatibility",
      ...(from !== undefined ? { from } : {}),
      ...(to !== undefined ? { to } : {}),
    });
  }
  return changes;
}

/**
 * Follows registry subjects: polls at start and then every `interval`, reports what changed, and keeps
 * the last good snapshot of a subject while the registry does not answer. `up` is true when the last
 * poll read every subject; `lastError` says why not.
 */
export class RegistryPoller {
  readonly #options: PollerOptions;
  readonly #now: () => number;
  readonly #snapshots = new Map<string, SubjectSnapshot>();
  #up: boolean | undefined;
  #lastError: Error | undefined;
  #lastSuccess: number | undefined;
  #downSince: number | undefined;
  #polls = 0;
  #running: Promise<boolean> | undefined;
  #next: Promise<boolean> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(options: PollerOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** Undefined before the first poll ends. */
  get up(): boolean | undefined {
    return this.#up;
  }

  get lastError(): Error | undefined {
    return this.#lastError;
  }

  /** Epoch milliseconds of the end of the last poll that read every subject. */
  get lastSuccess(): number | undefined {
    return this.#lastSuccess;
  }

  /** Epoch milliseconds of the end of the first failed poll since the registry last answered. */
  get downSince(): number | undefined {
    return this.#downSince;
  }

  /** Polls finished so far. */
  get polls(): number {
    return this.#polls;
  }

  /** The last good snapshot of a registry subject. */
  snapshot(subject: string): SubjectSnapshot | undefined {
    return this.#snapshots.get(subject);
  }

  /**
   * Takes a snapshot kept from an earlier run (the lifecycle state) as the last good one, until a
   * poll reads the subject: a registry that is down at start still leaves its versions known.
   */
  seed(snapshot: SubjectSnapshot): void {
    if (!this.#snapshots.has(snapshot.subject)) this.#snapshots.set(snapshot.subject, snapshot);
  }

  /** Polls once (awaited), then every `interval` until `stop`. */
  async start(): Promise<void> {
    this.#stopped = false;
    await this.poll();
    this.#schedule();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#running?.catch(() => undefined);
  }

  /**
   * One poll of every subject; true when all were read. A call while a poll runs gets the poll that
   * follows it (one for all such calls): the running one may have read the subjects before whatever
   * asked for a refresh, so a caller that waits for its poll waits for one that saw the change.
   */
  poll(): Promise<boolean> {
    if (this.#running) {
      const again = (): Promise<boolean> | false => {
        this.#next = undefined;
        return this.#stopped ? false : this.poll();
      };
      this.#next ??= this.#running.then(again, again);
      return this.#next;
    }
    this.#running = this.#round().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  #schedule(): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      void this.poll().finally(() => this.#schedule());
    }, this.#options.interval);
    // The poller never keeps a process alive by itself: the monitor or the command does.
    this.#timer.unref();
  }

  async #round(): Promise<boolean> {
    const { reader, logger } = this.#options;
    const subjects = this.#options.subjects;
    let failure: Error | undefined;
    // A registry that does not answer, or refuses the credentials, would do the same for every other
    // subject: each would wait out its timeouts and retries, so no further subject is started.
    let hopeless = false;
    const read = await mapLimited(subjects, SUBJECTS_IN_FLIGHT, async (subject) => {
      if (hopeless) return undefined;
      try {
        return await reader.read(subject);
      } catch (error) {
        failure ??= error instanceof Error ? error : new Error(messageOf(error));
        if (
          error instanceof RegistryError &&
          (error.code === "REGISTRY_UNAVAILABLE" || error.code === "REGISTRY_UNAUTHORIZED")
        )
          hopeless = true;
        return undefined;
      }
    });
    // Applied in the config's order, whatever order the answers came in.
    for (const snapshot of read) {
      if (!snapshot) continue;
      const before = this.#snapshots.get(snapshot.subject);
      const changes = diffSnapshots(before, snapshot);
      this.#snapshots.set(snapshot.subject, snapshot);
      if (changes.length > 0) this.#report(snapshot, changes, before === undefined);
    }
    this.#polls++;
    const up = failure === undefined;
    const was = this.#up;
    this.#up = up;
    this.#lastError = failure;
    if (up) {
      this.#lastSuccess = this.#now();
      this.#downSince = undefined;
    } else this.#downSince ??= this.#now();
    if (was !== up) {
      if (up) logger.info({ registry: reader.registry }, "schema registry answers");
      else
        logger.warn(
          { registry: reader.registry, err: failure?.message },
          "schema registry does not answer: keeping the last snapshot",
        );
      this.#options.onStatus?.(up, failure);
    }
    this.#options.onPolled?.(up, failure);
    return up;
  }

  #report(snapshot: SubjectSnapshot, changes: readonly SnapshotChange[], first: boolean): void {
    const { logger } = this.#options;
    const fields = { registry: snapshot.registry, registrySubject: snapshot.subject };
    if (first) {
      logger.info(
        { ...fields, versions: snapshot.versions.map((v) => v.version), skipped: snapshot.skipped.length },
        "registry subject read",
      );
    } else {
      for (const change of changes)
        logger.info({ ...fields, ...change }, `registry subject changed: ${change.kind}`);
    }
    for (const skipped of snapshot.skipped) {
      if (changes.some((c) => c.kind === "skipped" && c.version === skipped.version)) {
        logger.warn({ ...fields, version: skipped.version, reason: skipped.reason }, skipped.message);
      }
    }
    try {
      this.#options.onChange?.(snapshot, changes);
    } catch (error) {
      // A consumer's failure must not stop the registry from being followed.
      logger.error({ ...fields, err: messageOf(error) }, "handling a registry change failed");
    }
  }
}
