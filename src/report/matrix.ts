import type { Direction } from "../engine/direction.js";
import { NO_VERSION, type FailureCell, type Tallies } from "../pipeline/tallies.js";
import type { WouldFailEntry } from "./model.js";

/**
 * The would-fail matrix of one subject: for every writer version (and `none`) and reader version that
 * sampled records met, the share rejected, which keywords failed and at which JSON Pointer, and which
 * producers sent them. Sorted by writer, then reader, in catalog order.
 */
export function wouldFailMatrix(
  tallies: Tallies,
  subject: string,
  versions: readonly string[],
): WouldFailEntry[] {
  return wouldFailMatrices(tallies, new Map([[subject, versions]])).get(subject) ?? [];
}

/**
 * The would-fail matrices of many subjects (their versions in catalog order) in one pass over the
 * counters: a report of hundreds of subjects must not read every counter once per subject.
 */
export function wouldFailMatrices(
  tallies: Tallies,
  subjects: ReadonlyMap<string, readonly string[]>,
): Map<string, WouldFailEntry[]> {
  const entries = new Map<string, Map<string, WouldFailEntry>>();
  const key = (writer: string, reader: string) => `${writer}\u0000${reader}`;
  for (const cell of tallies.validations) {
    const l = cell.labels;
    if (cell.value === 0 || !subjects.has(l.subject)) continue;
    let ofSubject = entries.get(l.subject);
    if (!ofSubject) entries.set(l.subject, (ofSubject = new Map()));
    let entry = ofSubject.get(key(l.writer_version, l.reader_version));
    if (!entry) {
      entry = {
        writer: l.writer_version,
        reader: l.reader_version,
        direction: l.direction as Direction,
        validations: 0,
        failed: 0,
        wouldFailRate: 0,
        failures: [],
        lossy: 0,
        losses: [],
        producers: {},
      };
      ofSubject.set(key(l.writer_version, l.reader_version), entry);
    }
    const failed = l.result === "fail" ? cell.value : 0;
    entry.validations += cell.value;
    entry.failed += failed;
    const producer = (entry.producers[l.producer] ??= { validations: 0, failed: 0 });
    producer.validations += cell.value;
    producer.failed += failed;
  }
  const keywords = byRule(tallies.failures, subjects);
  const rules = byRule(tallies.losses, subjects);
  // A lossy read is a pass (counted in the validations above): its count per entry and producer.
  for (const cell of tallies.losses) {
    const l = cell.labels;
    const entry = entries.get(l.subject)?.get(key(l.writer_version, l.reader_version));
    if (cell.value === 0 || !entry) continue;
    entry.lossy += cell.value;
    const producer = entry.producers[l.producer];
    if (producer) producer.lossy = (producer.lossy ?? 0) + cell.value;
  }
  const out = new Map<string, WouldFailEntry[]>();
  for (const [subject, versions] of subjects) {
    const order = (version: string) => (version === NO_VERSION ? versions.length : versions.indexOf(version));
    out.set(
      subject,
      [...(entries.get(subject)?.values() ?? [])]
        .map((entry) => ({
          ...entry,
          wouldFailRate: entry.failed / entry.validations,
          producers: Object.fromEntries(
            Object.entries(entry.producers).sort(([a], [b]) => a.localeCompare(b)),
          ),
          failures: ranked(keywords.get(`${subject}\u0000${key(entry.writer, entry.reader)}`)).map(
            ({ name, count, pointer }) => ({ keyword: name, count, pointer }),
          ),
          losses: ranked(rules.get(`${subject}\u0000${key(entry.writer, entry.reader)}`)).map(
            ({ name, count, pointer }) => ({ rule: name, count, pointer }),
          ),
        }))
        .sort((a, b) => order(a.writer) - order(b.writer) || order(a.reader) - order(b.reader)),
    );
  }
  return out;
}

type ByRule = Map<string, Map<string, { count: number; pointer: string; most: number }>>;

/**
 * Per (subject, writer, reader) and keyword (a failure's) or rule (a lossy read's): the total, and
 * the pointer of the series that counted it most often.
 */
function byRule(cells: readonly FailureCell[], subjects: ReadonlyMap<string, readonly string[]>): ByRule {
  const out: ByRule = new Map();
  for (const cell of cells) {
    const l = cell.labels;
    if (cell.value === 0 || !subjects.has(l.subject)) continue;
    const k = `${l.subject}\u0000${l.writer_version}\u0000${l.reader_version}`;
    let byKeyword = out.get(k);
    if (!byKeyword) out.set(k, (byKeyword = new Map()));
    const found = byKeyword.get(l.keyword);
    if (!found) byKeyword.set(l.keyword, { count: cell.value, pointer: cell.pointer, most: cell.value });
    else {
      found.count += cell.value;
      if (cell.value > found.most) Object.assign(found, { pointer: cell.pointer, most: cell.value });
    }
  }
  return out;
}

/** Most frequent first, then by name. */
function ranked(found: ByRule extends Map<string, infer V> ? V | undefined : never) {
  return [...(found?.entries() ?? [])]
    .map(([name, { count, pointer }]) => ({ name, count, pointer }))
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
}
