import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { findCycle, importEdges, type ImportEdge } from "../../helpers/import-graph.js";

// The layering of docs/architecture.md ("Rooms"), held two ways: the import graph has no cycle
// between rooms nor between files that share values, and the linter refuses an import that breaks
// a room's rule (so a violation fails `npm test` at lint, before any test runs).
const edges = importEdges("src");

/** A file's room: its first folder under src/, or `(root)` for src/*.ts. */
function roomOf(file: string): string {
  const parts = file.split("/");
  return parts.length === 1 ? "(root)" : parts[0]!;
}

/** The edges between rooms (an import within a room is no edge). */
const betweenRooms = (list: readonly ImportEdge[]): ImportEdge[] =>
  list.map((e) => ({ ...e, from: roomOf(e.from), to: roomOf(e.to) })).filter((e) => e.from !== e.to);

describe("the import graph", () => {
  it("has no cycle between rooms through imports of values", () => {
    // By type only, catalog and config still name each other's types (catalog → config → catalog).
    expect(findCycle(betweenRooms(edges.filter((e) => e.runtime)))?.join(" → ")).toBeUndefined();
  });

  it("has no cycle between files that import each other's values", () => {
    expect(findCycle(edges.filter((e) => e.runtime))?.join(" → ")).toBeUndefined();
  });
});

describe("the linter's room rules", () => {
  const eslint = new ESLint();
  const problems = async (file: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath: file });
    return result!.messages.filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
  };

  it.each([
    ["src/pipeline/sampler.ts", 'import type { Health } from "../health/health.js";', "the per-record path"],
    [
      "src/pipeline/workers/pool.ts",
      'import type { Lifecycle } from "../../lifecycle/lifecycle.js";',
      "the per-record path",
    ],
    [
      "src/pipeline/pipeline.ts",
      'import type { TrafficHistory } from "../history/history.js";',
      "the per-record path",
    ],
    [
      "src/lifecycle/verdicts.ts",
      'import type { Pipeline } from "../pipeline/pipeline.js";',
      "verdicts know no Kafka",
    ],
    [
      "src/lifecycle/coverage.ts",
      'import type { Admin } from "../kafka/admin.js";',
      "verdicts know no Kafka",
    ],
    [
      "src/report/model.ts",
      'import type { RunningMonitor } from "../monitor/start.js";',
      "nothing imports the composition root",
    ],
    [
      "src/catalog/load.ts",
      'import type { Pipeline } from "../pipeline/pipeline.js";',
      "catalog, engine and config are the ground floor",
    ],
    [
      "src/formats/avro/decode.ts",
      'import type { SubjectPipeline } from "../../pipeline/subject-pipeline.js";',
      "formats are on the ground floor",
    ],
    [
      "src/formats/json.ts",
      'import type { Metrics } from "../metrics/exporter.js";',
      "formats are on the ground floor",
    ],
  ])("refuses %s importing %s", async (file, code, why) => {
    const messages = await problems(file, `${code}\nexport type X = unknown;\n`);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain(why);
  });

  it.each([
    ["src/cli/commands/run.ts", 'import type { MonitorOptions } from "../../monitor/start.js";'],
    ["src/pipeline/pipeline.ts", 'import type { CatalogSubject } from "../catalog/types.js";'],
    ["src/lifecycle/lifecycle.ts", 'import type { ReaderResult } from "../engine/evaluate.js";'],
    ["src/monitor/start.ts", 'import type { Pipeline } from "../pipeline/pipeline.js";'],
    ["src/formats/format.ts", 'import type { CatalogVersion } from "../catalog/types.js";'],
    ["src/engine/evaluate.ts", 'import type { ReaderCheck } from "../formats/format.js";'],
    ["src/pipeline/pipeline.ts", 'import type { Format } from "../formats/format.js";'],
  ])("lets %s import %s", async (file, code) => {
    expect(await problems(file, `${code}\nexport type X = unknown;\n`)).toEqual([]);
  });
});
