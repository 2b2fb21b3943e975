import module from "node:module";

/**
 * Keeps V8's compiled code of the CLI's modules on disk, so that the next start loads them without
 * compiling them again (Node.js's module compile cache; BENCHMARKS.md "Start-up" measures what it
 * saves). The folder is NODE_COMPILE_CACHE when set (the image sets it to a cache warmed when the image
 * was built), else `node-compile-cache` in the system's temporary folder; NODE_DISABLE_COMPILE_CACHE=1
 * turns it off. A cache is an optimisation and never a condition: a folder that cannot be created or
 * written (a read-only root file system) leaves it off, and an entry that does not match its module
 * (another build, a truncated or corrupt file) is compiled again; neither says anything.
 *
 * @returns {{ status: number, directory?: string, message?: string } | undefined} Node.js's answer,
 *   undefined where this Node.js has no such cache
 */
export function enableCompileCache() {
  try {
    return module.enableCompileCache?.();
  } catch {
    // documented never to throw; a start must not depend on that
    return undefined;
  }
}
