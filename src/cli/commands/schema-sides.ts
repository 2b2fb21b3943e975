import { resolve } from "node:path";

import type { SchemaCompiler, SchemaDocument, Validator } from "../../catalog/compiler.js";
import { acceptsAll, readFormatFile } from "../../catalog/format-file.js";
import { documentOf, readSchemaFile, type SchemaFile } from "../../catalog/schema-file.js";
import { versionFromFileName, versionFromId, type Version } from "../../catalog/version.js";
import { loadConfig } from "../../config/load.js";
import { DEFAULTS } from "../../config/defaults.js";
import { parseDuration } from "../../config/duration.js";
import { defaultLookups } from "../../config/registries.js";
import type { Config, RegistryConfig } from "../../config/types.js";
import { SchemawatchError } from "../../errors.js";
import type { ParsedSchema } from "../../formats/format.js";
import { FORMATS, formatOfFile, JSON_FORMAT } from "../../formats/index.js";
import { compileRegistryVersion } from "../../registry/compile.js";
import type { Proposal } from "../../registry/compatibility.js";
import type { RegistryClient } from "../../registry/client.js";
import { connectRegistry } from "../../registry/connect.js";
import { readVersion } from "../../registry/snapshot.js";
import { usageError } from "../args.js";
import type { CommandContext } from "../command.js";
import { refDocuments, withRefHint } from "./schema-refs.js";

/** One side of a comparison: a schema file, or a registered version compiled as the catalog does. */
export interface Side {
  readonly file: SchemaFile;
  readonly validate: Validator;
  /** What its `$ref`s reach besides itself (a registered version's references). */
  readonly refs: readonly SchemaDocument[];
  /** The semver it declares, for the bump check: its `$id` or file name. */
  readonly version: Version | undefined;
  /** A side of another format than JSON Schema: its parsed schema and its text (`file.json` is a view). */
  readonly schema?: ParsedSchema | undefined;
  readonly text?: string | undefined;
}

/** A side as a registry takes it: its own text and its own format's registry type. */
export function proposalOf(side: Side): Proposal {
  const format = side.schema ? FORMATS.get(side.schema.format) : undefined;
  if (!format || side.text === undefined)
    return { schema: JSON.stringify(side.file.json), schemaType: JSON_FORMAT.registryType };
  return { schema: side.text, schemaType: format.registryType };
}

/** The flags that take OLD or NEW from a schema registry, in `parseCommandArgs` form. */
export const REGISTRY_FLAGS = {
  registry: { type: "string" },
  version: { type: "string", multiple: true },
  "registry-side": { type: "string" },
} as const;

export const REGISTRY_FLAGS_HELP = `  --registry R         take OLD (or NEW) from a schema registry: its URL (http://host:8081, Apicurio's
                       http://host:8080/apis/ccompat/v7) or a key of --config's registries (auth, TLS)
  --subject S          the registry subject (events-value)
  --version V          its version number, or latest (the newest not soft-deleted); the registered
                       version is OLD and the one file NEW; give --version twice for OLD and NEW both
                       registered
  --registry-side SIDE old (default) or new: which side one registered version takes`;

export interface SideFlags {
  readonly registry?: string | undefined;
  readonly subject?: string | undefined;
  readonly version?: string[] | undefined;
  readonly "registry-side"?: string | undefined;
  readonly config?: string | undefined;
  /** `--ref FILE|DIR|URL=FILE`: the documents a schema file's `$ref`s may reach. */
  readonly ref?: string[] | undefined;
}

function versionOf(file: SchemaFile): Version | undefined {
  return (file.declaredId ? versionFromId(file.declaredId) : undefined) ?? versionFromFileName(file.name);
}

/**
 * A schema file compiled on its own (OLD and NEW often share an `$id` and must not stand in for each
 * other), its `$ref`s reaching the `--ref` documents only.
 */
async function fileSide(
  path: string,
  compiler: SchemaCompiler,
  refs: readonly SchemaDocument[] = [],
): Promise<Side> {
  const format = formatOfFile(path);
  if (format && format !== JSON_FORMAT) {
    // Read by its format: records, not documents, are what it accepts (the format's diff compares it).
    // As a file on its own: a Protobuf file of enums only is compared too.
    const { file, schema, text } = await readFormatFile(path, format, [], { asFile: true });
    return { file, validate: acceptsAll(), refs: [], version: versionFromFileName(file.name), schema, text };
  }
  const file = await readSchemaFile(path, compiler.defaultDialect);
  let validate: Validator;
  try {
    validate = compiler.compileVersion({ ...documentOf(file), dialect: file.dialect, refs });
  } catch (error) {
    throw withRefHint(error);
  }
  return { file, validate, refs, version: versionOf(file) };
}

/** A registered version with its references, compiled as the monitor's catalog compiles it. */
export async function registeredSide(
  client: RegistryClient,
  registry: string,
  subject: string,
  number: number | "latest",
  compiler: SchemaCompiler,
): Promise<Side> {
  const version = await readVersion(client, subject, number);
  // As `diff` reads a file: a registry's shared enum subject (Protobuf enums only) is compared too.
  const compiled = compileRegistryVersion(registry, version, compiler, { asFile: true });
  if ("reason" in compiled) throw new SchemawatchError("SCHEMA_INVALID", compiled.message);
  const json = compiled.file.json;
  const id = typeof json === "object" ? (json["$id"] ?? json["id"]) : undefined;
  return { ...compiled, version: typeof id === "string" ? versionFromId(id) : undefined };
}

/** A schema file compiled on its own, as OLD or NEW of a comparison. */
export function schemaFileSide(
  path: string,
  compiler: SchemaCompiler,
  refs: readonly SchemaDocument[] = [],
): Promise<Side> {
  return fileSide(path, compiler, refs);
}

function parseRegistryVersion(command: string, text: string): number | "latest" {
  if (text === "latest") return "latest";
  if (/^[1-9][0-9]{0,9}$/.test(text)) return Number(text);
  throw usageError(command, `--version must be a version number or latest, got '${text}'`);
}

/** `--registry URL`, or `--registry NAME` of the config's registries (which brings auth and TLS). */
export function registryConfig(
  command: string,
  registry: string,
  config: Config | undefined,
): RegistryConfig {
  if (/^https?:\/\//.test(registry)) {
    // Named by its host in messages and paths: registry:HOST/SUBJECT/versions/N.
    let parsed: URL;
    try {
      parsed = new URL(registry);
    } catch {
      throw usageError(command, `--registry ${registry}: not a URL`);
    }
    if (parsed.username !== "" || parsed.password !== "") {
      // Messages show the URL; credentials in it would leak. Not repeated here either.
      throw usageError(
        command,
        "--registry: put credentials in a registry of --config (auth: usernameEnv, passwordFile …) and name it, not in the URL",
      );
    }
    const name = parsed.host;
    return {
      name,
      url: registry.replace(/\/+$/, ""),
      pollInterval: parseDuration(DEFAULTS.registry.pollInterval) * 1000,
      timeout: parseDuration(DEFAULTS.registry.timeout) * 1000,
      retries: DEFAULTS.registry.retries,
      ...defaultLookups(),
    };
  }
  if (!config) {
    throw usageError(
      command,
      `--registry ${registry}: a registry name needs --config FILE (or give its URL)`,
    );
  }
  const found = config.registries[registry];
  if (!found) {
    const known = Object.keys(config.registries);
    throw new SchemawatchError(
      "USAGE",
      `schemawatch ${command}: --registry ${registry}: ${config.path} has no such registry (${known.length > 0 ? `registries: ${known.join(", ")}` : "it defines none"})`,
    );
  }
  return found;
}

/**
 * OLD and NEW from the command line: two schema files, or registered versions (`--registry R
 * --subject S --version V`, once or twice) with the files that remain. A registered version is
 * fetched with its references and compiled as the monitor's catalog compiles it.
 */
export async function schemaSides(
  command: string,
  positionals: readonly string[],
  flags: SideFlags,
  compiler: SchemaCompiler,
  context: CommandContext,
): Promise<readonly [Side, Side]> {
  const versions = flags.version ?? [];
  const refs = await refDocuments(flags.ref, compiler.defaultDialect);
  if (flags.registry === undefined) {
    if (versions.length > 0 || flags["registry-side"] !== undefined)
      throw usageError(command, "--version and --registry-side need --registry R --subject S");
    if (positionals.length !== 2) throw usageError(command, "expected two schema files, OLD and NEW");
    const before = await fileSide(positionals[0]!, compiler, refs);
    const after = await fileSide(positionals[1]!, compiler, refs);
    return [before, after];
  }
  if (flags.subject === undefined) throw usageError(command, "--registry needs --subject S");
  if (versions.length === 0 || versions.length > 2)
    throw usageError(command, "--registry needs --version V (or twice: OLD and NEW)");
  if (positionals.length + versions.length !== 2) {
    throw usageError(
      command,
      versions.length === 2
        ? "two registered versions are OLD and NEW: give no schema file"
        : "expected one schema file beside the registered version",
    );
  }
  const side = flags["registry-side"] ?? "old";
  if (side !== "old" && side !== "new")
    throw usageError(command, `--registry-side must be old or new, got '${side}'`);
  const config = flags.config ? await loadConfig(resolve(context.cwd, flags.config)) : undefined;
  const registry = registryConfig(command, flags.registry, config);
  const client = await connectRegistry(registry, context.env);
  const registered: Side[] = [];
  try {
    for (const text of versions) {
      const version = parseRegistryVersion(command, text);
      registered.push(await registeredSide(client, registry.name, flags.subject, version, compiler));
    }
  } finally {
    client.http.close();
  }
  if (registered.length === 2) return [registered[0]!, registered[1]!];
  const file = await fileSide(positionals[0]!, compiler, refs);
  return side === "old" ? [registered[0]!, file] : [file, registered[0]!];
}
