import { defineConfig } from "vitest/config";
import unit from "./vitest.unit.config.js";

// A mutation run of one file of src/diff/ (test/mutation/stryker.diff.config.mjs): the diff's own tests, with the
// random soundness search cut to SOUNDNESS_ROUNDS pairs per style (60 here, 600 in the suite). Each
// mutant of the diff is reached by the search, so its length is the cost of every mutant. The
// labelled corpus runs whole, one test per case. The audit of the corpus's witnesses
// (soundness.test.ts, one test over every case, the slowest) runs only with STRYKER_DIFF_WITNESS=1,
// for the files of src/diff/witness/.
const witness = process.env.STRYKER_DIFF_WITNESS === "1";

export default defineConfig({
  test: {
    ...unit.test,
    include: ["test/unit/diff/**/*.test.ts"],
    exclude: witness ? [] : ["test/unit/diff/soundness.test.ts"],
    env: { SOUNDNESS_ROUNDS: process.env.SOUNDNESS_ROUNDS ?? "60" },
  },
});
