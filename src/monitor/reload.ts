import { watch, type FSWatcher } from "node:fs";
import { dirname } from "node:path";
import type { Logger } from "pino";
import type { Config } from "../config/types.js";

/**
 * Calls `reload` on SIGHUP and when the config file or a schema folder changes (debounced: editors
 * write a file in several steps). Returns a function that stops watching.
 */
export function watchCatalog(config: Config, reload: () => void, logger: Logger): () => void {
  let timer: NodeJS.Timeout | undefined;
  const soon = () => {
    clearTimeout(timer);
    timer = setTimeout(reload, 500);
    timer.unref();
  };
  const onHup = () => {
    logger.info("SIGHUP: reloading the catalog");
    reload();
  };
  process.on("SIGHUP", onHup);
  const state = config.state.file;
  const relevant = (folder: string, name: string | null) => {
    if (name === null) return true;
    // The state file lives beside the config by default and is rewritten every few seconds.
    if (state && (`${folder}/${name}` === state || name.endsWith(".tmp"))) return false;
    return /\.(json|ya?ml)$/i.test(name);
  };
  const watchers: FSWatcher[] = [];
  for (const folder of new Set([
    dirname(config.path),
    ...config.subjects.flatMap((s) => (s.schemas !== undefined ? [s.schemas] : [])),
    ...config.shared,
  ])) {
    try {
      const watcher = watch(folder, { persistent: false }, (_event, name) => {
        if (relevant(folder, name === null ? null : String(name))) soon();
      });
      watcher.on("error", () => watcher.close());
      watchers.push(watcher);
    } catch (error) {
      logger.warn(
        { folder, problem: error instanceof Error ? error.message : String(error) },
        "cannot watch for changes; SIGHUP still reloads",
      );
    }
  }
  return () => {
    clearTimeout(timer);
    process.off("SIGHUP", onHup);
    for (const watcher of watchers) watcher.close();
  };
}

/**
 * Why a reloaded config cannot take effect without a restart, as far as its `fields` blocks go: a
 * rename's counts are kept per pair from start (src/fields/rename-ledger.ts), so `replaces` stays
 * what it was; `add` and `exclude` take effect live. Undefined when nothing stands in the way.
 */
export function fieldsRestartProblem(before: Config, next: Config): string | undefined {
  const replaces = (config: Config) =>
    new Map(config.subjects.map((s) => [s.name, JSON.stringify(s.fields?.replaces ?? {})]));
  const was = replaces(before);
  for (const [subject, now] of replaces(next))
    if ((was.get(subject) ?? "{}") !== now)
      return `the fields.replaces of subject ${subject} changed: restart the monitor to apply that (fields.add and fields.exclude apply on reload)`;
  return undefined;
}
