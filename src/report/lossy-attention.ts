import { lossKind } from "../formats/losses.js";
import type { AttentionItem } from "./attention.js";
import type { ReportSubject } from "./model.js";

const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;
const at = (pointer: string) => (pointer === "" ? "the root" : pointer);

/**
 * What to check, by what the reader loses (formats/losses.ts), and the step that ends it: consumers
 * still on an older reader upgrade; a producer behind consumers that upgraded moves to their version.
 */
function lossAction(rule: string, forward: boolean, reader: string, producer: string): string {
  const consumers = forward ? `the consumers still on ${reader}` : `the consumers upgraded to ${reader}`;
  const step = forward ? "or upgrade them" : `or move ${producer} to ${reader}`;
  // A rule of no known kind (none today) is told as a drop: the wording that asks the most.
  switch (lossKind(rule) ?? "dropped") {
    case "defaulted":
      return `Nothing breaks: check that the defaults consumers ${forward ? "still on" : "on"} ${reader} read stand for what ${producer} means, ${step}.`;
    case "unnamed":
      return `Nothing breaks: check that ${consumers} handle the values they have no name for, ${step}.`;
    case "dropped":
      return `Nothing breaks: check that ${consumers} do not need what they drop, ${step}.`;
  }
}

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
        action: lossAction(first.rule, e.direction === "forward", e.reader, producer),
      });
    }
  }
  return items.sort((a, b) => b.share - a.share).map(({ share: _share, ...item }) => item);
}
