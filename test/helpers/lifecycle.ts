// A live lifecycle of the bundled `event` catalog, wired as the monitor's core wires it (the
// pipeline built with the lifecycle's listeners and an observation clock the test advances), for
// the lifecycle's and the runtime's unit tests.
import { resolve } from "node:path";
import type { Logger } from "pino";
import { loadCatalog } from "../../src/catalog/load.js";
import { parseConfig } from "../../src/config/load.js";
import type { World } from "../../src/lifecycle/observation.js";
import { createLogger } from "../../src/log.js";
import { LifecycleRuntime, type Persistence } from "../../src/monitor/lifecycle-runtime.js";
import { lifecycleListeners, newLifecycle, type LifecycleTiming } from "../../src/monitor/lifecycle-setup.js";
import { ObservationClock } from "../../src/pipeline/clock.js";
import { Pipeline, type PipelineHooks } from "../../src/pipeline/pipeline.js";
import { eventConfigYaml } from "./monitor.js";

export interface LiveOptions {
  readonly subjectExtra?: string;
  readonly logger?: Logger;
  readonly persistence?: Persistence;
  readonly judgeInterval?: number;
  readonly lagInterval?: number;
  /** More pipeline listeners, heard after the lifecycle's. */
  readonly hooks?: PipelineHooks;
}

/**
 * The runtime, its lifecycle and pipeline, and `world`: what the verdicts read of the world, which
 * the test may set at any time (a registry down, records waiting for a lookup).
 */
export async function liveLifecycle(options: LiveOptions = {}) {
  const config = parseConfig(eventConfigYaml(options.subjectExtra ?? ""), resolve("test/config.yaml"));
  const catalog = await loadCatalog(config);
  const logger = options.logger ?? createLogger("silent");
  const timing: LifecycleTiming = {
    clock: "live",
    ...(options.judgeInterval === undefined ? {} : { judgeInterval: options.judgeInterval }),
    ...(options.lagInterval === undefined ? {} : { lagInterval: options.lagInterval }),
  };
  const lifecycle = newLifecycle(catalog, config, logger, timing);
  const clock = new ObservationClock();
  const listeners = lifecycleListeners(lifecycle);
  const pipeline = new Pipeline(catalog, config, {
    ...options.hooks,
    validated: [...listeners.validated, ...(options.hooks?.validated ?? [])],
    unreadable: [...listeners.unreadable, ...(options.hooks?.unreadable ?? [])],
    clock,
  });
  const world: { -readonly [K in "registryDown" | "waitingForLookups"]?: World[K] } = {};
  const runtime = new LifecycleRuntime({
    lifecycle,
    pipeline,
    logger,
    timing,
    observationClock: clock,
    persistence: options.persistence ?? { kind: "none" },
    world: {
      registryDown: (subject) => world.registryDown?.(subject),
      waitingForLookups: (topic) =>
        (world.waitingForLookups ?? ((t) => pipeline.waitingForLookupsOn(t)))(topic),
    },
  });
  return { config, catalog, lifecycle, pipeline, runtime, clock, world };
}
