import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

describe("exporter", () => {
  it("loads prom-client's registry and default metrics, not its index (the Pushgateway, the cluster aggregator)", async () => {
    const { createRegistry } = await import("../../../src/metrics/exporter.js");
    const loaded = Object.keys(createRequire(import.meta.url).cache)
      .filter((path) => path.includes("/node_modules/prom-client/"))
      .map((path) =>
        path.slice(path.lastIndexOf("/node_modules/prom-client/") + "/node_modules/prom-client/".length),
      );
    expect(typeof createRegistry).toBe("function");
    expect(loaded).toContain("lib/registry.js");
    expect(loaded).toContain("lib/defaultMetrics.js");
    expect(loaded).not.toContain("index.js");
    expect(loaded).not.toContain("lib/pushgateway.js");
    expect(loaded).not.toContain("lib/cluster.js");
  });
});
