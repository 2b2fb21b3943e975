// `diff` against the real world (issue 41): consecutive versions of public schemas from SchemaStore
// with the documents their projects test them with (test/fixtures/diff-real/, built by
// bench/diff-corpus-build.js), judged by an independent validator (@hyperjump/json-schema, not the
// ajv the engine runs). No `ok` a real document contradicts (unsound), no witness the independent
// validator does not see break (a false alarm), at the CLI's default budget. The shares and times are
// bench/diff-corpus.js's: here only soundness is held, which no machine's speed changes.
import { describe, expect, it } from "vitest";
import { judgePair, loadRealCorpus, type PairVerdict } from "../../../bench/diff-corpus-judge.js";
import { diffSchemas } from "../../../src/diff/index.js";

const corpus = loadRealCorpus();
const bySchema = Map.groupBy(corpus.pairs, (pair) => pair.schema);

describe("diff on the real-world corpus", () => {
  it("holds at least 200 consecutive version pairs with their projects' test documents", () => {
    expect(corpus.pairs.length).toBeGreaterThanOrEqual(200);
    for (const pair of corpus.pairs) expect(pair.docs.length, pair.name).toBeGreaterThan(0);
  });

  it("is a judge that can fail: it catches an `ok` a real document breaks, and a witness that breaks nothing", async () => {
    const pair = corpus.pairs.find((p) => p.name === "function v00.json -> v01.json")!;
    const lying = () => ({
      backward: "ok",
      forward: "ok",
      changes: [{ kind: "type-changed", path: "", witness: { forward: {} } }],
    });
    const verdict = await judgePair(pair, corpus.refs, lying);
    expect(verdict.unsound).toEqual([
      "backward ok, but BlobTrigger.json, EventHubTrigger.json, ExternalFileTrigger.json, ExternalTable.json, " +
        "FaceLocator.json, GenericWebHook.json, GitHubCommenter.json, GitHubWebHook.json, HttpGET(CRUD).json, " +
        "HttpPOST(CRUD).json, HttpPUT(CRUD).json, HttpTrigger.json break it",
    ]);
    // {} is valid under both versions: no break at all.
    expect(verdict.falseAlarms).toEqual(["type-changed at  forward: {}"]);
  });

  for (const [schema, pairs] of bySchema) {
    // Each pair may take its whole budget (10 s), on a shared machine more.
    it(`${schema}: no unsound verdict, no false alarm`, { timeout: 600_000 }, async () => {
      const verdicts: PairVerdict[] = [];
      for (const pair of pairs) verdicts.push(await judgePair(pair, corpus.refs, diffSchemas));
      const wrong = verdicts
        .filter((v) => (v.unsound?.length ?? 0) + (v.falseAlarms?.length ?? 0) > 0)
        .map((v) => `${v.name}: ${[...(v.unsound ?? []), ...(v.falseAlarms ?? [])].join("; ")}`);
      expect(wrong).toEqual([]);
    });
  }
});
