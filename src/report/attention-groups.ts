import type { AttentionItem, AttentionLevel } from "./attention.js";

/**
 * One line of the attention summary: items of one level, kind and cause (`AttentionItem.cause`) that
 * one step resolves, or a single item as it is. At a real catalog's size the same problem shows in
 * many subjects and producers ("prod104: 100% of its 5.0.0 records would break consumers still on
 * 4.0.0", once per producer); the summary says it once, with its members a click away.
 */
export interface AttentionGroup {
  readonly level: AttentionLevel;
  readonly kind: string;
  /** The members' cause, absent as it is on them. */
  readonly cause?: string;
  /** What is happening: a single item's own words; for several, what they share and how many. */
  readonly what: string;
  /** The one next action: the members' own when they all say the same, else the step they share. */
  readonly action: string;
  /** The subjects its members are about, in their order; empty for the monitor's own items. */
  readonly subjects: readonly string[];
  /** The items it gathers, most urgent first; one for an item that shares its line with none. */
  readonly members: readonly AttentionItem[];
}

/**
 * Up to this many items of one subject (or of the monitor) that would share a line keep a line each:
 * a subject's page and a small catalog read as they did, each producer with its own share, and only
 * what repeats across subjects, or many times in one, is folded.
 */
export const LOOSE_IN_ONE_SUBJECT = 5;

interface Facts {
  readonly members: readonly AttentionItem[];
  readonly subjects: readonly string[];
  /** Distinct producer names among the members. */
  readonly producers: number;
  readonly cause: string | undefined;
}

const plural = (n: number, word: string, words = `${word}s`) => `${n} ${n === 1 ? word : words}`;
const NUMBERS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
const inSubjects = (f: Facts) =>
  f.subjects.length === 1 ? `in ${f.subjects[0]}` : `in ${plural(f.subjects.length, "subject")}`;
/** "2 producers in 50 subjects send", "1 producer in 3 subjects sends". */
const producersSend = (f: Facts, verb = "send") =>
  `${plural(f.producers, "producer")} ${inSubjects(f)} ${f.producers === 1 ? `${verb}s` : verb}`;
const count = (f: Facts, noun: string) => `${f.members.length} ${noun} ${inSubjects(f)}`;

/** `behind-2` as "two versions behind"; without a cause, the direction alone. */
function apart(f: Facts, side: "behind" | "ahead"): string {
  const n = Number(/^(?:behind|ahead)-(\d+)$/.exec(f.cause ?? "")?.[1]);
  if (!Number.isInteger(n) || n < 1) return side === "behind" ? "on an older version" : "on a newer version";
  return `${NUMBERS[n] ?? n} ${n === 1 ? "version" : "versions"} ${side}`;
}

const CHECK =
  "a schema cannot see this, consumers that compute with it can (the subject's field statistics show the values).";

/**
 * The words of a folded line, per kind: what the members share and the step that resolves them all,
 * the specifics left to the members. A kind without words here is never folded.
 */
const WORDS: Readonly<Record<string, (f: Facts) => { what: string; action: string }>> = {
  "retired-traffic": (f) => ({
    what: `${producersSend(f)} versions that were retired`,
    action:
      "Stop each producer listed sending its retired version: consumers may no longer read it. If some still need one, make it deprecated again (the registry's state, or the catalog) until its producers have moved; see the runbook (SchemawatchRetiredVersionTraffic).",
  }),
  "forward-incompatible": (f) => ({
    what: `${producersSend(f)} records that consumers ${apart(f, "behind")} reject`,
    action: `Upgrade the consumers ${apart(f, "behind")} before they read the listed producers' records, or keep each of those producers on a version its consumers accept until they are.`,
  }),
  "backward-incompatible": (f) => ({
    what: `${producersSend(f)} records that consumers upgraded ${apart(f, "ahead")} reject`,
    action:
      "Move each producer listed to the version its consumers upgrade to (or one that version accepts) before they upgrade.",
  }),
  "non-conformant": (f) => ({
    what: `${producersSend(f)} records that fail the version they declare`,
    action:
      "Fix each producer listed: its records do not match the version they declare (each subject's would-fail matrix names the keyword and the path).",
  }),
  unreadable: (f) => ({
    what: `${plural(f.subjects.length, "subject")} have records whose version could not be read`,
    action: f.members[0]!.action,
  }),
  drained: (f) => ({
    what: `${count(f, "deprecated versions")} are drained: nothing declared or needed them for the whole drain window, with every partition observed`,
    action: "Remove each version listed: retire it in the registry or the catalog.",
  }),
  ready: (f) => ({
    what: `${count(f, "candidates")} are ready: every sampled record passed them for the whole window`,
    action: "Release each candidate listed: make it active.",
  }),
  "not-ready": (f) => ({
    what: `${count(f, "candidates")} are not ready`,
    action: "Keep each a candidate until the producers its line names send what it requires.",
  }),
  "coverage-building": (f) => ({
    what: `the windows of ${plural(f.subjects.length, "subject")} are still being observed`,
    action: f.members[0]!.action,
  }),
  "registry-down": (f) => ({
    what: `${plural(f.members.length, "registry", "registries")} do not answer`,
    action: f.members[0]!.action,
  }),
  problem: (f) => ({
    what: `the monitor has ${plural(f.members.length, "problem")}`,
    action: f.members[0]!.action,
  }),
  "field-drained": (f) => ({
    what: `${count(f, "deprecated fields")} are drained: no record carried them for the whole drain window, with every partition observed`,
    action: "Remove each field listed in the next major version of its subject.",
  }),
  "field-in-use": (f) => ({
    what: `${count(f, "deprecated fields")} are still sent`,
    action:
      "Stop sending each field listed from the producers its line names before removing it in the next major version of its subject.",
  }),
  "field-ready": (f) => ({
    what: `every producer sends ${count(f, "optional fields")} in every record`,
    action: "Each field listed can be added to required in the next major version of its subject.",
  }),
  "field-scale-changed": (f) => ({
    what: `${count(f, "producers' fields")} changed scale while their schemas did not`,
    action: `Check the unit of each field listed, or what it carries, in its producer's records: ${CHECK}`,
  }),
  "field-differs-from-peers": (f) => ({
    what: `${count(f, "producers' fields")} differ from the other producers' of the same version`,
    action: `Check the unit of each field listed, or what it carries, in its producer's records: ${CHECK}`,
  }),
  "field-new-value": (f) => ({
    what: `${count(f, "producers' fields")} sent values never seen before`,
    action: "Check that the consumers of each subject listed handle the new values.",
  }),
  "field-share-jumped": (f) => ({
    what: `${count(f, "producers' fields")} carry one value far more often than before`,
    action: "Check why each producer listed sends its value so much more often.",
  }),
};

const RANK: Record<AttentionLevel, number> = { act: 0, watch: 1, info: 2 };

const distinct = (values: ReadonlyArray<string | null | undefined>) => [
  ...new Set(values.filter((v): v is string => typeof v === "string")),
];

function single(item: AttentionItem): AttentionGroup {
  return {
    level: item.level,
    kind: item.kind,
    ...(item.cause === undefined ? {} : { cause: item.cause }),
    what: item.what,
    action: item.action,
    subjects: item.subject === null ? [] : [item.subject],
    members: [item],
  };
}

function folded(members: readonly AttentionItem[], subjects: readonly string[]): AttentionGroup {
  const first = members[0]!;
  const facts: Facts = {
    members,
    subjects,
    producers: distinct(members.map((m) => m.producer)).length,
    cause: first.cause,
  };
  const words = WORDS[first.kind]!(facts);
  const shared = members.every((m) => m.action === first.action);
  return {
    level: first.level,
    kind: first.kind,
    ...(first.cause === undefined ? {} : { cause: first.cause }),
    what: words.what,
    action: shared ? first.action : words.action,
    subjects,
    members,
  };
}

/**
 * The summary's lines: items of one level, kind and cause are folded into one line when they span
 * more than one subject or are more than {@link LOOSE_IN_ONE_SUBJECT} in one; every other item is a
 * line of its own, in its own words. Ranked by level, then a retired version still sent first (its
 * consumers may already be gone), then the lines that gather the most items, then the order of the
 * items (`attentionItems`: largest share first within a subject, subjects as listed).
 */
export function groupAttention(items: readonly AttentionItem[]): AttentionGroup[] {
  const buckets = new Map<string, number[]>();
  items.forEach((item, i) => {
    const key =
      item.kind in WORDS ? `${item.level}\u0000${item.kind}\u0000${item.cause ?? ""}` : `\u0001${i}`;
    const bucket = buckets.get(key);
    if (bucket) bucket.push(i);
    else buckets.set(key, [i]);
  });
  const lines: Array<{ first: number; group: AttentionGroup }> = [];
  for (const indices of buckets.values()) {
    const members = indices.map((i) => items[i]!);
    const subjects = distinct(members.map((m) => m.subject));
    if (members.length > 1 && (subjects.length > 1 || members.length > LOOSE_IN_ONE_SUBJECT))
      lines.push({ first: indices[0]!, group: folded(members, subjects) });
    else indices.forEach((i) => lines.push({ first: i, group: single(items[i]!) }));
  }
  const retiredFirst = (g: AttentionGroup) => (g.kind === "retired-traffic" ? 0 : 1);
  return lines
    .sort(
      (a, b) =>
        RANK[a.group.level] - RANK[b.group.level] ||
        retiredFirst(a.group) - retiredFirst(b.group) ||
        b.group.members.length - a.group.members.length ||
        a.first - b.first,
    )
    .map((line) => line.group);
}
