// Builds test/fixtures/diff-real/: consecutive versions of public JSON Schemas from SchemaStore's git
// history, with the documents the project tests each schema with (src/test/NAME/*.json), for the
// real-world corpus test of `diff` (test/unit/diff/real-world.test.ts) and its bench
// (bench/diff-corpus.js). Run once, by hand, against a clone of github.com/SchemaStore/schemastore
// (Apache-2.0):
//
//   node bench/diff-corpus-build.js /path/to/schemastore [--refs-only]
//
// It keeps schemas of at most MAX_SIZE bytes with at least one JSON test document, walks each
// schema file's history newest first, keeps the versions whose parsed JSON differs from the next
// one kept (formatting-only commits are no version), and stops at PAIRS_PER_SCHEMA pairs.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";

const MAX_SIZE = 30_000;
const MAX_DOC = 20_000;
const PAIRS_PER_SCHEMA = 6;
const DOCS_PER_SCHEMA = 12;
const MAX_PAIRS = 260;
const repo = process.argv[2];
if (!repo) throw new Error("usage: node bench/diff-corpus-build.js SCHEMASTORE_CLONE");
const out = join(import.meta.dirname, "..", "test", "fixtures", "diff-real");

const run = (...args) =>
  execFileSync("git", ["-C", repo, ...args], {
    encoding: "utf8",
    maxBuffer: 1 << 28,
    stdio: ["ignore", "pipe", "ignore"],
  });

const head = run("rev-parse", "HEAD").trim();
const tests = run("ls-tree", "--name-only", "HEAD", "src/test/")
  .split("\n")
  .filter(Boolean)
  .map((p) => p.slice("src/test/".length));

const parse = (text) => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/**
 * The published schemas the versions `$ref` by URL, taken from the same clone (its newest version),
 * under every URL they are named by. kubernetes-definitions.json (1 MB, for drone) and CircleCI's
 * schema (another repository) are left out: those pairs stay refused, as a user without them is.
 */
const REFS = {
  "pre-commit-hooks": ["https://json.schemastore.org/pre-commit-hooks.json"],
  base: ["https://json.schemastore.org/base.json"],
  "partial-fusion-pack-metadata": ["https://json.schemastore.org/partial-fusion-pack-metadata.json"],
  mtad: ["https://json.schemastore.org/mtad.json"],
  "azure-iot-edge-deployment-2.0": [
    "http://json.schemastore.org/azure-iot-edge-deployment-2.0",
    "https://json.schemastore.org/azure-iot-edge-deployment-2.0",
    "https://json.schemastore.org/azure-iot-edge-deployment-2.0.json",
  ],
  "azure-iot-edge-deployment-1.0": [
    "http://json.schemastore.org/azure-iot-edge-deployment-1.0",
    "https://json.schemastore.org/azure-iot-edge-deployment-1.0",
    "https://json.schemastore.org/azure-iot-edge-deployment-1.0.json",
  ],
  "base-04": ["https://json.schemastore.org/base-04.json"],
  "ide.host": ["https://json.schemastore.org/ide.host.json"],
};

function writeRefs() {
  const dir = join(out, "_refs");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const urls = {};
  for (const [name, names] of Object.entries(REFS)) {
    const json = JSON.parse(run("show", `HEAD:src/schemas/json/${name}.json`));
    writeFileSync(join(dir, `${name}.json`), `${JSON.stringify(json)}\n`);
    for (const url of names) urls[url] = `_refs/${name}.json`;
  }
  return urls;
}

if (process.argv[3] === "--refs-only") {
  const manifestPath = join(out, "manifest.json");
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
  manifest.refs = writeRefs();
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 1)}\n`);
  console.log(`${Object.keys(manifest.refs).length} reference URLs`);
  process.exit(0);
}

rmSync(out, { recursive: true, force: true });
const manifest = {
  source: "https://github.com/SchemaStore/schemastore",
  licence: "Apache-2.0",
  head,
  schemas: [],
};
let total = 0;
const candidates = [];
for (const name of tests) {
  const path = `src/schemas/json/${name}.json`;
  let size;
  try {
    size = Number(run("cat-file", "-s", `HEAD:${path}`).trim());
  } catch {
    continue;
  }
  if (size > MAX_SIZE) continue;
  const docNames = run("ls-tree", "--name-only", "HEAD", `src/test/${name}/`)
    .split("\n")
    .filter((p) => p.endsWith(".json"))
    .map((p) => p.slice(`src/test/${name}/`.length));
  if (docNames.length === 0) continue;
  const commits = run("log", "--format=%H", "HEAD", "--", path).split("\n").filter(Boolean).length;
  candidates.push({ name, path, docNames, commits });
}
// The schemas with the longest histories first: they hold the most versions.
candidates.sort((a, b) => b.commits - a.commits || a.name.localeCompare(b.name));
for (const { name, path, docNames } of candidates) {
  if (total >= MAX_PAIRS) break;
  const log = run("log", "--format=%H %cs", "HEAD", "--", path).split("\n").filter(Boolean);
  const versions = [];
  for (const line of log) {
    const [commit, date] = line.split(" ");
    let text;
    try {
      text = run("show", `${commit}:${path}`);
    } catch {
      continue;
    }
    const json = parse(text);
    if (json === undefined || typeof json !== "object") continue;
    if (versions.length > 0 && isDeepStrictEqual(versions.at(-1).json, json)) continue;
    versions.push({ commit, date, json });
    if (versions.length > PAIRS_PER_SCHEMA) break;
  }
  if (versions.length < 2) continue;
  const docs = [];
  for (const file of docNames) {
    const text = run("show", `HEAD:src/test/${name}/${file}`);
    if (text.length > MAX_DOC) continue;
    const json = parse(text);
    if (json === undefined) continue;
    docs.push({ file, json });
    if (docs.length >= DOCS_PER_SCHEMA) break;
  }
  if (docs.length === 0) continue;
  const dir = join(out, name);
  mkdirSync(join(dir, "docs"), { recursive: true });
  versions.reverse(); // oldest first
  const kept = versions.map((v, i) => {
    const file = `v${String(i).padStart(2, "0")}.json`;
    writeFileSync(join(dir, file), `${JSON.stringify(v.json)}\n`);
    return { file, commit: v.commit, date: v.date };
  });
  for (const d of docs) writeFileSync(join(dir, "docs", d.file), `${JSON.stringify(d.json)}\n`);
  manifest.schemas.push({
    name,
    path,
    tests: `src/test/${name}/`,
    versions: kept,
    docs: docs.map((d) => d.file),
  });
  total += kept.length - 1;
}
manifest.pairs = total;
manifest.refs = writeRefs();
writeFileSync(join(out, "manifest.json"), `${JSON.stringify(manifest, null, 1)}\n`);
console.log(`${manifest.schemas.length} schemas, ${total} pairs -> ${out}`);
