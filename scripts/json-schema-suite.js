#!/usr/bin/env node
// Runs the official JSON-Schema-Test-Suite (json-schema-org/JSON-Schema-Test-Suite) through the
// compiler every command and the live monitor validate with, and prints passed / wrong / refused per
// draft. Only the required tests (`tests/<draft>/*.json`, not `optional/`). Not part of `npm test`:
// CI has no network to fetch the suite; the project's own cases of each class are unit tests.
//
//   npm run test:suite [-- --verbose]              # the copy in test/fixtures/json-schema-test-suite
//   JSON_SCHEMA_TEST_SUITE=/path/to/JSON-Schema-Test-Suite npm run test:suite [-- --verbose]
//
// Each group's schema is retrieved at a file URI of its own (as a catalog file or a registry version
// is), never the one its `$id` names: the compiler takes the `$id` as the base.
//
// A group is "refused" when its schema does not compile. It is "remote" when it needs one of the
// suite's remote documents (http://localhost:1234/...), which schemawatch never fetches: it compiles
// once the suite's remotes/ are given as the documents a `$ref` may reach (as a catalog's shared files
// are; a custom meta-schema as `$schema` is one of them). Remote groups are then run with the remotes
// given, and their answers counted apart. A test is "wrong" when the answer differs from the suite's, "threw"
// when validating threw.
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { URL, fileURLToPath, pathToFileURL } from "node:url";
import { SchemaCompiler } from "../dist/catalog/compiler.js";

const DRAFTS = [
  ["draft4", "draft-04"],
  ["draft6", "draft-06"],
  ["draft7", "draft-07"],
  ["draft2019-09", "2019-09"],
  ["draft2020-12", "2020-12"],
];
const REMOTE = "http://localhost:1234/";
const DIALECT_URIS = /^https?:\/\/json-schema\.org\/(draft-0[467]\/schema|draft\/20(19-09|20-12)\/schema)#?$/;

const root =
  process.env.JSON_SCHEMA_TEST_SUITE ||
  fileURLToPath(new URL("../test/fixtures/json-schema-test-suite/", import.meta.url));
const verbose = process.argv.includes("--verbose");

const KEYS = ["passed", "wrong", "threw", "refused", "remote", "remotePassed", "remoteWrong"];
const totals = Object.fromEntries(KEYS.map((k) => [k, 0]));
const rows = [];
for (const [folder, dialect] of DRAFTS) {
  const dir = join(root, "tests", folder);
  let files;
  try {
    files = (await readdir(dir)).filter((f) => f.endsWith(".json")).sort();
  } catch (error) {
    console.error(`${dir}: cannot read the suite's ${folder} folder: ${error.message}`);
    process.exit(2);
  }
  const tally = Object.fromEntries(KEYS.map((k) => [k, 0]));
  const compiler = new SchemaCompiler({ defaultDialect: dialect });
  const remotes = await remoteDocuments(join(root, "remotes"), folder);
  for (const file of files) {
    const path = join(dir, file);
    const groups = JSON.parse(await readFile(path, "utf8"));
    for (const [index, group] of groups.entries()) {
      const where = `${folder}/${file}: ${group.description}`;
      const uri = pathToFileURL(join(dir, file.replace(/\.json$/, ""), `${index}.json`)).href;
      const declared = typeof group.schema === "object" ? group.schema.$schema : undefined;
      // A custom meta-schema's dialect is the one it declares, read once it is among the remotes given.
      const custom = typeof declared === "string" && !DIALECT_URIS.test(declared);
      const input = { uri, json: group.schema, name: where, ...(custom ? {} : { dialect }) };
      let validate;
      let remote = false;
      try {
        validate = compiler.compileVersion(input);
      } catch (error) {
        try {
          if (!JSON.stringify(group.schema).includes(REMOTE)) throw error;
          validate = compiler.compileVersion({ ...input, refs: remotes });
          remote = true;
        } catch {
          tally.refused++;
          if (verbose) console.log(`REFUSED ${where}: ${error.message}`);
          continue;
        }
      }
      if (remote) tally.remote++;
      for (const test of group.tests) {
        let answer;
        try {
          answer = validate(test.data);
        } catch (error) {
          tally.threw++;
          if (verbose) console.log(`THREW   ${where} / ${test.description}: ${error.message}`);
          continue;
        }
        if (answer === test.valid) tally[remote ? "remotePassed" : "passed"]++;
        else {
          tally[remote ? "remoteWrong" : "wrong"]++;
          const what = remote ? "WRONG (with remotes)" : "WRONG";
          if (verbose)
            console.log(`${what} ${where} / ${test.description}: expected ${test.valid}, got ${answer}`);
        }
      }
    }
  }
  rows.push([dialect, tally]);
  for (const key of Object.keys(totals)) totals[key] += tally[key];
}
rows.push(["all", totals]);

console.log(
  "| draft | passed | wrong | threw | refused | need a remote | with remotes given: passed, wrong |",
);
console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const [name, t] of rows) {
  console.log(
    `| ${name} | ${t.passed} | ${t.wrong} | ${t.threw} | ${t.refused} groups | ${t.remote} groups | ` +
      `${t.remotePassed}, ${t.remoteWrong} |`,
  );
}
process.exitCode = totals.wrong + totals.threw + totals.refused === 0 ? 0 : 1;

/**
 * The suite's remote documents as the documents a `$ref` may reach: those of the draft's own folder
 * and those without a folder of a draft, by the URI the suite serves them at.
 */
async function remoteDocuments(dir, folder) {
  const out = [];
  const drafts = new Set(DRAFTS.map(([f]) => f).concat(["draft3", "draft-next", "v1"]));
  const visit = async (at) => {
    for (const entry of await readdir(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      const rel = relative(dir, path);
      if (entry.isDirectory()) {
        if (!drafts.has(entry.name) || entry.name === folder) await visit(path);
      } else if (entry.name.endsWith(".json")) {
        out.push({ uri: `${REMOTE}${rel}`, json: JSON.parse(await readFile(path, "utf8")), name: rel });
      }
    }
  };
  await visit(dir);
  return out;
}
