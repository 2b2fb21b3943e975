import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Integration tests share one broker and one Prometheus on a 2-core machine: run files one at a
    // time so their timing stays predictable; each file still gets fresh topics and groups.
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: ["default"],
  },
});
