import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

import type { SubjectConfig, SubjectRegistryConfig, VersionConfig } from "../config/types.js";
import { SchemawatchError, messageOf } from "../errors.js";
import type { SubjectSnapshot } from "./types.js";
import { labelVersions, statusOf } from "./versions.js";

/** What exporting one subject wrote, and what a reader of the snippet should know. */
export interface SubjectExport {
  readonly subject: string;
  /** Paths relative to the export folder. */
  readonly files: readonly string[];
  /** The subject's entry for the config, folder catalog style. */
  readonly entry: Record<string, unknown>;
  /** The folder of referenced schemas, relative to the export folder, when there are any. */
  readonly shared: string | undefined;
  /** Versions left out, and references the folder catalog may not resolve as the registry did. */
  readonly notes: readonly string[];
}

function safe(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, "_");
}

function schemaId(schema: unknown): string | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  const id = (schema as Record<string, unknown>)["$id"] ?? (schema as Record<string, unknown>)["id"];
  return typeof id === "string" ? id : undefined;
}

async function write(out: string, path: string, json: unknown): Promise<void> {
  const full = join(out, path);
  try {
    await mkdir(join(full, ".."), { recursive: true });
    await writeFile(full, `${JSON.stringify(json, null, 2)}\n`);
  } catch (error) {
    throw new SchemawatchError("FILE_UNREADABLE", `${full}: cannot write: ${messageOf(error)}`, {
      cause: error,
    });
  }
}

/**
 * Writes a registry subject's versions as schema files for a folder catalog: `SUBJECT/LABEL.json` for
 * each version (labelled by the subject's rule), `SUBJECT/references/REFSUBJECT-VERSION.json` for every
 * schema they reference, and returns the config entry that names each file, its status and its
 * registry id. The schemas are written as registered, unchanged.
 */
export async function exportSubject(
  subject: SubjectConfig & { registry: SubjectRegistryConfig },
  snapshot: SubjectSnapshot,
  out: string,
): Promise<SubjectExport> {
  const folder = safe(subject.name);
  const { labelled, unlabelled } = labelVersions(snapshot.versions, subject.registry);
  const notes = [...snapshot.skipped, ...unlabelled].map((s) => s.message);
  const files: string[] = [];
  const versions: Record<string, VersionConfig> = {};
  const ids = new Set<number>();
  const references = new Map<string, { subject: string; version: number; schema: unknown }>();
  for (const { version, label } of labelled) {
    const file = `${label}.json`;
    await write(out, join(folder, file), version.schema);
    files.push(join(folder, file));
    const deprecatedSince = subject.registry.versions[String(version.version)]?.deprecatedSince;
    // The folder catalog refuses one id on two versions; the registry gives identical content one id.
    const id = ids.has(version.id) ? undefined : version.id;
    ids.add(version.id);
    versions[label] = {
      status: statusOf(version, subject.registry),
      file,
      ...(deprecatedSince !== undefined ? { deprecatedSince } : {}),
      ...(id !== undefined ? { confluentId: id } : {}),
      ...(version.guid !== undefined ? { confluentGuid: version.guid } : {}),
    };
    if (id === undefined)
      notes.push(
        `${subject.name} ${label}: id ${version.id} is also an earlier version's; left out of confluentId`,
      );
    for (const reference of version.references) {
      references.set(`${reference.subject}\0${reference.version}`, reference);
      const id = schemaId(reference.schema);
      if (id !== reference.name) {
        notes.push(
          `${subject.name} ${label}: $ref '${reference.name}' (${reference.subject}/${reference.version}) resolves by that name in the registry; the folder catalog resolves $ref by $id, which is ${id === undefined ? "missing" : `'${id}'`}`,
        );
      }
    }
  }
  for (const reference of references.values()) {
    const path = join(folder, "references", `${safe(reference.subject)}-${reference.version}.json`);
    await write(out, path, reference.schema);
    files.push(path);
  }
  return {
    subject: subject.name,
    files,
    entry: { name: subject.name, topics: [...subject.topics], schemas: folder, versions },
    shared: references.size > 0 ? join(folder, "references") : undefined,
    notes: [...new Set(notes)],
  };
}
