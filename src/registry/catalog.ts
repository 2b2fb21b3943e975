import type { SchemaCompiler } from "../catalog/compiler.js";
import { compilerFor, loadCatalog, normalizeGuid } from "../catalog/load.js";
import type { Catalog, CatalogVersion } from "../catalog/types.js";
import { normalizeVersion } from "../catalog/version.js";
import type { Config, SubjectConfig, SubjectRegistryConfig } from "../config/types.js";
import { CompiledVersions } from "./compile.js";
import type { SkippedVersion, SubjectSnapshot } from "./types.js";
import { labelVersions, statusOf } from "./versions.js";

/** Something a catalog build noticed about a subject: for log lines, never a reason to refuse it. */
export interface CatalogNote {
  readonly subject: string;
  readonly message: string;
}

export interface BuiltCatalog {
  readonly catalog: Catalog;
  readonly notes: readonly CatalogNote[];
}

/** The notes of a build by config subject. */
export function notesBySubject(notes: readonly CatalogNote[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const note of notes) out.set(note.subject, [...(out.get(note.subject) ?? []), note.message]);
  return out;
}

export interface BuildOptions {
  readonly compiler?: SchemaCompiler;
  /** Registered versions compiled by earlier builds; pass the same one to every build. */
  readonly compiled?: CompiledVersions;
}

export function snapshotKey(registry: string, subject: string): string {
  return `${registry}\0${subject}`;
}

/**
 * The one catalog builder of the monitor's thread, its validation workers and the commands: every
 * subject's schema files, and for a subject with a registry the versions of its snapshot. A local
 * file is one more version (a candidate not registered yet); a registered version that takes a local
 * file's label wins, with a note. A subject whose registry was never read has only its files.
 */
export async function buildCatalog(
  config: Config,
  snapshots: readonly SubjectSnapshot[],
  options: BuildOptions = {},
): Promise<BuiltCatalog> {
  const compiler = options.compiler ?? compilerFor(config);
  const compiled = options.compiled ?? new CompiledVersions();
  const bySubject = new Map(snapshots.map((s) => [snapshotKey(s.registry, s.subject), s]));
  const notes: CatalogNote[] = [];
  const catalog = await loadCatalog(config, compiler, (subject, local) => {
    const registry = subject.registry;
    const snapshot = registry ? bySubject.get(snapshotKey(registry.name, registry.subject)) : undefined;
    if (!registry || !snapshot) return [...local];
    const { versions, skipped } = registeredVersions(subject, registry, snapshot, compiler, compiled);
    notes.push(...skipped.map((s) => ({ subject: subject.name, message: s.message })));
    const wireId = subject.writer.wire.id;
    if (wireId !== "schemaId" && versions.length > 0 && versions.every((v) => v[wireId] === undefined))
      notes.push({
        subject: subject.name,
        message: `${subject.name}: writer.wire.id is ${wireId}, but registry ${registry.name} gave no version of ${registry.subject} one (it serves no Apicurio 3 native API): its prefixed records are unknown_schema_id`,
      });
    const taken = new Map(versions.map((v) => [normalizeVersion(v.version.text), v]));
    const kept = local.filter((file) => {
      const registered = taken.get(normalizeVersion(file.version.text));
      if (!registered) return true;
      notes.push({
        subject: subject.name,
        message: `${subject.name} ${file.version.text}: registered version ${registered.registry!.version} of ${registry.subject} takes this label; the local file ${file.file.path} is not used`,
      });
      return false;
    });
    return [...kept, ...versions];
  });
  return { catalog, notes };
}

/**
 * The catalog versions of one registry subject: labelled by the subject's rule, status from the
 * config or the registry, each compiled once. Versions that cannot be labelled or compiled are
 * skipped with a message.
 */
export function registeredVersions(
  subject: SubjectConfig,
  registry: SubjectRegistryConfig,
  snapshot: SubjectSnapshot,
  compiler: SchemaCompiler,
  compiled: CompiledVersions,
): { versions: CatalogVersion[]; skipped: SkippedVersion[] } {
  const { labelled, unlabelled } = labelVersions(snapshot.versions, registry);
  const skipped = [...unlabelled];
  const versions: CatalogVersion[] = [];
  for (const { version, label, semver } of labelled) {
    const built = compiled.get(registry.name, version, compiler);
    if ("reason" in built) {
      skipped.push(built);
      continue;
    }
    const deprecatedSince = registry.versions[String(version.version)]?.deprecatedSince;
    versions.push({
      subject: subject.name,
      // Shown as the label (`3`), ordered as its semver (3.0.0).
      version: { ...semver, text: label },
      status: statusOf(version, registry),
      file: built.file,
      validate: built.validate,
      ...(deprecatedSince !== undefined ? { deprecatedSince } : {}),
      confluentId: version.id,
      ...(version.guid !== undefined ? { confluentGuid: normalizeGuid(version.guid) } : {}),
      ...(version.globalId !== undefined ? { globalId: version.globalId } : {}),
      ...(version.contentId !== undefined ? { contentId: version.contentId } : {}),
      registry: { name: registry.name, subject: version.subject, version: version.version },
      refs: built.refs,
      ...(built.schema ? { schema: built.schema } : {}),
    });
  }
  return { versions, skipped };
}

/**
 * The snapshot the catalog uses: the registry's latest, plus every version an earlier one had that is
 * gone now (hard-deleted), kept as soft-deleted (retired) until restart. Its id still names it, so
 * records still written with it count as that version rather than as an unknown id.
 */
export function retainRemoved(previous: SubjectSnapshot | undefined, next: SubjectSnapshot): SubjectSnapshot {
  if (!previous) return next;
  const present = new Set(next.versions.map((v) => v.version));
  const skipped = new Set(next.skipped.map((s) => s.version));
  const gone = previous.versions
    .filter((v) => !present.has(v.version) && !skipped.has(v.version))
    .map((v) => ({ ...v, deleted: true }));
  if (gone.length === 0) return next;
  return { ...next, versions: [...next.versions, ...gone].sort((a, b) => a.version - b.version) };
}
