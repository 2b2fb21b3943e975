import { access, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join, posix } from "node:path";
import { SchemawatchError, messageOf } from "../errors.js";
import type { CorpusEntry, CorpusSubjectStats } from "./corpus.js";
import { shapeOf } from "../pipeline/shape.js";
import { isSafeSubject, isWriter } from "./state.js";

export interface ExportOptions {
  /** Export only this subject. */
  readonly subject?: string | undefined;
}

export interface ExportSummary {
  readonly shapes: number;
  readonly subjects: number;
  /** The example files written, relative to the export folder, with `/` separators. */
  readonly files: readonly string[];
}

/** The metadata file, one level above the document folders so `check --old-docs` never reads it. */
export const INDEX_FILE = "index.ndjson";

/** The subfolder, inside a writer version's folder, of examples that failed that version. */
export const NONCONFORMING = "nonconforming";

/** A producer name as a part of a file name: anything but letters, digits, `.`, `_`, `-` becomes `_`. */
export function fileSafe(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, "_") || "_";
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isoOrNull(ms: number): string | null {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

type IndexLine = Record<string, unknown> & { kind: string; subject: string; file?: string };

async function readIndex(path: string): Promise<IndexLine[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    return [];
  }
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line, i) => {
      try {
        const parsed = JSON.parse(line) as IndexLine;
        if (typeof parsed.kind === "string" && typeof parsed.subject === "string") return parsed;
      } catch {
        // reported below
      }
      throw new SchemawatchError(
        "NOT_JSON",
        `${path}:${i + 1}: not an index line of an earlier export; move the file away or fix it`,
      );
    });
}

async function write(path: string, content?: string): Promise<void> {
  try {
    if (content === undefined) await mkdir(path, { recursive: true });
    else await writeFile(path, content);
  } catch (error) {
    throw new SchemawatchError("FILE_UNREADABLE", `${path}: cannot write: ${messageOf(error)}`, {
      cause: error,
    });
  }
}

/**
 * Writes examples into `dir` (layout in docs/corpus.md): `SUBJECT/WRITER/WRITER-PRODUCER-SHAPE.json`
 * holding exactly the redacted document, examples that failed their writer version under
 * `SUBJECT/WRITER/nonconforming/`, and `index.ndjson` at the top. Files of earlier exports are kept,
 * so a corpus kept in a repository only grows; the index is merged to describe all of them.
 */
export async function exportCorpus(
  entries: readonly CorpusEntry[],
  stats: readonly CorpusSubjectStats[],
  dir: string,
  options: ExportOptions = {},
): Promise<ExportSummary> {
  const wanted = options.subject;
  if (wanted !== undefined && !stats.some((s) => s.subject === wanted)) {
    const known = stats.map((s) => s.subject).join(", ") || "none";
    throw new SchemawatchError(
      "SUBJECT_UNKNOWN",
      `the corpus has no examples of subject '${wanted}' (it has: ${known})`,
    );
  }
  const chosen = entries.filter((e) => wanted === undefined || e.subject === wanted);
  const subjects = stats.filter((s) => wanted === undefined || s.subject === wanted);
  const used = new Set<string>();
  const lines: IndexLine[] = [];
  for (const entry of chosen) {
    if (!isSafeSubject(entry.subject) || !isWriter(entry.writer)) {
      throw new SchemawatchError(
        "STATE_INVALID",
        `an example of subject '${fileSafe(entry.subject)}' has a subject or writer version ` +
          "that cannot be a folder name",
      );
    }
    const folder = posix.join(entry.subject, entry.writer, entry.conforms === false ? NONCONFORMING : "");
    const stem = `${entry.writer}-${fileSafe(entry.producer)}-${entry.shape}`;
    let file = posix.join(folder, `${stem}.json`);
    for (let n = 2; used.has(file); n++) file = posix.join(folder, `${stem}-${n}.json`);
    used.add(file);
    await write(join(dir, folder));
    // Exactly the document: `check` validates the whole file.
    await write(join(dir, file), JSON.stringify(entry.document, null, 2) + "\n");
    lines.push({
      kind: "example",
      subject: entry.subject,
      file,
      writer: entry.writer,
      producer: entry.producer,
      shape: entry.shape,
      conforms: entry.conforms,
      seen: entry.seen,
      firstSeen: isoOrNull(entry.firstSeen),
      lastSeen: isoOrNull(entry.lastSeen),
      redacted: entry.redacted,
      paths: shapeOf(entry.document).paths,
    });
  }
  await write(dir);
  const exported = new Set(subjects.map((s) => s.subject));
  const index = join(dir, INDEX_FILE);
  const earlier: IndexLine[] = [];
  for (const line of await readIndex(index)) {
    if (line.kind === "subject" && !exported.has(line.subject)) earlier.push(line);
    if (line.kind === "example" && typeof line.file === "string" && !used.has(line.file)) {
      if (await exists(join(dir, line.file))) earlier.push(line);
    }
  }
  const subjectLines: IndexLine[] = subjects.map((s) => ({ kind: "subject", ...s }));
  const all = [...subjectLines, ...earlier, ...lines].sort(
    (a, b) =>
      (a.kind === b.kind ? 0 : a.kind === "subject" ? -1 : 1) ||
      compare(a.subject, b.subject) ||
      compare(String(a.file ?? ""), String(b.file ?? "")),
  );
  // Replaced in one step, so a reader never sees half an index.
  await write(`${index}.tmp`, all.map((line) => JSON.stringify(line)).join("\n") + (all.length ? "\n" : ""));
  await rename(`${index}.tmp`, index);
  const written = new Set(lines.map((l) => l.subject));
  return { shapes: lines.length, subjects: written.size, files: lines.map((l) => l.file!) };
}
