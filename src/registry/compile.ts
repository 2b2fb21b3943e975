import type { SchemaCompiler, SchemaDocument, Validator } from "../catalog/compiler.js";
import { DEFAULT_DIALECT, idKeyword } from "../catalog/dialect.js";
import { acceptsAll } from "../catalog/format-file.js";
import type { Format, ParsedSchema, SchemaSource } from "../formats/format.js";
import { formatOfRegistryType, JSON_FORMAT } from "../formats/index.js";
import type { SchemaFile } from "../catalog/schema-file.js";
import { messageOf } from "../errors.js";
import type { ReferenceEntry, RegistryVersion, SkippedVersion } from "./types.js";

/** The scheme of the base URI of a registered version whose schema has no `$id`. */
export const REGISTRY_SCHEME = "schemawatch-registry";

/** A registered version compiled: a synthetic schema file, its validator, what its `$ref`s reach. */
export interface CompiledVersion {
  readonly file: SchemaFile;
  readonly validate: Validator;
  readonly refs: readonly SchemaDocument[];
  /** A version of another format than JSON Schema, parsed by its format (with its references). */
  readonly schema?: ParsedSchema;
  /** Such a version's text as the registry holds it (what a registry is sent back). */
  readonly text?: string;
}

/** How messages and the report name a registered version: `registry:main/events-value/versions/3`. */
export function registryPath(registry: string, subject: string, version: number): string {
  return `registry:${registry}/${subject}/versions/${version}`;
}

function withoutFragment(uri: string): string {
  return uri.replace(/#.*$/, "");
}

function resolveUri(reference: string, base: string): string | undefined {
  try {
    return withoutFragment(new URL(reference, base).href);
  } catch {
    return undefined;
  }
}

function declaredId(json: unknown, keyword: "id" | "$id"): string | undefined {
  if (typeof json !== "object" || json === null) return undefined;
  const id = (json as Record<string, unknown>)[keyword];
  return typeof id === "string" && id !== "" ? id : undefined;
}

/**
 * The base URI a registered version is compiled under: its own `$id` (resolved against the synthetic
 * one when relative), else `schemawatch-registry://REGISTRY/SUBJECT/versions/N`, which nothing else
 * uses, so versions of one subject never stand in for each other.
 */
export function versionBaseUri(
  registry: string,
  version: Pick<RegistryVersion, "subject" | "version" | "schema">,
  keyword: "id" | "$id",
): string {
  const synthetic = versionUri(registry, version);
  const id = declaredId(version.schema, keyword);
  return (id !== undefined ? resolveUri(id, synthetic) : undefined) ?? synthetic;
}

/** The URI a registered version is retrieved at, whatever its `$id`: the compiler's alias of its base. */
function versionUri(registry: string, version: Pick<RegistryVersion, "subject" | "version">): string {
  return `${REGISTRY_SCHEME}://${encodeURIComponent(registry)}/${encodeURIComponent(version.subject)}/versions/${version.version}`;
}

/**
 * The documents a version's `$ref`s may reach: every referenced schema registered under its
 * reference `name` resolved against the base of the schema that names it (as the registries' own
 * serializers resolve references, by name), and also under its own absolute `$id` when no other
 * document of the version claims that URI.
 */
export function referenceDocuments(
  registry: string,
  version: RegistryVersion,
  rootUri: string,
): SchemaDocument[] {
  const key = (e: { name: string; subject: string; version: number }) =>
    `${e.name}\0${e.subject}\0${e.version}`;
  const resolved = new Map(version.references.map((r) => [key(r), r]));
  const out: SchemaDocument[] = [];
  const taken = new Set([rootUri]);
  const visit = (entries: readonly ReferenceEntry[], base: string) => {
    for (const entry of entries) {
      const reference = resolved.get(key(entry));
      const uri = resolveUri(entry.name, base);
      if (!reference || uri === undefined || taken.has(uri)) continue;
      taken.add(uri);
      out.push({
        uri,
        json: reference.schema,
        name: `${registryPath(registry, reference.subject, reference.version)} (reference '${entry.name}')`,
      });
      visit(reference.references, uri);
    }
  };
  // Without the version's own entries (an older snapshot), every reference is taken as its own.
  visit(version.referenceEntries ?? version.references, rootUri);
  const byId = new Map<string, SchemaDocument[]>();
  for (const document of out) {
    const own = declaredId(document.json, "$id") ?? declaredId(document.json, "id");
    const uri = own !== undefined ? resolveUri(own, document.uri) : undefined;
    if (uri === undefined || uri === document.uri) continue;
    byId.set(uri, [...(byId.get(uri) ?? []), document]);
  }
  for (const [uri, documents] of byId) {
    if (documents.length === 1 && !taken.has(uri)) out.push({ ...documents[0]!, uri });
  }
  return out;
}

/**
 * Compiles one registered version with the catalog's compiler (draft-07 unless the schema or the
 * config says otherwise), on its own with its references. A schema that does not compile is a
 * skipped version, never an error: the registry's content is not the user's config.
 */
export function compileRegistryVersion(
  registry: string,
  version: RegistryVersion,
  compiler: SchemaCompiler,
  { asFile = false }: { readonly asFile?: boolean } = {},
): CompiledVersion | SkippedVersion {
  const path = registryPath(registry, version.subject, version.version);
  try {
    const format = formatOfRegistryType(version.schemaType ?? "JSON");
    if (format !== undefined && format !== JSON_FORMAT)
      return parseRegistryVersion(registry, version, format, path, asFile);
    const dialect = compiler.dialectOf(version.schema, path);
    const uri = versionBaseUri(registry, version, idKeyword(dialect));
    const refs = referenceDocuments(registry, version, uri);
    const json = version.schema as Record<string, unknown> | boolean;
    // Retrieved at its registry URI; the compiler takes its `$id` as the base, as `uri` is.
    const validate = compiler.compileOnFirstUse({
      uri: versionUri(registry, version),
      json,
      name: path,
      dialect,
      refs,
    });
    const file: SchemaFile = {
      path,
      name: String(version.version),
      json,
      dialect,
      declaredId: declaredId(json, idKeyword(dialect)),
      baseId: uri,
    };
    return { file, validate, refs };
  } catch (error) {
    return {
      subject: version.subject,
      version: version.version,
      id: version.id,
      reason: "invalid_schema",
      message: `${path} (id ${version.id}) is left out: ${messageOf(error)}`,
    };
  }
}

/**
 * A registered version of another format than JSON Schema, parsed by its format with the schemas its
 * references reach (each a source of its own, under its reference name), the way its format's
 * serializer resolves them; `asFile`, as `diff` reads it (`Format.parseFile`).
 */
function parseRegistryVersion(
  registry: string,
  version: RegistryVersion,
  format: Format,
  path: string,
  asFile: boolean,
): CompiledVersion {
  const key = (e: ReferenceEntry) => `${e.name}\0${e.subject}\0${e.version}`;
  const resolved = new Map(version.references.map((r) => [key(r), r]));
  const sourceOf = (entry: ReferenceEntry, depth: number): SchemaSource[] => {
    const reference = resolved.get(key(entry));
    if (!reference || depth > 32) return [];
    return [
      {
        name: `${registryPath(registry, reference.subject, reference.version)} (reference '${entry.name}')`,
        text: reference.text ?? JSON.stringify(reference.schema),
        references: reference.references.flatMap((e) => sourceOf(e, depth + 1)),
      },
    ];
  };
  const text = version.text ?? JSON.stringify(version.schema);
  const source = {
    name: path,
    text,
    references: (version.referenceEntries ?? version.references).flatMap((e) => sourceOf(e, 0)),
    ...(version.metadataTags !== undefined ? { tags: version.metadataTags } : {}),
  };
  // Called as methods: a format's parse may read its own object.
  const schema = asFile && format.parseFile ? format.parseFile(source) : format.parse(source);
  const json = version.schema;
  return {
    file: {
      path,
      name: String(version.version),
      json: typeof json === "object" && json !== null ? (json as Record<string, unknown>) : { type: json },
      dialect: DEFAULT_DIALECT,
      declaredId: undefined,
      baseId: versionBaseUri(registry, version, "$id"),
    },
    validate: acceptsAll(),
    refs: [],
    schema,
    text,
  };
}

/**
 * Compiled registered versions, kept for the life of the process: a registered version's content
 * never changes, so each is compiled once however often the catalog is rebuilt.
 */
export class CompiledVersions {
  readonly #entries = new Map<string, CompiledVersion | SkippedVersion>();

  get size(): number {
    return this.#entries.size;
  }

  get(
    registry: string,
    version: RegistryVersion,
    compiler: SchemaCompiler,
  ): CompiledVersion | SkippedVersion {
    // The compiler's settings change what a schema means; the id tells re-registered content apart.
    const key = [
      registry,
      version.subject,
      version.version,
      version.id,
      compiler.defaultDialect,
      compiler.assertFormats,
    ].join("\0");
    let entry = this.#entries.get(key);
    if (!entry) {
      entry = compileRegistryVersion(registry, version, compiler);
      this.#entries.set(key, entry);
    }
    return entry;
  }
}
