import type { Logger } from "pino";

import type { Config } from "../config/types.js";
import type { IdLookups } from "../catalog/lookups.js";
import { retainRemoved, snapshotKey } from "./catalog.js";
import { connectRegistry } from "./connect.js";
import type { Env } from "./secrets.js";
import { IdResolver, type IdAnswer } from "./ids.js";
import { RegistryPoller } from "./poller.js";
import { SnapshotReader } from "./snapshot.js";
import { retiredBetween } from "./states.js";
import type { RegistryStatus, SubjectRegistryStatus, SubjectSnapshot } from "./types.js";

export interface FollowerOptions {
  readonly config: Config;
  readonly env: Env;
  readonly logger: Logger;
  /** Called when a poll changed a snapshot the catalog is built from; settles once the change took effect. */
  readonly onChange?: () => void | Promise<void>;
  /** Called after every poll of a registry. */
  readonly onPolled?: (registry: string, up: boolean, error: Error | undefined) => void;
  readonly now?: () => number;
}

interface Followed {
  readonly name: string;
  readonly url: string;
  readonly reader: SnapshotReader;
  readonly poller: RegistryPoller;
  readonly ids: IdResolver;
  readonly subjects: ReadonlySet<string>;
  readonly lookups: IdLookups;
}

/** `0123…ef` (32 hex digits) as the registries write a GUID: 8-4-4-4-12. */
function dashed(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The monitor's registries: one poller and one id resolver per registry the config's subjects use,
 * the snapshots the catalog is built from (the last good ones, hard-deleted versions kept), and each
 * registry's condition. A wire id the catalog does not know is looked up once; when the registry
 * knows it under a followed subject, that registry is polled at once, so its version enters the
 * catalog without waiting for the next poll.
 */
export class RegistryFollower {
  readonly #options: FollowerOptions;
  readonly #now: () => number;
  readonly #registries = new Map<string, Followed>();
  readonly #snapshots = new Map<string, SubjectSnapshot>();
  /** Snapshots kept from an earlier run that no poll has replaced yet. */
  readonly #kept = new Set<string>();
  readonly #startedAt: number;
  /** Versions the polls saw retired, per registry subject (snapshotKey), since start. */
  readonly #retired = new Map<string, number>();
  #notes = new Map<string, readonly string[]>();
  #onChange: (() => void | Promise<void>) | undefined;
  /** The last change handed to `onChange`, until it took effect. */
  #applied: Promise<void> = Promise.resolve();

  private constructor(options: FollowerOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#startedAt = this.#now();
    this.#onChange = options.onChange;
  }

  /**
   * Connects to every registry the config's subjects use (secrets and TLS files are read here, so a
   * missing one stops start-up with the key to fix). Undefined when no subject uses a registry.
   */
  static async connect(options: FollowerOptions): Promise<RegistryFollower | undefined> {
    const follower = new RegistryFollower(options);
    const subjects = new Map<string, Set<string>>();
    for (const subject of options.config.subjects) {
      if (!subject.registry) continue;
      const set = subjects.get(subject.registry.name) ?? new Set<string>();
      set.add(subject.registry.subject);
      subjects.set(subject.registry.name, set);
    }
    if (subjects.size === 0) return undefined;
    try {
      for (const [name, followed] of subjects) {
        const config = options.config.registries[name]!;
        follower.#add(config, followed, await connectRegistry(config, options.env));
      }
    } catch (error) {
      follower.#close();
      throw error;
    }
    return follower;
  }

  #add(
    config: Config["registries"][string],
    subjects: Set<string>,
    client: Awaited<ReturnType<typeof connectRegistry>>,
  ): void {
    const { name, url } = config;
    const logger = this.#options.logger.child({ registry: name });
    const reader = new SnapshotReader(name, client, this.#now);
    const poller = new RegistryPoller({
      reader,
      subjects: [...subjects],
      interval: config.pollInterval,
      logger,
      now: this.#now,
      onChange: (snapshot) => {
        this.#take(name, snapshot);
        this.#changed();
      },
      onPolled: (up, error) => {
        // A read that changed nothing still dates the snapshot in use.
        for (const subject of subjects) {
          const read = poller.snapshot(subject);
          const current = this.#snapshots.get(snapshotKey(name, subject));
          if (read && read.fetchedAt !== current?.fetchedAt) this.#take(name, read);
        }
        this.#options.onPolled?.(name, up, error);
      },
    });
    const ids = new IdResolver({
      client,
      now: this.#now,
      inFlight: config.lookupsInFlight,
      perSecond: config.lookupsPerSecond,
      maxEntries: config.lookupCache,
      onFound: (key, answer) => this.#found(name, key, answer, logger),
    });
    const lookups: IdLookups = {
      request: (id) => ids.request(id),
      requestGuid: (guid) => ids.requestGuid(dashed(guid)),
      requestNative: (kind, id) => ids.requestNative(kind, id),
      wait: config.lookupWait,
      waitRecords: config.lookupWaitRecords,
    };
    this.#registries.set(name, { name, url, reader, poller, ids, subjects, lookups });
  }

  /**
   * The snapshot the catalog uses from one the registry answered. Versions gone from the registry
   * are kept (as deleted) until restart; a snapshot kept from an earlier run gives way whole.
   */
  #take(registry: string, snapshot: SubjectSnapshot): void {
    const key = snapshotKey(registry, snapshot.subject);
    const previous = this.#kept.delete(key) ? undefined : this.#snapshots.get(key);
    const retired = retiredBetween(previous, snapshot);
    if (retired.length > 0) {
      this.#retired.set(key, (this.#retired.get(key) ?? 0) + retired.length);
      this.#options.logger.info(
        { registry, registrySubject: snapshot.subject, versions: retired },
        `registry versions retired: ${snapshot.subject} ${retired.join(", ")}`,
      );
    }
    this.#snapshots.set(key, retainRemoved(previous, snapshot));
  }

  /** Hands a changed snapshot to `onChange`, remembering when the change will have taken effect. */
  #changed(): void {
    const handler = this.#onChange;
    if (handler === undefined) return;
    try {
      this.#applied = Promise.resolve(handler()).catch(() => undefined);
    } catch {
      // The handler's failure is its own (the catalog logs a failed rebuild); following goes on.
    }
  }

  /**
   * Settles when the answer took effect: for an id a followed subject uses, once a poll that started
   * after the lookup read the registry and the catalog built from it is in use, so that the records
   * waiting for the id are counted under its version.
   */
  async #found(name: string, key: string, answer: IdAnswer, logger: Logger): Promise<void> {
    const followed = this.#registries.get(name)!;
    const mine = answer.usedBy.filter((u) => followed.subjects.has(u.subject));
    const where = answer.usedBy.map((u) => `${u.subject} version ${u.version}`).join(", ") || "no subject";
    if (mine.length === 0) {
      logger.info(
        { key, usedBy: where },
        `${key} is registered as ${where}, which no subject of the config follows`,
      );
      return;
    }
    logger.info({ key, usedBy: where }, `${key} is registered as ${where}: reading the registry now`);
    await followed.poller.poll();
    await this.#applied;
  }

  /**
   * Subscribes the catalog's rebuild to changed snapshots: called when a poll changed one (a version
   * registered, a state changed); a lookup's answer waits for the promise it returns. One subscriber,
   * the monitor's catalog updates.
   */
  subscribe(handler: () => void | Promise<void>): void {
    if (this.#onChange !== undefined) throw new Error("the registry follower has a subscriber already");
    this.#onChange = handler;
  }

  /**
   * Takes snapshots kept from an earlier run as the last good ones, then polls every registry once
   * (awaited) and keeps polling. A registry that does not answer leaves its subjects with the kept
   * snapshot, or none.
   */
  async start(kept: readonly SubjectSnapshot[] = []): Promise<void> {
    for (const snapshot of kept) {
      const followed = this.#registries.get(snapshot.registry);
      if (!followed?.subjects.has(snapshot.subject)) continue;
      followed.poller.seed(snapshot);
      const key = snapshotKey(snapshot.registry, snapshot.subject);
      this.#snapshots.set(key, snapshot);
      this.#kept.add(key);
    }
    await Promise.all([...this.#registries.values()].map((r) => r.poller.start()));
  }

  async stop(): Promise<void> {
    await Promise.all([...this.#registries.values()].map((r) => r.poller.stop()));
    this.#close();
  }

  #close(): void {
    for (const r of this.#registries.values()) r.reader.client.http.close();
  }

  /** The snapshots the catalog is built from. */
  snapshots(): SubjectSnapshot[] {
    return [...this.#snapshots.values()];
  }

  /** Registry subjects without any snapshot yet (never read, none kept): the catalog lacks them. */
  missing(): string[] {
    const out: string[] = [];
    for (const r of this.#registries.values()) {
      for (const subject of r.subjects)
        if (!this.#snapshots.has(snapshotKey(r.name, subject))) out.push(`${r.name}/${subject}`);
    }
    return out;
  }

  /** Where a subject's unknown wire ids are looked up. */
  lookups(registry: string): IdLookups | undefined {
    return this.#registries.get(registry)?.lookups;
  }

  /** What the last catalog build left out of each config subject (labels, schemas that do not compile). */
  setNotes(notes: ReadonlyMap<string, readonly string[]>): void {
    this.#notes = new Map(notes);
  }

  /** Every followed registry's condition. */
  status(): RegistryStatus[] {
    return [...this.#registries.values()].map((r) => this.#status(r));
  }

  #status(r: Followed): RegistryStatus {
    const poller = r.poller;
    const up = poller.up === true;
    return {
      name: r.name,
      url: r.url,
      up,
      downSince: up ? undefined : (poller.downSince ?? this.#startedAt),
      lastSuccess: poller.lastSuccess,
      lastError: poller.lastError?.message,
      lookups: { ...r.ids.results },
      lookupsSkipped: r.ids.skipped,
      retired: Object.fromEntries(
        [...r.subjects].map((subject) => [subject, this.#retired.get(snapshotKey(r.name, subject)) ?? 0]),
      ),
    };
  }

  /** A config subject's registry subject and its registry's condition; undefined without a registry. */
  subject(name: string): SubjectRegistryStatus | undefined {
    const config = this.#options.config.subjects.find((s) => s.name === name)?.registry;
    const followed = config ? this.#registries.get(config.name) : undefined;
    if (!config || !followed) return undefined;
    const snapshot = this.#snapshots.get(snapshotKey(config.name, config.subject));
    return {
      registry: this.#status(followed),
      subject: config.subject,
      compatibility: snapshot?.compatibility,
      snapshotAt: snapshot?.fetchedAt,
      leftOut: [...(snapshot?.skipped.map((s) => s.message) ?? []), ...(this.#notes.get(name) ?? [])],
    };
  }

  /** The registry of a config subject while it does not answer, and since when; for the verdicts. */
  down(name: string): { registry: string; since: number } | undefined {
    const registry = this.#options.config.subjects.find((s) => s.name === name)?.registry?.name;
    const followed = registry ? this.#registries.get(registry) : undefined;
    if (!followed || followed.poller.up === true) return undefined;
    return { registry: followed.name, since: followed.poller.downSince ?? this.#startedAt };
  }
}
