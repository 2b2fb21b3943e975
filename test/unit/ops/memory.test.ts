import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { kustomize, type Manifest } from "./kubernetes.js";

// schemawatch's memory, from the measurements to the limits: every schemawatch container of the
// rendered overlays (`kubectl kustomize`) and of deploy/compose.yaml gets at least 1.25 times the
// highest peak BENCHMARKS.md states, requested as much as its limit, and the heap's ceiling that its
// NODE_OPTIONS allow plus what lives outside the heap (deploy/memory.json) fits under that limit.

const HEADROOM = 1.25;
const OVERLAYS = ["standalone", "sidecar"] as const;

/** The figure BENCHMARKS.md's "Memory" line states as the highest peak, and the limit it names. */
function benchmarks(): { peakMiB: number; limit: string } {
  const text = readFileSync("BENCHMARKS.md", "utf8").replace(/\s+/g, " ");
  const peak = /The highest peak with the image's heap limits is \*\*(\d+) MB\*\*/.exec(text);
  const limit = /deploy\/compose\.yaml give schemawatch \*\*(\d+Mi)\*\*/.exec(text);
  if (!peak?.[1] || !limit?.[1]) {
    throw new Error("BENCHMARKS.md no longer states the highest peak and the limit in its Memory line");
  }
  return { peakMiB: Number(peak[1]), limit: limit[1] };
}

interface Budget {
  readonly outsideHeap: readonly { part: string; MiB: number; source: string }[];
}
const budget = JSON.parse(readFileSync("deploy/memory.json", "utf8")) as Budget;
const outsideHeapMiB = budget.outsideHeap.reduce((sum, part) => sum + part.MiB, 0);

/** Kubernetes' binary units and compose's (whose M, as Docker's, is MiB), in MiB. */
function mebibytes(quantity: string | undefined): number {
  const match = /^(\d+)(Mi|Gi|M|G)$/.exec(quantity ?? "");
  if (!match) throw new Error(`not a memory quantity this test reads: '${quantity}'`);
  return Number(match[1]) * (match[2]?.startsWith("G") ? 1024 : 1);
}

/** V8's heap ceiling (its heap_size_limit) for these NODE_OPTIONS: old space + 3 x semi-space. */
function heapCeilingMiB(nodeOptions: string | undefined): number {
  const flag = (name: string) => Number(new RegExp(`--${name}=(\\d+)`).exec(nodeOptions ?? "")?.[1]);
  const oldSpace = flag("max-old-space-size");
  const semiSpace = flag("max-semi-space-size");
  expect(oldSpace, `--max-old-space-size in '${nodeOptions}'`).toBeGreaterThan(0);
  expect(semiSpace, `--max-semi-space-size in '${nodeOptions}'`).toBeGreaterThan(0);
  return oldSpace + 3 * semiSpace;
}

interface Container {
  name: string;
  env?: { name: string; value?: string }[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
}
function schemawatchContainer(overlay: string): Container {
  const deployment = kustomize(`deploy/kubernetes/overlays/${overlay}`).find(
    (o: Manifest) => o.kind === "Deployment",
  ) as unknown as { spec: { template: { spec: { containers: Container[] } } } } | undefined;
  const container = deployment?.spec.template.spec.containers.find((c) => c.name === "schemawatch");
  if (!container) throw new Error(`no schemawatch container in overlays/${overlay}`);
  return container;
}

interface ComposeService {
  image?: string;
  deploy?: { resources?: { limits?: { memory?: string }; reservations?: { memory?: string } } };
  environment?: Record<string, string>;
}
const compose = parse(readFileSync("deploy/compose.yaml", "utf8"), { merge: true }) as {
  services: Record<string, ComposeService>;
};
/** The image's NODE_OPTIONS, which the compose services inherit. */
const imageNodeOptions = /^ENV NODE_OPTIONS="([^"]+)"/m.exec(readFileSync("Dockerfile", "utf8"))?.[1];

describe("schemawatch's memory limits", () => {
  const { peakMiB, limit } = benchmarks();

  it("reads the highest peak from BENCHMARKS.md, the one in the zstd measurement", () => {
    expect(peakMiB).toBe(230);
    expect(readFileSync("BENCHMARKS.md", "utf8")).toContain(`218–${peakMiB} MB peak`);
  });

  it.each(OVERLAYS)(
    "overlays/%s: limit and request at least 1.25 x the peak, heap and the rest under it",
    (overlay) => {
      const container = schemawatchContainer(overlay);
      const limitMiB = mebibytes(container.resources?.limits?.["memory"]);
      expect(container.resources?.limits?.["memory"]).toBe(limit);
      expect(limitMiB).toBeGreaterThanOrEqual(HEADROOM * peakMiB);
      // requested as much as the limit: a node short of memory evicts pods above their request first
      expect(container.resources?.requests?.["memory"]).toBe(container.resources?.limits?.["memory"]);
      const nodeOptions = container.env?.find((e) => e.name === "NODE_OPTIONS")?.value;
      expect(nodeOptions).toBe(imageNodeOptions);
      expect(heapCeilingMiB(nodeOptions) + outsideHeapMiB).toBeLessThan(limitMiB);
    },
  );

  it("keeps the figures of the manifests' comments those of BENCHMARKS.md", () => {
    for (const overlay of OVERLAYS) {
      const text = readFileSync(`deploy/kubernetes/overlays/${overlay}/deployment.yaml`, "utf8");
      expect(text, overlay).toContain(`218-${peakMiB} MB on a zstd topic`);
      expect(text, overlay).toContain(`the highest peak above, ${peakMiB} MB`);
      expect(text, overlay).toContain(`so ${limit}`);
    }
  });

  it("gives every compose service of the schemawatch image the same limit and reservation", () => {
    const ofImage = Object.entries(compose.services).filter(([, s]) => s.image === "schemawatch:dev");
    expect(ofImage.map(([name]) => name).sort()).toEqual(["producer-v1-0", "producer-v1-1", "schemawatch"]);
    for (const [name, service] of ofImage) {
      const memory = service.deploy?.resources?.limits?.memory;
      expect(mebibytes(memory), name).toBe(mebibytes(limit));
      expect(service.deploy?.resources?.reservations?.memory, name).toBe(memory);
      expect(service.environment?.["NODE_OPTIONS"], name).toBeUndefined();
    }
    expect(heapCeilingMiB(imageNodeOptions) + outsideHeapMiB).toBeLessThan(mebibytes(limit));
  });

  it("accounts for what lives outside the heap with a source for each figure", () => {
    expect(budget.outsideHeap.length).toBeGreaterThan(0);
    for (const part of budget.outsideHeap) {
      expect(part.MiB, part.part).toBeGreaterThan(0);
      expect(part.source, part.part).not.toBe("");
    }
    // 120 MiB of heap with the image's flags, as V8 itself reports (heap_size_limit)
    expect(heapCeilingMiB("--max-old-space-size=96 --max-semi-space-size=8")).toBe(120);
    expect(outsideHeapMiB).toBe(155);
  });
});
