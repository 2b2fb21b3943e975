import { defineConfig } from "vitest/config";
import base from "./vitest.config.js";

// Stryker runs the unit tests only (a mutant per run, thousands of runs): the project "unit" of
// vitest.config.ts as a config of its own, since Stryker's vitest runner does not pick a project.
const unit = base.test?.projects?.find(
  (p): p is { test: { name: string; include: string[]; exclude: string[] } } =>
    typeof p === "object" && "test" in p && p.test?.name === "unit",
);
if (!unit) throw new Error('vitest.config.ts has no project "unit"');

export default defineConfig({
  test: {
    testTimeout: base.test?.testTimeout,
    hookTimeout: base.test?.hookTimeout,
    include: unit.test.include,
    exclude: unit.test.exclude,
  },
});
