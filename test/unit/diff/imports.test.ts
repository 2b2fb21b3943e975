// The diff's files import each other without a loop (issue 26): the keyword families read a shared
// vocabulary (family.ts) and receive the recursion as an argument, so no family imports the driver
// (compare.ts); witness/ does the same with parts.ts and proof-context.ts. A loop of runtime imports
// lets evaluation order decide which binding is still undefined; a loop of type imports only ties
// together files that should change apart.
import { describe, expect, it } from "vitest";
import { filesOnCycles, findCycle, importEdges } from "../../helpers/import-graph.js";

const edges = importEdges("src/diff");

describe("the import graph of src/diff/", () => {
  it("is read: the driver imports the families' vocabulary, the entry point the driver", () => {
    expect(edges).toContainEqual({ from: "compare.ts", to: "family.ts", runtime: true });
    expect(edges).toContainEqual({ from: "index.ts", to: "compare.ts", runtime: true });
    expect(edges).toContainEqual({ from: "witness/proof-context.ts", to: "model.ts", runtime: false });
  });

  it("has no cycle of runtime imports", () => {
    const runtime = edges.filter((e) => e.runtime);
    expect(findCycle(runtime)?.join(" → ")).toBeUndefined();
  });

  // What is left are type-only back edges, pinned so that a new one fails here: the model's helpers
  // (merge, ranges, slices, and through slices disjoint, objects, rest, family) take the `Model` that
  // builds them as a parameter type. Breaking these would take an interface restating Model's methods
  // and moving `Declaration` and `Enclosing` out of model.ts.
  it("has type-only cycles only between the model and its helpers", () => {
    expect(filesOnCycles(edges)).toEqual([
      "disjoint.ts",
      "family.ts",
      "merge.ts",
      "model.ts",
      "objects.ts",
      "ranges.ts",
      "rest.ts",
      "slices.ts",
    ]);
  });

  it("no keyword family imports the driver", () => {
    expect(edges.filter((e) => e.to === "compare.ts").map((e) => e.from)).toEqual(["index.ts"]);
  });
});

describe("the cycle finder", () => {
  it("prints a cycle from where it starts back to itself, and lists the files on cycles", () => {
    const graph = [
      { from: "a.ts", to: "b.ts", runtime: true },
      { from: "b.ts", to: "c.ts", runtime: true },
      { from: "c.ts", to: "a.ts", runtime: false },
      { from: "c.ts", to: "d.ts", runtime: true },
    ];
    expect(findCycle(graph)).toEqual(["a.ts", "b.ts", "c.ts", "a.ts"]);
    expect(findCycle(graph.filter((e) => e.runtime))).toBeUndefined();
    expect(filesOnCycles(graph)).toEqual(["a.ts", "b.ts", "c.ts"]);
  });
});
