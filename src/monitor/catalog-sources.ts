import type { Logger } from "pino";

import type { Config } from "../config/types.js";
import type { LifecycleRuntime } from "./lifecycle-runtime.js";
import { loadState } from "../state/file.js";
import { buildCatalog, notesBySubject } from "../registry/catalog.js";
import { CompiledVersions } from "../registry/compile.js";
import { RegistryFollower } from "../registry/follower.js";
import { savedSnapshots } from "../registry/saved.js";
import type { Env } from "../registry/secrets.js";
import type { SubjectSnapshot } from "../registry/types.js";
import type { CatalogState, CatalogUpdates } from "./catalog-updates.js";
import type { Health } from "../health/health.js";
import type { Pipeline } from "../pipeline/pipeline.js";

export interface CatalogSourcesOptions {
  readonly config: Config;
  readonly env: Env;
  readonly logger: Logger;
  readonly health: Health;
  /** A live monitor keeps the registry snapshots in its state file; a replayed capture does not. */
  readonly live: boolean;
}

/**
 * Where the monitor's catalog comes from: the config's schema files and, for subjects that take
 * their versions from a schema registry, the registries it follows. Builds every catalog the monitor
 * uses (at start, on reload, when a version is registered) with the one builder the validation
 * workers use too.
 */
export class CatalogSources {
  readonly follower: RegistryFollower | undefined;
  readonly #log: Logger;
  readonly #health: Health;
  // Registered versions never change: each is compiled once for the life of the monitor.
  readonly #compiled = new CompiledVersions();
  readonly #logged = new Set<string>();
  #initial: CatalogState | undefined;

  private constructor(follower: RegistryFollower | undefined, log: Logger, health: Health) {
    this.follower = follower;
    this.#log = log;
    this.#health = health;
  }

  /** The catalog the monitor starts with. */
  get initial(): CatalogState {
    return this.#initial!;
  }

  /**
   * Connects to the registries (a missing secret stops start-up here), reads each once (a registry
   * that does not answer leaves its subjects with the snapshots the state file kept, or none) and
   * builds the first catalog. A bad schema file throws.
   */
  static async open(options: CatalogSourcesOptions): Promise<CatalogSources> {
    const { config, health } = options;
    // Polls report to the health only once connect has returned, so the name is bound by then.
    const follower: RegistryFollower | undefined = await RegistryFollower.connect({
      config,
      env: options.env,
      logger: options.logger.child({ component: "registry" }),
      onPolled: (name, up, error) => registryPolled(health, follower, name, up, error),
    });
    // A replayed capture neither reads nor writes the live state, the registry's snapshots included.
    await follower?.start(options.live && config.state.file ? await keptSnapshots(config.state.file) : []);
    const log = options.logger.child({ component: "catalog" });
    const sources = new CatalogSources(follower, log, health);
    try {
      sources.#initial = await sources.build(config);
    } catch (error) {
      await follower?.stop();
      throw error;
    }
    health.registries = follower;
    sources.complete();
    return sources;
  }

  get log(): Logger {
    return this.#log;
  }

  /** A catalog of `config` with the registries' current snapshots; throws on a bad schema file. */
  async build(config: Config): Promise<CatalogState> {
    const snapshots: readonly SubjectSnapshot[] = this.follower?.snapshots() ?? [];
    const built = await buildCatalog(config, snapshots, { compiled: this.#compiled });
    for (const note of built.notes) {
      if (this.#logged.has(note.message)) continue;
      this.#logged.add(note.message);
      this.#log.warn({ subject: note.subject }, note.message);
    }
    this.follower?.setNotes(notesBySubject(built.notes));
    return { config, catalog: built.catalog, snapshots };
  }

  /**
   * Wires the registries into the running monitor: unknown wire ids are looked up, drained verdicts
   * wait while a registry is down, a live monitor keeps the snapshots in its state, and a changed
   * snapshot (a version registered, a state changed) becomes a catalog update.
   */
  attach(pipeline: Pipeline, runtime: LifecycleRuntime, updates: CatalogUpdates, live: boolean): void {
    const follower = this.follower;
    if (!follower) return;
    runtime.lifecycle.registryDown = (subject) => follower.down(subject);
    if (live) runtime.registryState = () => follower.snapshots();
    for (const subject of updates.current.config.subjects) {
      const lookups = subject.registry ? follower.lookups(subject.registry.name) : undefined;
      if (lookups) pipeline.subjects.get(subject.name)?.useIdLookups(lookups);
    }
    const refresh = () => updates.refresh((current) => this.build(current.config));
    follower.onChange = refresh;
    // A poll may have changed a snapshot since the first catalog was built.
    const now = follower.snapshots();
    const built = updates.current.snapshots;
    if (now.length !== built.length || now.some((s, i) => s !== built[i])) void refresh();
  }

  /** The catalog is complete once every registry subject has a snapshot (read now, or kept). */
  complete(): void {
    const missing = this.follower?.missing() ?? [];
    this.#health.catalogLoaded = missing.length === 0;
    this.#health.catalogProblem =
      missing.length === 0 ? undefined : `no snapshot yet of registry subject ${missing.join(", ")}`;
  }

  async stop(): Promise<void> {
    await this.follower?.stop();
  }
}

/** Whether a reloaded config reads the same topics from the same subjects and registries. */
export function sameSources(before: Config, next: Config): boolean {
  const sources = (config: Config) =>
    JSON.stringify([
      config.subjects.map((s) => [s.name, s.topics, s.registry?.name, s.registry?.subject]),
      config.registries,
    ]);
  return sources(before) === sources(next);
}

/** The registry snapshots the state file kept; none when it cannot be read (the lifecycle says why). */
async function keptSnapshots(path: string): Promise<SubjectSnapshot[]> {
  try {
    return savedSnapshots((await loadState(path))?.registry);
  } catch {
    return [];
  }
}

/** A registry that does not answer is a problem /readyz names, not a reason to be unready. */
function registryPolled(
  health: Health,
  follower: RegistryFollower | undefined,
  name: string,
  up: boolean,
  error: Error | undefined,
): void {
  const key = `registry-down:${name}`;
  if (up) return health.resolve(key);
  const since = follower?.status().find((r) => r.name === name)?.downSince ?? Date.now();
  health.problem(
    key,
    `registry ${name} down since ${new Date(since).toISOString()}: ${error?.message ?? "no answer"} (the last catalog stays in use; no deprecated version is judged drained)`,
  );
}
