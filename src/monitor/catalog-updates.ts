import type { Logger } from "pino";

import type { Catalog, CatalogVersion } from "../catalog/types.js";
import type { Config } from "../config/types.js";
import { messageOf } from "../errors.js";
import type { Lifecycle, LifecycleSubject } from "../lifecycle/lifecycle.js";
import { fieldBlocks } from "../config/fields.js";
import type { FieldTallies } from "../fields/tallies.js";
import type { SubjectSnapshot } from "../registry/types.js";
import type { Pipeline } from "../pipeline/pipeline.js";
import type { ValidationPool } from "../pipeline/workers/pool.js";

/** What the monitor validates with: the config, the catalog built from it, the registry snapshots. */
export interface CatalogState {
  readonly config: Config;
  readonly catalog: Catalog;
  readonly snapshots: readonly SubjectSnapshot[];
}

export interface CatalogUpdatesOptions {
  readonly initial: CatalogState;
  readonly pipeline: Pipeline;
  readonly pool: ValidationPool | undefined;
  readonly lifecycle: Lifecycle;
  /** The field tallies: each reloaded config's `fields` blocks take effect there. */
  readonly fields?: Pick<FieldTallies, "reconfigure">;
  readonly logger: Logger;
  /** Called after each catalog took effect. */
  readonly onApplied?: (state: CatalogState) => void;
}

function describe(version: CatalogVersion): string {
  const origin = version.registry
    ? `registry ${version.registry.name}: ${version.registry.subject} version ${version.registry.version}, id ${version.confluentId}`
    : version.file.path;
  return `${version.subject} ${version.version.text} (${origin}, ${version.status})`;
}

/**
 * The one way a new catalog takes effect while the monitor runs, whether the config or a schema file
 * changed or a version was registered: the validation workers first (a job sent after that is
 * validated with it), then the pipeline (a new reader is judged at once against the recent samples),
 * then the field tallies (the config's `fields` blocks), then the lifecycle. Updates run one at a time, in order; a failed one leaves the previous catalog.
 */
export class CatalogUpdates {
  readonly #options: CatalogUpdatesOptions;
  #current: CatalogState;
  #queue: Promise<void> = Promise.resolve();
  #refreshQueued: Promise<void> | undefined;

  constructor(options: CatalogUpdatesOptions) {
    this.#options = options;
    this.#current = options.initial;
  }

  get current(): CatalogState {
    return this.#current;
  }

  /**
   * Builds the next catalog from the current state (inside the queue, so it never builds on a state
   * an earlier update is replacing) and applies it. Rejects with the build's error; the previous
   * catalog stays.
   */
  update(build: (current: CatalogState) => Promise<CatalogState>): Promise<void> {
    const run = this.#queue.then(async () => this.#apply(await build(this.#current)));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /**
   * As `update`, for changes that come in bursts (a poll that changed several subjects): at most one
   * such update waits in the queue, and every call meanwhile gets it; failures are logged. Settles
   * when the catalog it built took effect (or failed to).
   */
  refresh(build: (current: CatalogState) => Promise<CatalogState>): Promise<void> {
    if (this.#refreshQueued) return this.#refreshQueued;
    const queued = this.update((current) => {
      this.#refreshQueued = undefined;
      return build(current);
    }).catch((error: unknown) => {
      this.#options.logger.error(
        { problem: messageOf(error) },
        "catalog rebuild failed; the previous catalog stays in use",
      );
    });
    this.#refreshQueued = queued;
    return queued;
  }

  async #apply(next: CatalogState): Promise<void> {
    const { pipeline, pool, lifecycle, logger } = this.#options;
    const before = this.#current.catalog;
    await pool?.reload(next.config, next.snapshots);
    pipeline.replaceCatalog(next.catalog, (subject, entry, reader, result) => {
      if (reader.status === "candidate") {
        lifecycle.candidateResult(
          subject.subject.name,
          reader.version.text,
          entry.producer,
          result,
          entry.observedAt,
        );
      }
    });
    // Fields added and left out at once, not at each subject's next record: a field's evidence begins
    // when the lifecycle first sees it tracked (field-evidence.ts `trackedSince`).
    this.#options.fields?.reconfigure(next.catalog, fieldBlocks(next.config));
    this.#current = next;
    lifecycle.replaceSubjects(subjectsOf(pipeline));
    for (const subject of next.catalog.subjects.values()) {
      const old = before.subjects.get(subject.name);
      const known = new Map(old?.versions.map((v) => [v.version.text, v]));
      for (const version of subject.versions) {
        const was = known.get(version.version.text);
        if (!was) {
          logger.info(
            { subject: subject.name, version: version.version.text, status: version.status },
            version.registry
              ? `new version registered: ${describe(version)}`
              : `new version: ${describe(version)}`,
          );
        } else if (was.status !== version.status) {
          logger.info(
            { subject: subject.name, version: version.version.text, from: was.status, to: version.status },
            `${subject.name} ${version.version.text} is ${version.status} now (was ${was.status})`,
          );
        }
        known.delete(version.version.text);
      }
      for (const gone of known.values())
        logger.info(
          { subject: subject.name, version: gone.version.text },
          `version left the catalog: ${describe(gone)}`,
        );
    }
    logger.info(
      {
        versions: [...next.catalog.subjects.values()].flatMap((s) =>
          s.versions.map((v) => `${s.name} ${v.version.text}:${v.status}`),
        ),
      },
      "catalog reloaded",
    );
    this.#options.onApplied?.(next);
  }
}

/** The pipeline's subjects with their lifecycle settings (as configured at start). */
function subjectsOf(pipeline: Pipeline): LifecycleSubject[] {
  return [...pipeline.subjects.values()].map((s) => ({
    subject: s.subject,
    drainWindow: s.config.drainWindow,
    readyWindow: s.config.readyWindow,
    minSamples: s.config.minSamples,
  }));
}
