import { defineConfig } from "vitest/config";
import base from "../../vitest.config.js";

// The field verdicts' own unit tests (field evidence and verdicts, renames, the attention summary's
// folding, the live hints of a diff, the field statistics' tests): what Stryker runs for
// `stryker.fields.config.json`. The whole unit project reaches these files too, through the report's
// and the monitor's tests, each several seconds a mutant on a loaded machine; these alone take well
// under one. A score with them is a lower bound of the unit project's (fewer tests can only let more
// mutants through).
export default defineConfig({
  test: {
    root: new URL("../..", import.meta.url).pathname,
    testTimeout: base.test?.testTimeout,
    hookTimeout: base.test?.hookTimeout,
    include: [
      "test/unit/lifecycle/field-*.test.ts",
      "test/unit/state/shared-records.test.ts",
      "test/unit/fields/*.test.ts",
      "test/unit/report/attention-groups.test.ts",
      "test/unit/report/rename-attention.test.ts",
      "test/unit/report/renames-section.test.ts",
      "test/unit/report/fields.test.ts",
      "test/unit/diff/live.test.ts",
      "test/unit/stats/*.test.ts",
    ],
  },
});
