import { defineConfig } from "vitest/config";
import base from "../../vitest.config.js";

// The Avro and Protobuf formats' own unit tests, and the ones that take a record of either format
// through the pipeline, the field tallies and the field verdicts: what Stryker runs for
// `stryker.formats.config.json`. The whole unit project reaches src/formats/ through many more tests
// (the registry's, the diff's checkers), each a few seconds a mutant; these take well under one. A
// score with them is a lower bound of the unit project's (fewer tests can only let more mutants through).
export default defineConfig({
  test: {
    root: new URL("../..", import.meta.url).pathname,
    testTimeout: base.test?.testTimeout,
    hookTimeout: base.test?.hookTimeout,
    include: [
      "test/unit/formats/**/*.test.ts",
      "test/unit/pipeline/pipeline-avro.test.ts",
      "test/unit/pipeline/pipeline-protobuf.test.ts",
      "test/unit/fields/tallies-formats.test.ts",
      "test/unit/lifecycle/field-drain-formats.test.ts",
      "test/unit/cli/readiness-formats.test.ts",
      "test/unit/catalog/proto-imports.test.ts",
      "test/unit/report/lossy*.test.ts",
      "test/unit/registry/metadata-tags.test.ts",
    ],
  },
});
