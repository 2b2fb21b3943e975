import type { Direction } from "../engine/direction.js";
import { NO_VERSION, type Tallies } from "../monitor/tallies.js";
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
  const entries = new Map<string, WouldFailEntry>();
  const key = (writer: string, reader: string) => `${writer}\u0000${reader}`;
  for (const cell of tallies.validations) {
    const l = cell.labels;
    if (l.subject !== subject || cell.value === 0) continue;
    let entry = entries.get(key(l.writer_version, l.reader_version));
    if (!entry) {
      entry = {
        writer: l.writer_version,
        reader: l.reader_version,
        direction: l.direction as Direction,
        validations: 0,
        failed: 0,
        wouldFailRate: 0,
        failures: [],
        producers: {},
      };
      entries.set(key(l.writer_version, l.reader_version), entry);
    }
    const failed = l.result === "fail" ? cell.value : 0;
    entry.validations += cell.value;
    entry.failed += failed;
    const producer = (entry.producers[l.producer] ??= { validations: 0, failed: 0 });
    producer.validations += cell.value;
    producer.failed += failed;
  }
  // Per keyword: the total, and the pointer of the series that failed it most often.
  const keywords = new Map<string, Map<string, { count: number; pointer: string; most: number }>>();
  for (const cell of tallies.failures) {
    const l = cell.labels;
    if (l.subject !== subject || cell.value === 0) continue;
    const k = key(l.writer_version, l.reader_version);
    let byKeyword = keywords.get(k);
    if (!byKeyword) keywords.set(k, (byKeyword = new Map()));
    const found = byKeyword.get(l.keyword);
    if (!found) byKeyword.set(l.keyword, { count: cell.value, pointer: cell.pointer, most: cell.value });
    else {
      found.count += cell.value;
      if (cell.value > found.most) Object.assign(found, { pointer: cell.pointer, most: cell.value });
    }
  }
  const order = (version: string) => (version === NO_VERSION ? versions.length : versions.indexOf(version));
  return [...entries.values()]
    .map((entry) => ({
      ...entry,
      wouldFailRate: entry.failed / entry.validations,
      producers: Object.fromEntries(Object.entries(entry.producers).sort(([a], [b]) => a.localeCompare(b))),
      failures: [...(keywords.get(key(entry.writer, entry.reader))?.entries() ?? [])]
        .map(([keyword, { count, pointer }]) => ({ keyword, count, pointer }))
        .sort((a, b) => b.count - a.count || a.keyword.localeCompare(b.keyword)),
    }))
    .sort((a, b) => order(a.writer) - order(b.writer) || order(a.reader) - order(b.reader));
}
