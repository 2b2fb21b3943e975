import type { SchemaCompiler, SchemaDocument, Validator } from "../../catalog/compiler.js";
import { loadSharedDocuments } from "../../catalog/load.js";
import type { SchemaFile } from "../../catalog/schema-file.js";
import type { CatalogVersion } from "../../catalog/types.js";
import type { Version } from "../../catalog/version.js";
import { loadConfig } from "../../config/load.js";
import type { Config } from "../../config/types.js";
import { diffSchemas, type Bump, type DiffResult, type Policy } from "../../diff/index.js";
import type { AnyDiffResult } from "../../diff/formats.js";
import type { ParsedSchema } from "../../formats/format.js";
import { declaredBump, gatherEvidence, settle, suffices, type Evidence } from "../../diff/release.js";
import { toJson, toText, type Release } from "../../diff/render.js";
import { SchemawatchError } from "../../errors.js";
import { DocumentBudget } from "../../offline/budget.js";
import { readDocumentFolder, type SampleDocument } from "../../offline/documents.js";
import { oneOf, parseCommandArgs, usageError } from "../args.js";
import type { Command, CommandContext } from "../command.js";
import { readRegistryCatalog } from "./registry-catalog.js";
import { compilerFromFlags, SCHEMA_FLAGS, SCHEMA_FLAGS_HELP } from "./schema-flags.js";
import { diffAgainstRegistry } from "./diff-registry.js";
import { hinted, monitorOrExit, type LiveStatus } from "./diff-live.js";
import { DEFAULT_URL } from "../http-client.js";
import { REF_FLAGS, REF_FLAGS_HELP } from "./schema-refs.js";
import { REGISTRY_FLAGS, REGISTRY_FLAGS_HELP, schemaSides, type SideFlags } from "./schema-sides.js";
import { BUDGET_HELP, budgetOf } from "./diff-budget.js";
import { formatCompare } from "./diff-formats.js";

const help = `Usage: schemawatch diff OLD NEW [--policy strict|lenient] [--format text|json] [--docs DIR]
                        [--expect patch|minor|major] [--default-dialect D] [--assert-formats]
                        [--budget SECONDS] [--ref FILE|DIR ...]
                        [--monitor URL --subject S]
       schemawatch diff --registry R --subject S --version V NEW [--config FILE] [--policy ...] ...
       schemawatch diff --registry R --subject S [NEW] [--config FILE] [--policy ...] [--format ...]
       schemawatch diff --config FILE [--subject NAME] [--policy ...] [--format ...] [--docs DIR]

Compares two versions of a JSON Schema without documents and classifies every change: its kind, the
JSON Pointer where it happened, whether it breaks backward (a document valid under OLD fails NEW) and
forward (a document valid under NEW fails OLD), and why. Every break comes with its witness: a
document the engine accepts under one version and rejects under the other because of that change.
Then it says the least semver bump the change needs and checks it against the declared one. With
--config it checks every version of a subject against every earlier one (transitively) and the
version numbers they were released under. With --registry and --subject but no --version it asks the
registry's own compatibility check about NEW (by default its latest version) and sets it beside the
evidence at the subject's level: a break the registry would accept is shown with its witness, a
rejection of a change proven safe with the proof. With --monitor it asks a running monitor's
/api/status what live traffic says of every property NEW removes: still carried (by whom, in what
share of its records), drained since when (safe), or not watched.

Two .avsc files (Avro) or two .proto files (Protobuf) are compared by their format's own rules, chosen
by the files' extension: backward when NEW reads every record OLD writes, forward the reverse. Each
break names its rule and place and shows a record that proves it, as JSON and as the bytes its writer
writes (hex and base64). Files of two formats are refused; --docs and --monitor apply to JSON only.

Options:
  --policy POLICY   strict (default; the schema registries' rule: an open object may already carry any
                    key) or lenient (the article's rule: adding an optional property is backward compatible)
  --format FORMAT   text (default) or json
  --docs DIR        settle undecided changes with sample documents: lists the documents that pass OLD and
                    fail NEW, and the reverse
  --monitor URL     a running monitor (${DEFAULT_URL}): each removed property gets a hint from its
                    field verdicts; with OLD NEW, --subject names the monitor's subject
${BUDGET_HELP}
  --expect BUMP     the bump this release declares (patch, minor or major) instead of the versions in
                    $id or the file names
  --config FILE     a schemawatch config; with --subject NAME only that subject is checked (its
                    defaultDialect and assertFormats apply unless the flags below say otherwise). With
                    --registry NAME it only names the registry (its URL, auth and TLS)
${REGISTRY_FLAGS_HELP}
${REF_FLAGS_HELP}
${SCHEMA_FLAGS_HELP}
  -h, --help        show this help

Exit status: 0 when the declared bump covers the changes (with no declared version: when nothing breaks
backward); 1 when it does not; 2 on bad input (unreadable file, not JSON, a schema that does not compile,
a subject the monitor does not know); 3 when the monitor at --monitor could not be asked (no answer, an
error status, an answer that is no status): nothing was compared. The live hints never change the status.

Examples:
  schemawatch diff examples/article/schemas/v1.json examples/article/schemas/v2.json --policy lenient
  schemawatch diff examples/article/schemas/v1.json examples/article/schemas/v2-required-amount.json \\
    --expect minor --format json
  schemawatch diff pay-1.0.avsc pay-2.0.avsc
  schemawatch diff --config examples/config.yaml --subject event
  schemawatch diff --registry http://127.0.0.1:8081 --subject orders-value --version latest proposed.json
  schemawatch diff --registry http://127.0.0.1:8081 --subject orders-value proposed.json
  schemawatch diff pay-1.1.json pay-2.0.json --monitor http://schemawatch:9464 --subject pay
`;

const BUMPS: readonly Bump[] = ["patch", "minor", "major"];

interface Options {
  readonly policy: Policy;
  /** Seconds per pair of versions (--budget). */
  readonly budget: number;
  readonly documents?: readonly SampleDocument[];
  /** The monitor's answer when --monitor was given: every comparison gets its live hints. */
  readonly live?: LiveStatus | undefined;
}

interface Flags extends SideFlags {
  readonly "default-dialect"?: string | undefined;
  readonly "assert-formats"?: boolean | undefined;
}

function releaseOf(needed: Bump, before?: Version, after?: Version, expected?: Bump): Release {
  if (expected) return { declared: expected, source: "--expect", ok: suffices(expected, needed) };
  if (!before || !after) return { ok: needed !== "major" };
  const declared = declaredBump(before, after);
  const ok = declared !== "downgrade" && suffices(declared, needed);
  return { declared, source: `${before.text} -> ${after.text}`, ok };
}

interface Side {
  readonly file: SchemaFile;
  readonly validate: Validator;
  /** A registered version's references. */
  readonly refs?: readonly SchemaDocument[] | undefined;
  /** A version of another format than JSON Schema, compared by its format's diff. */
  readonly schema?: ParsedSchema | undefined;
}

/** What a side's `$ref`s may reach outside itself, by URI: its references, then the shared files. */
function externalsOf(side: Side, shared?: ReadonlyMap<string, unknown>): Map<string, unknown> {
  const out = new Map(shared);
  for (const ref of side.refs ?? []) out.set(ref.uri, ref.json);
  return out;
}

function compare(
  before: Side,
  after: Side,
  options: Options,
  compiler: SchemaCompiler,
  subject: string | undefined,
  externals?: ReadonlyMap<string, unknown>,
): { result: AnyDiffResult; evidence?: Evidence | undefined } {
  const jsonOnly = options.documents ? "--docs" : options.live ? "--monitor" : undefined;
  const other = formatCompare(before, after, options.policy, jsonOnly);
  if (other) return { result: other };
  const oldRefs = externalsOf(before, externals);
  const newRefs = externalsOf(after, externals);
  let result: DiffResult = diffSchemas(before.file.json, after.file.json, {
    policy: options.policy,
    compiler,
    oldDialect: before.file.dialect,
    newDialect: after.file.dialect,
    oldBaseUri: before.file.baseId,
    newBaseUri: after.file.baseId,
    oldName: before.file.path,
    newName: after.file.path,
    oldResolveExternal: (uri) => oldRefs.get(uri.replace(/#$/, "")),
    newResolveExternal: (uri) => newRefs.get(uri.replace(/#$/, "")),
    budget: options.budget,
  });
  let evidence: Evidence | undefined;
  if (options.documents) {
    const documents = options.documents;
    // Each document's validation within the time budget: one past it stops the diff, named.
    const budget = new DocumentBudget();
    const judge = (side: Side) => {
      const schema = { name: side.file.path, json: side.file.json, validate: side.validate };
      const judged = budget.judge(documents.map((d) => [schema, d] as const));
      const passed = new Map(documents.map((d, i) => [d.json, judged[i]!.passed]));
      return (json: unknown) => passed.get(json) === true;
    };
    evidence = gatherEvidence(documents, judge(before), judge(after));
    result = settle(result, evidence);
  }
  return { result: hinted(result, options.live, subject), evidence };
}

async function pair(
  positionals: readonly string[],
  options: Options,
  expected: Bump | undefined,
  context: CommandContext,
  json: boolean,
  flags: Flags,
) {
  const fallback = flags.config && flags.registry ? await loadConfig(flags.config) : {};
  const compiler = compilerFromFlags("diff", flags, fallback);
  const [before, after] = await schemaSides("diff", positionals, flags, compiler, context);
  const oldVersion = before.version;
  const newVersion = after.version;
  if (!expected && oldVersion && newVersion && declaredBump(oldVersion, newVersion) === "downgrade") {
    throw new SchemawatchError(
      "USAGE",
      `${after.file.path}: version ${newVersion.text} is not after ` +
        `${before.file.path}'s ${oldVersion.text}; ` +
        "swap OLD and NEW, or pass --expect",
    );
  }
  const { result, evidence } = compare(before, after, options, compiler, flags.subject);
  const release = releaseOf(result.bump, oldVersion, newVersion, expected);
  const names = { old: before.file.path, new: after.file.path };
  const output = json
    ? `${JSON.stringify(toJson(result, names, release, evidence), null, 2)}\n`
    : toText(result, names, release, evidence);
  context.stdout.write(output);
  return release.ok ? 0 : 1;
}

/**
 * The release a catalog version declares: its semver, except for a registry version labelled by its
 * number (`3`), which says nothing about the size of the change.
 */
function declaredOf(version: CatalogVersion): Version | undefined {
  return version.registry && /^\d+$/.test(version.version.text) ? undefined : version.version;
}

/** The shared schema files a version's `$ref`s may reach, by base URI (a version reaches no other). */
async function externalSchemas(config: Config, compiler: SchemaCompiler): Promise<Map<string, unknown>> {
  const shared = await loadSharedDocuments(config.shared, compiler.defaultDialect);
  return new Map(shared.map((file) => [file.baseId, file.json]));
}

async function subjects(
  configPath: string,
  only: string | undefined,
  options: Options,
  context: CommandContext,
  json: boolean,
  flags: Flags,
) {
  const config = await loadConfig(configPath);
  const compiler = compilerFromFlags("diff", flags, config);
  if (only && !config.subjects.some((s) => s.name === only)) {
    const known = config.subjects.map((s) => s.name).join(", ");
    throw new SchemawatchError(
      "SUBJECT_UNKNOWN",
      `${config.path}: no subject '${only}' (subjects: ${known})`,
    );
  }
  // Registry subjects are read from their registry once, as the monitor reads them.
  const catalog = await readRegistryCatalog(config, compiler, context);
  const chosen = [...catalog.subjects.values()].filter((s) => !only || s.name === only);
  const externals = await externalSchemas(config, compiler);
  let failed = false;
  const report: Record<string, unknown>[] = [];
  const text: string[] = [];
  for (const subject of chosen) {
    const pairs: Record<string, unknown>[] = [];
    for (const [j, after] of subject.versions.entries()) {
      for (const before of subject.versions.slice(0, j)) {
        const { result, evidence } = compare(before, after, options, compiler, subject.name, externals);
        const release = releaseOf(result.bump, declaredOf(before), declaredOf(after));
        failed ||= !release.ok;
        const names = { old: before.file.path, new: after.file.path };
        pairs.push({
          oldVersion: before.version.text,
          newVersion: after.version.text,
          ...toJson(result, names, release, evidence),
        });
        const verdict = release.ok ? "ok" : "FAIL";
        const line = `${subject.name} ${before.version.text} -> ${after.version.text}`;
        const bumps = release.declared
          ? `needs ${result.bump}, declared ${release.declared}`
          : `needs ${result.bump}, no declared version`;
        text.push(`${line.padEnd(32)} ${result.compatibility.padEnd(9)} ${bumps}: ${verdict}`);
        if (!release.ok) text.push(toText(result, names, release, evidence).replace(/^/gm, "    ").trimEnd());
      }
    }
    report.push({ subject: subject.name, ok: pairs.every((p) => p["ok"] === true), pairs });
  }
  const output = json
    ? `${JSON.stringify({ policy: options.policy, ok: !failed, subjects: report }, null, 2)}\n`
    : `${text.join("\n")}\n`;
  context.stdout.write(output);
  return failed ? 1 : 0;
}

export const diffCommand: Command = {
  name: "diff",
  summary: "classify every change between schema versions and the semver bump it needs",
  help,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs("diff", args, {
      policy: { type: "string" },
      format: { type: "string" },
      docs: { type: "string" },
      expect: { type: "string" },
      monitor: { type: "string" },
      config: { type: "string" },
      subject: { type: "string" },
      budget: { type: "string" },
      ...REGISTRY_FLAGS,
      ...REF_FLAGS,
      ...SCHEMA_FLAGS,
    });
    if (values.help) {
      context.stdout.write(help);
      return 0;
    }
    const policy = oneOf("diff", "policy", values.policy, ["strict", "lenient"], "strict");
    const json = oneOf("diff", "format", values.format, ["text", "json"], "text") === "json";
    const expected =
      values.expect === undefined ? undefined : oneOf("diff", "expect", values.expect, BUMPS, "major");
    const documents = values.docs ? await readDocumentFolder(values.docs) : undefined;
    if (values.monitor !== undefined && !values.config && values.registry === undefined && !values.subject)
      throw usageError("diff", "--monitor with OLD NEW needs --subject S: the monitor's subject");
    const live = await monitorOrExit(values.monitor, context);
    if (typeof live === "number") return live;
    const budget = budgetOf("diff", values.budget);
    const options: Options = { policy, budget, live, ...(documents ? { documents } : {}) };
    if (values.config && values.registry === undefined) {
      if (positionals.length > 0) throw usageError("diff", "give either OLD NEW or --config, not both");
      if (expected)
        throw usageError("diff", "--expect applies to OLD NEW; with --config the versions decide");
      return subjects(values.config, values.subject, options, context, json, values);
    }
    if (values.registry !== undefined && values.version === undefined) {
      // No version named: ask the registry's own check about NEW, beside the evidence.
      if (expected) throw usageError("diff", "--expect applies to OLD NEW, not to a registry's check");
      const fallback = values.config ? await loadConfig(values.config) : {};
      const compiler = compilerFromFlags("diff", values, fallback);
      const judge = (before: Side, after: Side) =>
        compare(before, after, options, compiler, values.subject).result;
      return diffAgainstRegistry(positionals, values, compiler, context, json, judge);
    }
    if (values.subject && values.registry === undefined && values.monitor === undefined)
      throw usageError("diff", "--subject needs --config FILE, --registry R or --monitor URL");
    if (values.registry === undefined && positionals.length !== 2)
      throw usageError("diff", "expected two schema files, OLD and NEW (or --config FILE)");
    return pair(positionals, options, expected, context, json, values);
  },
};
