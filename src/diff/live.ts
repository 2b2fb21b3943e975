import { percent, type FieldVerdict } from "../lifecycle/field-verdicts.js";
import type { Change, DiffResult, LiveHint } from "./vocabulary.js";

/** The change kinds that take a property away from NEW: each removes a field of OLD's documents. */
const REMOVALS: ReadonlySet<string> = new Set([
  "property-removed-open",
  "property-removed-closed",
  "property-removed-partially-open",
]);

/** Keywords whose one following segment names a branch or a member, not a field. */
const BRANCHES: ReadonlySet<string> = new Set([
  "allOf",
  "anyOf",
  "oneOf",
  "dependentSchemas",
  "dependencies",
]);
const ITEMS: ReadonlySet<string> = new Set(["items", "additionalItems", "unevaluatedItems"]);

/**
 * The field a schema location declares, as the monitor names fields (docs/fields.md): `properties/K`
 * is `/K`, an array's items are `*`, branches add nothing. Undefined where the location is not
 * reached from the root by those keywords alone (a `$defs` entry reached through a `$ref`, another
 * document): which field it declares depends on who refers to it.
 */
export function fieldPointerOf(schemaPath: string): string | undefined {
  if (!schemaPath.startsWith("/")) return undefined;
  const segments = schemaPath.slice(1).split("/");
  let pointer = "";
  let i = 0;
  let endsAtProperty = false;
  while (i < segments.length) {
    const keyword = segments[i]!;
    endsAtProperty = false;
    if (keyword === "properties" && i + 1 < segments.length) {
      pointer += `/${segments[i + 1]!}`;
      endsAtProperty = true;
      i += 2;
    } else if (ITEMS.has(keyword)) {
      pointer += "/*";
      // draft-04 to 2019-09's tuple form: items/0
      i += /^\d+$/.test(segments[i + 1] ?? "") ? 2 : 1;
    } else if (keyword === "prefixItems" && i + 1 < segments.length) {
      pointer += "/*";
      i += 2;
    } else if (BRANCHES.has(keyword) && i + 1 < segments.length) i += 2;
    else if (keyword === "then" || keyword === "else") i += 1;
    else return undefined;
  }
  return endsAtProperty ? pointer : undefined;
}

/**
 * The producers that sent the field in the verdict's window, with their share, most first; a share of
 * whole buckets begun before the window says how far back it counts.
 */
function carriers(verdict: FieldVerdict): string {
  const over = (p: FieldVerdict["producers"][number]) => (p.exact ? "" : ` (counted over ${p.over})`);
  const sending = verdict.producers
    .filter((p) => p.inWindow.present)
    .sort((a, b) => b.present / b.records - a.present / a.records || a.producer.localeCompare(b.producer));
  return sending
    .map((p, i) =>
      i === 0
        ? `${p.producer} sent it in ${percent(p.present, p.records)} of its records${over(p)}`
        : `${p.producer} in ${percent(p.present, p.records)}${over(p)}`,
    )
    .join(", ");
}

/** What live traffic says of removing `field`, from the monitor's verdict on it (none: not tracked). */
export function liveHint(field: string, verdict: FieldVerdict | undefined): LiveHint {
  if (verdict === undefined)
    return {
      field,
      state: "untracked",
      text: `removes ${field}, which the monitor does not track (it tracks the fields a version marks "deprecated": true and the optional fields of the newest active version): no live evidence`,
    };
  const window = String(verdict.evidence["window"] ?? "?");
  const windowName = verdict.kind === "drained" ? "drain window" : "ready window";
  if (verdict.kind === "drained" && verdict.yes) {
    const since = verdict.evidence["lastCarried"] ?? verdict.evidence["coveredSince"];
    return {
      field,
      state: "drained",
      text: `removes ${field}, drained since ${String(since ?? "?")}: safe (no record carried it for the whole drain window, ${window}, every partition observed)`,
    };
  }
  // Whether a record of the window carried it is read from the records' own times (the shares may
  // count whole buckets begun before the window).
  if (verdict.producers.some((p) => p.inWindow.present))
    return {
      field,
      state: "carried",
      text: `removes ${field}, which live traffic still carries: ${carriers(verdict)} in the ${windowName} (${window})`,
    };
  if (verdict.kind === "drained")
    return {
      field,
      state: "waiting",
      text: `removes ${field}, which no record carried in the drain window (${window}) but is not drained yet: ${verdict.reasons.join("; ")}`,
    };
  return {
    field,
    state: "absent",
    text: `removes ${field}, which no record carried in the ready window (${window}); no version marks it "deprecated": true, so its drain is not judged: deprecate it first and wait for the verdict`,
  };
}

/**
 * The result with a live hint on every change that removes a property, from the monitor's field
 * verdicts of the subject. A removal whose location names no field (see fieldPointerOf) is matched
 * by its property name when exactly one tracked field ends with it, else left without a hint.
 */
export function withLiveHints(result: DiffResult, verdicts: readonly FieldVerdict[]): DiffResult {
  const byPointer = new Map(verdicts.map((v) => [v.field, v]));
  const changes = result.changes.map((change): Change => {
    if (!REMOVALS.has(change.kind)) return change;
    let field = fieldPointerOf(change.path);
    if (field === undefined) {
      const key = change.path.slice(change.path.lastIndexOf("/"));
      const matching = verdicts.filter((v) => v.field.endsWith(key));
      if (matching.length !== 1) return change;
      field = matching[0]!.field;
    }
    return { ...change, live: liveHint(field, byPointer.get(field)) };
  });
  return { ...result, changes };
}
