import { changeWords, clock, quote } from "../stats/findings.js";
import type { AttentionItem } from "./attention.js";
import type { ReportFinding, ReportSubject } from "./model.js";

/** A bucket's start as a reader of the summary wants it: the time of day, the date only when not today. */
function since(iso: string, today: string): string {
  const full = clock(Date.parse(iso));
  return full.startsWith(today) ? full.slice(today.length + 1, -4) : full;
}

/** A top-level field by its name, as people say it (`amount`); a nested one by its pointer. */
const named = (pointer: string) =>
  /^\/[^/]+$/.test(pointer) ? pointer.slice(1).replace(/~1/g, "/").replace(/~0/g, "~") : pointer;

/** The one action of a finding: what to check, where. */
function action(f: ReportFinding): string {
  switch (f.kind) {
    case "scale":
    case "peers": {
      const { check } = changeWords(f.factor, f.measure);
      const what =
        check === "check its unit" ? `the unit of ${named(f.field)}` : `what ${named(f.field)} carries`;
      return `Check ${what} in ${f.producer}'s records: a schema cannot see this, consumers that compute with it can.`;
    }
    case "new-value":
      return `Check that the consumers of ${f.subject} handle ${quote(f.value)} in ${named(f.field)}.`;
    case "share":
      return `Check why ${f.producer} sends ${quote(f.value)} in ${named(f.field)} so much more often.`;
  }
}

/** What a finding says, short: the producer's field, how it changed, since when. */
function what(f: ReportFinding, today: string): string {
  const at = since(f.since, today);
  switch (f.kind) {
    case "scale": {
      const { times } = changeWords(f.factor, f.measure);
      return `${f.producer}'s ${named(f.field)} is ${times} since ${at} while its schema did not change`;
    }
    case "peers": {
      const { times } = changeWords(f.factor, f.measure);
      return `${f.producer}'s ${named(f.field)} is ${times} than the other producers' of version ${f.writer} since ${at}, with the same schema`;
    }
    case "new-value":
      return `${f.producer}'s ${named(f.field)} sent a value never seen before, ${quote(f.value)}, since ${at}`;
    case "share":
      return `${f.producer}'s ${named(f.field)} is ${quote(f.value)} far more often since ${at}`;
  }
}

const KIND: Readonly<Record<ReportFinding["kind"], string>> = {
  scale: "field-scale-changed",
  peers: "field-differs-from-peers",
  "new-value": "field-new-value",
  share: "field-share-jumped",
};

/**
 * One `watch` item per finding of the field statistics, with its one action: the meaning of a field
 * may have changed while its schema did not. A `watch`, not an `act`: a finding is a question for the
 * producer's team (a unit, a new value), not something broken the monitor can see.
 */
export function findingItems(s: ReportSubject, generatedAt: string): AttentionItem[] {
  const today = generatedAt.slice(0, 10);
  return (s.findings ?? []).map((f) => ({
    level: "watch",
    kind: KIND[f.kind],
    subject: s.subject,
    what: what(f, today),
    action: action(f),
  }));
}
