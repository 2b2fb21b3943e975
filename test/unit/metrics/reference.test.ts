import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { METRICS } from "../../../src/metrics/definitions.js";

describe("docs/metrics.md", () => {
  it("documents exactly the declared metrics, with their types and labels", () => {
    const doc = readFileSync("docs/metrics.md", "utf8");
    const rows = [...doc.matchAll(/^\| `(schemawatch_[a-z_]+)` \| (counter|gauge) \|([^|]*)\|/gm)].map(
      (m) => ({
        name: m[1],
        type: m[2],
        labels: [...m[3]!.matchAll(/`([a-z_]+)`/g)].map((l) => l[1]),
      }),
    );
    const declared = Object.values(METRICS).map((m) => ({
      name: m.name,
      type: m.type,
      labels: [...m.labels],
    }));
    expect(rows).toEqual(declared);
  });
});
