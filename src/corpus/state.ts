import { tryParseVersion } from "../catalog/version.js";
import { SchemawatchError } from "../errors.js";
import { SHAPE_KEY_LENGTH } from "../pipeline/shape.js";

/** One kept example in the JSON form of a corpus. */
export interface ExampleJson {
  readonly writer: string;
  readonly producer: string;
  readonly shape: string;
  readonly conforms: boolean | null;
  readonly seen: number;
  readonly firstSeen: number;
  readonly lastSeen: number;
  readonly redacted: readonly string[];
  readonly document: unknown;
}

export interface SubjectJson {
  readonly subject: string;
  readonly droppedRecords: number;
  /** The distinct dropped shapes as `[writer, producer, shape]`. */
  readonly dropped: readonly (readonly [string, string, string])[];
  readonly examples: readonly ExampleJson[];
}

/** The JSON form of a corpus: what the state file holds and `GET /api/corpus` serves. */
export interface CorpusJson {
  readonly format: 1;
  readonly maxShapes: number;
  readonly subjects: readonly SubjectJson[];
}

/** Subject names as the config allows them; they become folder names, so nothing else gets through. */
const SUBJECT = /^[A-Za-z0-9._-]+$/;
const SHAPE = new RegExp(`^[0-9a-f]{${SHAPE_KEY_LENGTH}}$`);

/** True when `name` can be a folder name under the export directory. */
export function isSafeSubject(name: string): boolean {
  return SUBJECT.test(name) && name !== "." && name !== "..";
}

/** `none`, or a normalized semver text (it becomes a folder name too). */
export function isWriter(text: string): boolean {
  return text === "none" || tryParseVersion(text)?.text === text;
}

function fail(where: string, problem: string): never {
  // Never quote values: an example's content must not reach an error message or a log line.
  throw new SchemawatchError("STATE_INVALID", `not a schemawatch corpus: ${where} ${problem}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function count(value: unknown, where: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    fail(where, "must be a whole number");
  }
  return value;
}

function text(value: unknown, where: string): string {
  if (typeof value !== "string") fail(where, "must be a string");
  return value;
}

function example(raw: unknown, where: string): ExampleJson {
  if (!isRecord(raw)) fail(where, "must be an object");
  const writer = text(raw["writer"], `${where}.writer`);
  if (!isWriter(writer)) fail(`${where}.writer`, "must be a version such as 1.1.0, or none");
  const shape = text(raw["shape"], `${where}.shape`);
  if (!SHAPE.test(shape)) fail(`${where}.shape`, `must be ${SHAPE_KEY_LENGTH} hex digits`);
  const conforms = raw["conforms"];
  if (conforms !== null && typeof conforms !== "boolean")
    fail(`${where}.conforms`, "must be true, false or null");
  const redacted = raw["redacted"];
  if (!Array.isArray(redacted) || !redacted.every((p) => typeof p === "string")) {
    fail(`${where}.redacted`, "must be a list of pointers");
  }
  if (!("document" in raw)) fail(where, "has no document");
  return {
    writer,
    producer: text(raw["producer"], `${where}.producer`),
    shape,
    conforms,
    seen: count(raw["seen"], `${where}.seen`),
    firstSeen: count(raw["firstSeen"], `${where}.firstSeen`),
    lastSeen: count(raw["lastSeen"], `${where}.lastSeen`),
    redacted: redacted as string[],
    document: raw["document"],
  };
}

function subject(raw: unknown, where: string): SubjectJson {
  if (!isRecord(raw)) fail(where, "must be an object");
  const name = text(raw["subject"], `${where}.subject`);
  if (!isSafeSubject(name)) fail(`${where}.subject`, "must be letters, digits, '.', '_' or '-'");
  const dropped = raw["dropped"] ?? [];
  if (
    !Array.isArray(dropped) ||
    !dropped.every((d) => Array.isArray(d) && d.length === 3 && d.every((t) => typeof t === "string"))
  ) {
    fail(`${where}.dropped`, "must be a list of [writer, producer, shape]");
  }
  const examples = raw["examples"];
  if (!Array.isArray(examples)) fail(`${where}.examples`, "must be a list");
  return {
    subject: name,
    droppedRecords: count(raw["droppedRecords"] ?? 0, `${where}.droppedRecords`),
    dropped: dropped as [string, string, string][],
    examples: examples.map((e, i) => example(e, `${where}.examples[${i}]`)),
  };
}

/** Checks the JSON form of a corpus; throws STATE_INVALID naming the first problem. */
export function parseCorpusJson(json: unknown): CorpusJson {
  if (!isRecord(json)) fail("the document", "must be an object");
  if (json["format"] !== 1) fail("format", "must be 1");
  const maxShapes = count(json["maxShapes"], "maxShapes");
  if (maxShapes < 1) fail("maxShapes", "must be at least 1");
  const subjects = json["subjects"];
  if (!Array.isArray(subjects)) fail("subjects", "must be a list");
  const parsed = subjects.map((s, i) => subject(s, `subjects[${i}]`));
  const names = new Set<string>();
  for (const s of parsed) {
    if (names.has(s.subject)) fail("subjects", `lists ${s.subject} twice`);
    names.add(s.subject);
  }
  return { format: 1, maxShapes, subjects: parsed };
}
