import { defineConfig } from "vitest/config";

// Tests that need a real broker, a real registry, a real Prometheus or a real browser (Debian's
// Chromium, for the status page: test/e2e/status-page.test.ts); everything else is a unit test.
const INTEGRATION = [
  "test/kafka/!(batch|batch-edges|offsets|connection|decode-guard|record-batch|record-batch-bytes|commits|request-queue).test.ts",
  "test/registry/!(secrets|versions|references|http|catalog|limiter|states|tls-probe|poller-round).test.ts",
  "test/cli/registry.test.ts",
  "test/cli/diff-registry.test.ts",
  "test/e2e/**/*.test.ts",
  "test/ops/prometheus.test.ts",
  "test/ops/producer-detail.test.ts",
];

export default defineConfig({
  test: {
    // Integration tests share one broker and one Prometheus on a 2-core machine: run files one at a
    // time so their timing stays predictable; each file still gets fresh topics and groups.
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: "unit", include: ["test/**/*.test.ts"], exclude: INTEGRATION } },
      // Generous: a test's waits poll for conditions (test/helpers/wait.ts); this only bounds a hang.
      { extends: true, test: { name: "integration", include: INTEGRATION, testTimeout: 180_000 } },
    ],
  },
});
