// The real-world corpus of `diff` (test/fixtures/diff-real/, built by bench/diff-corpus-build.js):
// consecutive versions of public schemas with the documents their project tests them with, judged by
// an independent validator (@hyperjump/json-schema, not ajv). Shared by the test that holds `diff` to
// it (test/unit/diff/real-world.test.ts, on src/) and the bench that times it (bench/diff-corpus.js,
// on dist/). Plain JavaScript, as bench/ is; its types are in diff-corpus-judge.d.ts.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { URL } from "node:url";
import { performance } from "node:perf_hooks";
import { registerSchema, validate } from "@hyperjump/json-schema/draft-07";
import "@hyperjump/json-schema/draft-04";
import "@hyperjump/json-schema/draft-06";
import "@hyperjump/json-schema/draft-2019-09";
import "@hyperjump/json-schema/draft-2020-12";

export const ROOT = join(import.meta.dirname, "..", "test", "fixtures", "diff-real");
const DRAFT_07 = "http://json-schema.org/draft-07/schema#";
const read = (path) => JSON.parse(readFileSync(join(ROOT, path), "utf8"));

/** Every consecutive pair of versions, oldest first, with its schema's test documents. */
export function loadRealCorpus() {
  const manifest = read("manifest.json");
  const refs = new Map(Object.entries(manifest.refs ?? {}).map(([url, file]) => [url, read(file)]));
  const pairs = [];
  for (const schema of manifest.schemas) {
    const docs = schema.docs.map((file) => ({ file, json: read(`${schema.name}/docs/${file}`) }));
    for (let i = 1; i < schema.versions.length; i++) {
      const [before, after] = [schema.versions[i - 1], schema.versions[i]];
      pairs.push({
        schema: schema.name,
        name: `${schema.name} ${before.file} -> ${after.file}`,
        old: read(`${schema.name}/${before.file}`),
        new: read(`${schema.name}/${after.file}`),
        docs,
      });
    }
  }
  return { source: manifest.source, head: manifest.head, pairs, refs };
}

const idKey = (schema) =>
  typeof schema.$schema === "string" && schema.$schema.includes("draft-04") ? "id" : "$id";

/**
 * A copy of `schema` to register at `uri`: without its own `$id` (in draft-07 an `$id` beside a root
 * `$ref` would be ignored), its `$ref`s to that `$id` moved to `uri`.
 */
function renamed(schema, uri) {
  const own = typeof schema[idKey(schema)] === "string" ? schema[idKey(schema)].replace(/#.*$/, "") : "";
  const move = (node) => {
    if (Array.isArray(node)) return node.map(move);
    if (!node || typeof node !== "object") return node;
    return Object.fromEntries(
      Object.entries(node).map(([k, v]) => [
        k,
        k === "$ref" && typeof v === "string" && own !== "" && v.startsWith(own)
          ? uri + v.slice(own.length)
          : move(v),
      ]),
    );
  };
  const key = idKey(schema);
  return Object.fromEntries(Object.entries(move(schema)).filter(([k]) => k !== key));
}

/** Keywords beside a root `$ref` that assert nothing: they may move beside an `allOf` of it. */
const INERT = new Set(["$schema", "id", "$id", "title", "description", "definitions", "$comment"]);

/**
 * A root `$ref` with its `definitions` beside it (drafts 04 to 07): the independent validator drops a
 * `$ref`'s siblings before it resolves the pointer into them, where ajv does not. The same schema as
 * `allOf: [{$ref}]`, which both read alike, when nothing beside the `$ref` asserts.
 */
function unwrapRootRef(schema) {
  if (typeof schema.$ref !== "string" || !Object.keys(schema).every((k) => k === "$ref" || INERT.has(k)))
    return schema;
  const { $ref, ...rest } = schema;
  return { ...rest, allOf: [{ $ref }] };
}

const isDraft04 = (schema) =>
  typeof schema === "object" && schema !== null && String(schema.$schema ?? "").includes("draft-04");
/** Keywords whose value is a map of names to schemas: a `const` there is a name, not a keyword. */
const NAME_MAPS = new Set(["properties", "patternProperties", "definitions", "dependencies"]);

/** A draft-04 schema that uses `const`, a keyword draft-04 does not have and ajv reads anyway. */
function readsConst(schema) {
  return isDraft04(schema) && JSON.stringify(constAsEnum(schema)) !== JSON.stringify(schema);
}

/** The schema with every `const: v` (where a keyword stands) spelled `enum: [v]`, beside any enum. */
export function constAsEnum(node, inNames = false) {
  if (Array.isArray(node)) return node.map((n) => constAsEnum(n));
  if (!node || typeof node !== "object") return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (!inNames && (key === "enum" || key === "examples" || key === "default")) out[key] = value;
    else out[key] = constAsEnum(value, !inNames && NAME_MAPS.has(key));
  }
  if (inNames || !Object.hasOwn(node, "const")) return out;
  const { const: value, ...rest } = out;
  if (rest.enum === undefined) return { ...rest, enum: [value] };
  return { ...rest, allOf: [...(rest.allOf ?? []), { enum: [value] }] };
}

let registeredRefs = false;
let serial = 0;

/** The independent validator for one version: (document) => boolean. */
async function independent(schema, refs) {
  if (!registeredRefs) {
    registeredRefs = true;
    for (const [url, json] of refs) registerSchema(renamed(json, url), url, DRAFT_07);
  }
  if (typeof schema === "boolean") return () => schema;
  // A fresh name beside the original, so relative `$ref`s reach the same published neighbours.
  const key = idKey(schema);
  const own =
    typeof schema[key] === "string" && /^https?:/.test(schema[key]) ? schema[key] : "https://corpus.invalid/";
  const uri = new URL(`corpus-version-${++serial}.json`, own).href;
  registerSchema(renamed(unwrapRootRef(schema), uri), uri, DRAFT_07);
  const validator = await validate(uri);
  return (document) => validator(document).valid;
}

/** What refused a pair, in a few words (the docs count refusals by these). */
function refusal(error) {
  const message = String(error?.message ?? error);
  if (/can't resolve reference|points outside/.test(message))
    return "a $ref to a schema the corpus does not hold";
  if (/does not compile/.test(message)) return "does not compile";
  return `${error?.code ?? "error"}: ${message.slice(0, 120)}`;
}

/**
 * The engine's validators for one version (the ajv `diff` and the monitor run), `$ref`s reaching the
 * corpus's published schemas: `new SchemaCompiler()` from src/ or dist/.
 */
export function engineValidator(compiler, schema, refs) {
  // First only the documents this version names by their URL (one of another dialect would not
  // compile beside it), then all of them (a relative `$ref` names one by a path).
  const text = JSON.stringify(schema);
  const all = [...refs].map(([url, json]) => ({ uri: url, json: renamed(json, url), name: url }));
  const named = all.filter((d) => text.includes(d.uri));
  const input = { uri: "https://corpus.invalid/version.json", json: schema, name: "version" };
  let validate;
  try {
    validate = compiler.compileVersion({ ...input, refs: named });
  } catch {
    validate = compiler.compileVersion({ ...input, refs: all });
  }
  return (document) => {
    try {
      return validate(document);
    } catch {
      return false;
    }
  };
}

/**
 * Runs `diff` on one pair and judges it. A real document proves a direction broken when both the
 * independent validator and the engine (`engine`: a SchemaCompiler) find it valid under the source
 * version and invalid under the other; where the two disagree (`disagreements`, for instance
 * draft-04, which has no `const`, read by ajv with one) the document proves nothing about `diff`,
 * whose contract is the engine's reading. `unsound` lists each `ok` direction a document proves
 * broken, `falseAlarms` each witness the independent validator does not see break, `missed` each
 * undecided direction a document proves broken. `decided` counts the directions `ok` or `breaks`.
 */
export async function judgePair(pair, refs, diffSchemas, engine, budget = 10) {
  const started = performance.now();
  let result;
  try {
    result = diffSchemas(pair.old, pair.new, {
      budget,
      resolveExternal: (uri) => refs.get(uri.replace(/#$/, "")),
    });
  } catch (error) {
    return { name: pair.name, seconds: (performance.now() - started) / 1000, refused: refusal(error) };
  }
  const seconds = (performance.now() - started) / 1000;
  let before, after;
  try {
    before = await independent(pair.old, refs);
    after = await independent(pair.new, refs);
  } catch (error) {
    return { name: pair.name, seconds, refused: `the independent validator: ${refusal(error)}` };
  }
  let engineBefore, engineAfter;
  try {
    engineBefore = engineValidator(engine, pair.old, refs);
    engineAfter = engineValidator(engine, pair.new, refs);
  } catch (error) {
    return { name: pair.name, seconds, refused: `the engine: ${refusal(error)}` };
  }
  // A witness is the engine's reading made concrete, and ajv reads `const` in draft-04 too: the
  // independent validator judges it against the same versions with each `const` spelled as the
  // one-value `enum` draft-04 has. Nothing else changes, and the documents are judged as published.
  let witnessBefore = before;
  let witnessAfter = after;
  try {
    if (readsConst(pair.old)) witnessBefore = await independent(constAsEnum(pair.old), refs);
    if (readsConst(pair.new)) witnessAfter = await independent(constAsEnum(pair.new), refs);
  } catch (error) {
    return { name: pair.name, seconds, refused: `the independent validator: ${refusal(error)}` };
  }
  const valid = pair.docs.map((d) => [before(d.json), after(d.json)]);
  const agreed = pair.docs.map(
    (d, i) => engineBefore(d.json) === valid[i][0] && engineAfter(d.json) === valid[i][1],
  );
  const disagreements = pair.docs.filter((_, i) => !agreed[i]).map((d) => d.file);
  const proves = {
    backward: pair.docs.filter((_, i) => agreed[i] && valid[i][0] && !valid[i][1]).map((d) => d.file),
    forward: pair.docs.filter((_, i) => agreed[i] && !valid[i][0] && valid[i][1]).map((d) => d.file),
  };
  const unsound = [];
  const falseAlarms = [];
  const missed = [];
  for (const direction of ["backward", "forward"]) {
    const [accept, reject] =
      direction === "backward" ? [witnessBefore, witnessAfter] : [witnessAfter, witnessBefore];
    if (result[direction] === "ok" && proves[direction].length > 0)
      unsound.push(`${direction} ok, but ${proves[direction].join(", ")} break it`);
    if (result[direction] === "undecided" && proves[direction].length > 0)
      missed.push(`${direction}: ${proves[direction].join(", ")}`);
    for (const change of result.changes) {
      const witness = change.witness?.[direction];
      if (witness === undefined) continue;
      if (!accept(witness) || reject(witness))
        falseAlarms.push(
          `${change.kind} at ${change.path} ${direction}: ${JSON.stringify(witness).slice(0, 200)}`,
        );
    }
  }
  const decided = ["backward", "forward"].filter((d) => result[d] !== "undecided").length;
  return {
    name: pair.name,
    seconds,
    backward: result.backward,
    forward: result.forward,
    decided,
    ...(result.budget ? { budget: result.budget.directions } : {}),
    unsound,
    falseAlarms,
    missed,
    disagreements,
  };
}
