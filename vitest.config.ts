import { defineConfig } from "vitest/config";

// The kind of a test is its folder: test/unit/ mirrors src/ and needs nothing running (promtool and
// kubectl aside); test/integration/ is grouped by feature and needs the real thing: a broker, a
// registry, Prometheus or a browser (Debian's Chromium). No file-name pattern decides, so a new test
// file is a broker test only where it is put among them.
export const UNIT = ["test/unit/**/*.test.ts"];
export const INTEGRATION = ["test/integration/**/*.test.ts"];

export default defineConfig({
  test: {
    // Integration tests share one broker and one Prometheus on a 2-core machine: run files one at a
    // time so their timing stays predictable; each file still gets fresh topics and groups.
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: "unit", include: UNIT } },
      // Generous: a test's waits poll for conditions (test/helpers/wait.ts); this only bounds a hang.
      { extends: true, test: { name: "integration", include: INTEGRATION, testTimeout: 180_000 } },
    ],
  },
});
