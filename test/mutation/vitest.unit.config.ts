import { defineConfig } from "vitest/config";
import base, { UNIT } from "../../vitest.config.js";

// Stryker runs the unit tests only (a mutant per run, thousands of runs): the project "unit" of
// vitest.config.ts as a config of its own, since Stryker's vitest runner does not pick a project.
// Stryker runs from the repository's root, so the globs are the root's.
export default defineConfig({
  test: {
    root: new URL("../..", import.meta.url).pathname,
    testTimeout: base.test?.testTimeout,
    hookTimeout: base.test?.hookTimeout,
    include: UNIT,
  },
});
