import type { Logger } from "pino";

import type { Config } from "../config/types.js";
import { buildCatalog, notesBySubject } from "../registry/catalog.js";
import { CompiledVersions } from "../registry/compile.js";
import { RegistryFollower } from "../registry/follower.js";
import type { Env } from "../registry/secrets.js";
import type { SubjectSnapshot } from "../registry/types.js";
import type { CatalogState, CatalogUpdates } from "./catalog-updates.js";
import type { Health } from "../health/health.js";
import type { IdLookups } from "../catalog/lookups.js";
import type { SubjectConfig } from "../config/types.js";

export interface CatalogSourcesOptions {
  readonly config: Config;
  readonly env: Env;
  readonly logger: Logger;
  readonly health: Health;
  /** The registry snapshots the state kept from an earlier run (none for a replay or a first start). */
  readonly kept: readonly SubjectSnapshot[];
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
  readonly #compiled: CompiledVersions;
  readonly #logged = new Set<string>();
  /** The catalog the monitor starts with. */
  readonly initial: CatalogState;

  private constructor(
    follower: RegistryFollower | undefined,
    log: Logger,
    health: Health,
    compiled: CompiledVersions,
    initial: CatalogState,
  ) {
    this.follower = follower;
    this.#log = log;
    this.#health = health;
    this.#compiled = compiled;
    this.initial = initial;
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
    await follower?.start(options.kept);
    const log = options.logger.child({ component: "catalog" });
    const compiled = new CompiledVersions();
    const logged = new Set<string>();
    let initial: CatalogState;
    try {
      initial = await buildState(config, follower, compiled, logged, log);
    } catch (error) {
      await follower?.stop();
      throw error;
    }
    const sources = new CatalogSources(follower, log, health, compiled, initial);
    for (const message of logged) sources.#logged.add(message);
    sources.complete();
    return sources;
  }

  get log(): Logger {
    return this.#log;
  }

  /** A catalog of `config` with the registries' current snapshots; throws on a bad schema file. */
  build(config: Config): Promise<CatalogState> {
    return buildState(config, this.follower, this.#compiled, this.#logged, this.#log);
  }

  /** Where a subject's unknown wire ids and GUIDs are looked up: its registry, if it has one. */
  lookupsFor(subject: SubjectConfig): IdLookups | undefined {
    return subject.registry ? this.follower?.lookups(subject.registry.name) : undefined;
  }

  /**
   * Subscribes the catalog's updates to the registries' changes: a changed snapshot (a version
   * registered, a state changed) becomes a catalog update, and one a poll made since the first
   * catalog was built is applied now.
   */
  follow(updates: CatalogUpdates): void {
    const follower = this.follower;
    if (!follower) return;
    const refresh = () => updates.refresh((current) => this.build(current.config));
    follower.subscribe(refresh);
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

/** A catalog of `config` with the follower's current snapshots; each note is logged once. */
async function buildState(
  config: Config,
  follower: RegistryFollower | undefined,
  compiled: CompiledVersions,
  logged: Set<string>,
  log: Logger,
): Promise<CatalogState> {
  const snapshots: readonly SubjectSnapshot[] = follower?.snapshots() ?? [];
  const built = await buildCatalog(config, snapshots, { compiled });
  for (const note of built.notes) {
    if (logged.has(note.message)) continue;
    logged.add(note.message);
    log.warn({ subject: note.subject }, note.message);
  }
  follower?.setNotes(notesBySubject(built.notes));
  return { config, catalog: built.catalog, snapshots };
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
