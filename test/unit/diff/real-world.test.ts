// `diff` against the real world (issue 41): consecutive versions of public schemas from SchemaStore
// with the documents their projects test them with (test/fixtures/diff-real/, built by
// bench/diff-corpus-build.js), judged by an independent validator (@hyperjump/json-schema, not the
// ajv the engine runs). No `ok` a real document contradicts (unsound), no witness the independent
// validator does not see break (a false alarm), at the CLI's default budget. A document proves a break
// only when the engine reads it as the independent validator does (draft-04 has no `const`, which ajv
// reads anyway): diff's contract is the engine's reading. A witness is that reading made concrete, so
// the independent validator judges it on the versions with each draft-04 `const` spelled as the
// one-value `enum` draft-04 has (constAsEnum), and on nothing else rewritten. The shares and times are
// bench/diff-corpus.js's: here only soundness is held, which no machine's speed changes.
import { describe, expect, it } from "vitest";
import {
  constAsEnum,
  judgePair,
  loadRealCorpus,
  type PairVerdict,
} from "../../../bench/diff-corpus-judge.js";
import { SchemaCompiler } from "../../../src/catalog/compiler.js";
import { diffSchemas } from "../../../src/diff/index.js";

const corpus = loadRealCorpus();
const engine = new SchemaCompiler();
const bySchema = Map.groupBy(corpus.pairs, (pair) => pair.schema);

describe("diff on the real-world corpus", () => {
  it("holds at least 200 consecutive version pairs with their projects' test documents", () => {
    expect(corpus.pairs.length).toBeGreaterThanOrEqual(200);
    for (const pair of corpus.pairs) expect(pair.docs.length, pair.name).toBeGreaterThan(0);
  });

  it("is a judge that can fail: it catches an `ok` a real document breaks, and a witness that breaks nothing", async () => {
    // A real pair whose NEW requires a key no document has: every document valid under OLD breaks.
    const real = corpus.pairs.find((p) => p.name === "appveyor v00.json -> v01.json")!;
    const pair = { ...real, new: { ...(real.new as object), required: ["no-such-key"] } };
    const lying = () => ({
      backward: "ok",
      forward: "ok",
      changes: [{ kind: "type-changed", path: "", witness: { forward: { "no-such-key": 1 } } }],
    });
    const verdict = await judgePair(pair, corpus.refs, lying, engine);
    expect(verdict.unsound).toEqual([
      "backward ok, but appveyor-matrix-config.json, reference.json break it",
    ]);
    // Valid under both versions: it breaks nothing forward.
    expect(verdict.falseAlarms).toEqual(['type-changed at  forward: {"no-such-key":1}']);
  });

  it("judges a witness with draft-04's `const` spelled as a one-value enum, keywords only", () => {
    const schema = {
      $schema: "http://json-schema.org/draft-04/schema#",
      properties: { const: { const: 1 }, a: { const: "x", enum: ["x", "y"] }, e: { enum: [{ const: 2 }] } },
      definitions: { const: { type: "string" } },
    };
    expect(constAsEnum(schema)).toEqual({
      $schema: "http://json-schema.org/draft-04/schema#",
      properties: {
        const: { enum: [1] },
        a: { enum: ["x", "y"], allOf: [{ enum: ["x"] }] },
        e: { enum: [{ const: 2 }] },
      },
      definitions: { const: { type: "string" } },
    });
  });

  for (const [schema, pairs] of bySchema) {
    // Each pair may take its whole budget (10 s), on a shared machine more.
    it(`${schema}: no unsound verdict, no false alarm`, { timeout: 600_000 }, async () => {
      const verdicts: PairVerdict[] = [];
      for (const pair of pairs) verdicts.push(await judgePair(pair, corpus.refs, diffSchemas, engine));
      const wrong = verdicts
        .filter((v) => (v.unsound?.length ?? 0) + (v.falseAlarms?.length ?? 0) > 0)
        .map((v) => `${v.name}: ${[...(v.unsound ?? []), ...(v.falseAlarms ?? [])].join("; ")}`);
      expect(wrong).toEqual([]);
    });
  }
});
