import type { AttentionItem } from "./attention.js";
import type { ReportSubject } from "./model.js";

const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;
const at = (pointer: string) => (pointer === "" ? "the root" : pointer);

/**
 * Lossy reads (issue 36) as attention items: per producer, the share of its sampled records that
 * consumers of another version read without data it sent (an old consumer silently drops a field, a
 * new one reads a default the producer never wrote). Level `info`, below every failure: a field added
 * with a default is lossy in both directions while a migration runs, as intended, so this must not
 * make the summary say that something needs an operator; it says what is lost, for whom, and where.
 * Only readers consumers may use (active, deprecated); a record's own version never loses anything.
 */
export function lossyItems(s: ReportSubject): AttentionItem[] {
  const inUse = new Set(
    s.versions.filter((v) => v.status === "active" || v.status === "deprecated").map((v) => v.version),
  );
  const items: Array<AttentionItem & { share: number }> = [];
  for (const e of s.wouldFail) {
    if (e.lossy === 0 || (e.direction !== "forward" && e.direction !== "backward")) continue;
    if (!inUse.has(e.reader)) continue;
    const first = e.losses[0]!;
    const whose = e.direction === "forward" ? `still on ${e.reader}` : `upgraded to ${e.reader}`;
    for (const [producer, p] of Object.entries(e.producers)) {
      if (!p.lossy) continue;
      const share = p.lossy / p.validations;
      items.push({
        level: "info",
        kind: "lossy-read",
        cause: first.rule,
        subject: s.subject,
        producer,
        share,
        what: `producer ${producer}: consumers ${whose} read ${pct(share)} of its sampled ${e.writer} records (${p.lossy} of ${p.validations}) with data dropped or defaulted (${first.rule} at ${at(first.pointer)})`,
        action:
          e.direction === "forward"
            ? `Nothing breaks: check that the consumers still on ${e.reader} do not need what they drop, or upgrade them.`
            : `Nothing breaks: check that the defaults consumers on ${e.reader} read stand for what ${producer} means, or move ${producer} to ${e.reader}.`,
      });
    }
  }
  return items.sort((a, b) => b.share - a.share).map(({ share: _share, ...item }) => item);
}
