import { retiredTrafficLine } from "../lifecycle/retired.js";
import { fieldItems } from "./field-attention.js";
import { findingItems } from "./finding-attention.js";
import { lossyItems } from "./lossy-attention.js";
import type { Report, ReportSubject, WouldFailEntry } from "./model.js";

/**
 * How soon an operator should look: `act` (something breaks or is ready to be done now), `watch`
 * (the evidence is incomplete, or a problem keeps a verdict back), `info` (nothing to do yet).
 */
export type AttentionLevel = "act" | "watch" | "info";

/** One thing that needs an operator, in plain words, with the one next action. */
export interface AttentionItem {
  readonly level: AttentionLevel;
  /** What kind of thing it is, stable for tools: `forward-incompatible`, `drained`, … */
  readonly kind: string;
  /**
   * What the item shares with others of its kind that one step resolves, stable across subjects and
   * producers, where the kind alone does not say it: `behind-1` (consumers one released version behind
   * the records' writer), `ahead-2`, `blocks-drain`. Absent where the kind is the whole cause. Items of
   * one level, kind and cause are one line of the summary at scale (attention-groups.ts).
   */
  readonly cause?: string;
  /** The subject it is about; null for the monitor itself. */
  readonly subject: string | null;
  /** The producer it is about, when it is about one: a group counts its producers by this. */
  readonly producer?: string;
  /** What is happening, in plain words. */
  readonly what: string;
  /** The one next action. */
  readonly action: string;
}

const RANK: Record<AttentionLevel, number> = { act: 0, watch: 1, info: 2 };
const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
const where = (e: WouldFailEntry) => {
  const first = e.failures[0];
  return first === undefined
    ? ""
    : ` (${first.keyword} at ${first.pointer === "" ? "the root" : first.pointer})`;
};

/** Whether a consumer may be reading with this version: released and not retired. */
function consumersMayUse(s: ReportSubject, version: string): boolean {
  const status = s.versions.find((v) => v.version === version)?.status;
  return status === "active" || status === "deprecated";
}

/**
 * How many released versions apart the writer and a reader are, counting the newer of the two: 1 when
 * a consumer reads the version just before (or after) the producer's. Undefined for a version the
 * subject does not list.
 */
function distance(s: ReportSubject, writer: string, reader: string): number | undefined {
  const order = s.versions.map((v) => v.version);
  const [w, r] = [order.indexOf(writer), order.indexOf(reader)];
  if (w < 0 || r < 0) return undefined;
  const between = s.versions.slice(Math.min(w, r) + 1, Math.max(w, r));
  return 1 + between.filter((v) => consumersMayUse(s, v.version)).length;
}

/** Traffic that breaks a consumer or fails its own contract, per producer and reader, largest share first. */
function brokenTraffic(s: ReportSubject): AttentionItem[] {
  const items: Array<AttentionItem & { share: number }> = [];
  for (const e of s.wouldFail) {
    if (e.failed === 0 || e.direction === "undeclared") continue;
    if (e.direction !== "conformance" && !consumersMayUse(s, e.reader)) continue;
    const apart = distance(s, e.writer, e.reader);
    for (const [producer, p] of Object.entries(e.producers)) {
      if (p.failed === 0) continue;
      const share = p.failed / p.validations;
      const sampled = `${pct(share)} of its sampled ${e.writer} records (${p.failed} of ${p.validations})`;
      if (e.direction === "forward") {
        items.push({
          level: "act",
          kind: "forward-incompatible",
          ...(apart === undefined ? {} : { cause: `behind-${apart}` }),
          subject: s.subject,
          producer,
          share,
          what: `producer ${producer}: ${sampled} would break consumers still on ${e.reader}${where(e)}`,
          action: `Upgrade the consumers still on ${e.reader} before they read ${producer}'s ${e.writer} records, or keep ${producer} on a version they accept until they are.`,
        });
      } else if (e.direction === "backward") {
        items.push({
          level: "act",
          kind: "backward-incompatible",
          ...(apart === undefined ? {} : { cause: `ahead-${apart}` }),
          subject: s.subject,
          producer,
          share,
          what: `producer ${producer}: ${sampled} would break consumers upgraded to ${e.reader}${where(e)}`,
          action: `Move ${producer} to ${e.reader} (or a version ${e.reader} accepts) before consumers upgrade.`,
        });
      } else {
        items.push({
          level: "act",
          kind: "non-conformant",
          subject: s.subject,
          producer,
          share,
          what: `producer ${producer}: ${sampled} fail ${e.writer} itself, the version they declare${where(e)}`,
          action: `Fix ${producer}: its records do not match the version they declare (the would-fail matrix names the keyword and the path).`,
        });
      }
    }
  }
  return items.sort((a, b) => b.share - a.share).map(({ share: _share, ...item }) => item);
}

/**
 * A producer still sending a retired version: consumers may have dropped it since the prune, so this
 * comes before everything else.
 */
function retiredTraffic(s: ReportSubject): AttentionItem[] {
  return s.retiredTraffic.map((r) => ({
    level: "act",
    kind: "retired-traffic",
    subject: s.subject,
    producer: r.producer,
    what: `${retiredTrafficLine({ ...r, subject: s.subject }, r.retiredAt === null ? undefined : Date.parse(r.retiredAt))}: ${plural(r.records, "record")}${r.retiredAt === null ? "" : " since"}, the last at ${r.last}`,
    action: `Stop ${r.producer} sending ${r.version}: consumers may no longer read it. If some still need it, make ${r.version} deprecated again (the registry's state, or the catalog) until ${r.producer} has moved; see the runbook (SchemawatchRetiredVersionTraffic).`,
  }));
}

function unreadable(s: ReportSubject): AttentionItem[] {
  if (s.unreadable === 0) return [];
  const producers = s.producers
    .filter((p) => (p.byWriter["unknown"] ?? 0) > 0)
    .map((p) => `${p.producer} (${p.byWriter["unknown"]})`);
  const reasons = [...new Set(s.unknownUse.map((u) => u.reason))].sort();
  const deprecated = s.versions.some((v) => v.status === "deprecated");
  return [
    {
      level: "watch",
      kind: "unreadable",
      // The action differs: until they stop, a deprecated version cannot drain.
      ...(deprecated ? { cause: "blocks-drain" } : {}),
      subject: s.subject,
      what: `${plural(s.unreadable, "record")} of ${s.subject} whose version could not be read${reasons.length > 0 ? ` (${reasons.join(", ")})` : ""}${producers.length > 0 ? `, from producer ${producers.join(", ")}` : ""}`,
      action: deprecated
        ? "Make their version readable (a version header, a registered schema id, a larger maxRecordBytes): until they stop, no deprecated version can be judged removable."
        : "Make their version readable (a version header, a registered schema id, a larger maxRecordBytes).",
    },
  ];
}

function verdicts(s: ReportSubject): AttentionItem[] {
  const items: AttentionItem[] = [];
  let buildingUntil: string | undefined;
  for (const v of s.versions) {
    const verdict = v.verdict;
    if (!verdict) continue;
    for (const reason of verdict.reasons) {
      const until = /^coverage gap on \S+ until (\S+)$/.exec(reason)?.[1];
      if (until !== undefined && (buildingUntil === undefined || until > buildingUntil))
        buildingUntil = until;
    }
    if (verdict.kind === "drained" && verdict.yes) {
      items.push({
        level: "act",
        kind: "drained",
        subject: s.subject,
        what: `${v.version} of ${s.subject} is drained: nothing declared or needed it for the whole drain window, with every partition observed`,
        action: `Remove ${v.version}: retire it in the registry or the catalog.`,
      });
    } else if (verdict.kind === "ready" && verdict.yes) {
      items.push({
        level: "act",
        kind: "ready",
        subject: s.subject,
        what: `candidate ${v.version} of ${s.subject} is ready: every sampled record passed it for the whole window`,
        action: `Release ${v.version}: make it active.`,
      });
    } else if (verdict.kind === "ready") {
      const blocking = verdict.reasons.filter((r) => !r.startsWith("coverage gap on "));
      if (blocking.length > 0)
        items.push({
          level: "info",
          kind: "not-ready",
          subject: s.subject,
          what: `candidate ${v.version} of ${s.subject} is not ready: ${blocking[0]}${blocking.length > 1 ? ` (and ${plural(blocking.length - 1, "more reason")})` : ""}`,
          action: `Keep ${v.version} a candidate until the producers named send what it requires.`,
        });
    }
  }
  if (buildingUntil !== undefined)
    items.push({
      level: "info",
      kind: "coverage-building",
      subject: s.subject,
      what: `the windows of ${s.subject} are still being observed; the last completes at ${buildingUntil}`,
      action: "Nothing to do: the verdicts come once the windows are observed whole.",
    });
  return items;
}

function monitorItems(report: Omit<Report, "attention">): AttentionItem[] {
  const items: AttentionItem[] = [];
  if (!report.ready)
    items.push({
      level: "act",
      kind: "not-ready",
      subject: null,
      what: `the monitor is not ready: ${report.notReadyReason ?? "unknown reason"}`,
      action: "See /readyz and the runbook (SchemawatchNotReady): until it is ready, nothing is counted.",
    });
  if (report.stateProblem)
    items.push({
      level: "watch",
      kind: "state",
      subject: null,
      what: `the lifecycle state could not be read: ${report.stateProblem}`,
      action: "Fix or remove the state file or topic; every window has restarted meanwhile.",
    });
  const registries = new Map<string, string>();
  for (const s of report.subjects) {
    if (s.registry && !s.registry.up)
      registries.set(
        s.registry.name,
        `registry ${s.registry.name} does not answer${s.registry.downSince ? ` since ${s.registry.downSince}` : ""}`,
      );
  }
  for (const what of registries.values())
    items.push({
      level: "act",
      kind: "registry-down",
      subject: null,
      what,
      action:
        "See the runbook (SchemawatchRegistryDown): counting goes on, but no deprecated version of its subjects is judged drained.",
    });
  for (const p of report.problems)
    items.push({
      level: "watch",
      kind: "problem",
      subject: null,
      what: p.problem,
      action: "See /readyz and the runbook; the monitor keeps counting everything else.",
    });
  return items;
}

/**
 * What needs an operator, ranked: what to act on first (a retired version still sent, of every
 * subject; then broken traffic, largest share first; versions to remove or release; the monitor or a
 * registry down), then what to watch, then what needs nothing yet. Empty of `act` and `watch` items
 * only when nothing needs anyone.
 */
export function attentionItems(report: Omit<Report, "attention">): AttentionItem[] {
  const items = [
    ...report.subjects.flatMap(retiredTraffic),
    ...report.subjects.flatMap((s) => [
      ...brokenTraffic(s),
      ...unreadable(s),
      ...verdicts(s),
      ...fieldItems(s),
      ...findingItems(s, report.generatedAt),
      ...lossyItems(s),
    ]),
    ...monitorItems(report),
  ];
  // A stable sort: within a level, the order above (retired traffic, then subjects as listed).
  return items.sort((a, b) => RANK[a.level] - RANK[b.level]);
}

/** Whether anything needs an operator now. */
export function needsAttention(items: readonly AttentionItem[]): boolean {
  return items.some((i) => i.level !== "info");
}
