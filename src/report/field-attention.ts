import type { FieldVerdict } from "../lifecycle/field-verdicts.js";
import { percent } from "../lifecycle/field-verdicts.js";
import type { AttentionItem } from "./attention.js";
import { nextMajor } from "./fields-section.js";
import type { ReportSubject } from "./model.js";
import type { RenameProgress } from "../fields/rename-progress.js";

const names = (list: readonly string[]) =>
  list.length <= 1 ? (list[0] ?? "") : `${list.slice(0, -1).join(", ")} and ${list[list.length - 1]}`;

/**
 * Producers that sent the field (deprecated) or lacked it (optional) in the window, with their share
 * and what it covers (the window, or whole buckets reaching before it); for a replaced field, whether
 * they send its replacement beside it or not yet.
 */
function holdouts(
  v: FieldVerdict,
  producers: FieldVerdict["producers"],
  rename: RenameProgress | undefined,
): string[] {
  return producers.map((p) => {
    const step = rename?.producers.find((r) => r.producer === p.producer)?.step;
    const beside =
      step === "add"
        ? `, without ${rename!.replacement}`
        : step === "switch"
          ? `, beside ${rename!.replacement}`
          : "";
    return `${p.producer} still ${v.fieldKind === "deprecated" ? "sends" : "omits"} ${v.field} in ${percent(v.fieldKind === "deprecated" ? p.present : p.absent, p.records)} of its records over the last ${p.over}${beside}`;
  });
}

/**
 * Whether a rename's step, judged with the verdict (one snapshot, src/monitor/lifecycle-runtime.ts),
 * says the producer no longer sends the replaced field (`done`, `neither`, `quiet`). Its step reads
 * the rename's own counts; the verdict's reasons, and `inWindow`, read each record's own time, so
 * the item names it neither as still sending nor as still to move.
 */
function pastIt(rename: RenameProgress | undefined, producer: string): boolean {
  const step = rename?.producers.find((r) => r.producer === producer)?.step;
  return step !== undefined && step !== "add" && step !== "switch";
}

/**
 * The one action of a deprecated field still sent. Of a replaced one, the earliest step any holdout
 * is at: producers that send it without its replacement add the replacement first (step 1 of the
 * article's procedure); once every one sends both, consumers move and the old field stops.
 */
function inUseAction(
  v: FieldVerdict,
  who: string[],
  next: string,
  rename: RenameProgress | undefined,
): string {
  if (rename) {
    const adding = rename.producers.filter((p) => p.step === "add" && who.includes(p.producer));
    if (adding.length > 0)
      return `Have ${names(adding.map((p) => p.producer))} send ${rename.replacement} beside ${v.field} (step 1 of the rename), before ${v.field} can stop.`;
    return `Move consumers to ${rename.replacement}, then stop sending ${v.field} from ${names(who)} before removing it in ${next}.`;
  }
  return `Stop sending ${v.field} from ${names(who)} before removing it in ${next}.`;
}

/**
 * One item per field whose verdict asks something of someone, with its one action: a drained field
 * to remove, a deprecated field still sent (to stop first; of a rename, the step its producers are
 * at), an optional field every producer sends
 * (to require in the next major). An optional field some producers omit is no item: most optional
 * fields stay optional, and a line for each would bury what needs someone; the subject's fields
 * table and `readiness --field` say who omits it, and a candidate that requires it names them in
 * its own not-ready item.
 */
export function fieldItems(s: ReportSubject): AttentionItem[] {
  const next = nextMajor(s.versions);
  const items: AttentionItem[] = [];
  for (const v of s.fields ?? []) {
    const rename = s.renames?.find((r) => r.field === v.field);
    // Whether a record of the window itself carried (or lacked) it: the share may count whole
    // buckets begun before the window, and a producer that stopped within them is no holdout.
    const producers = v.producers.filter((p) =>
      v.fieldKind === "deprecated" ? p.inWindow.present && !pastIt(rename, p.producer) : p.inWindow.absent,
    );
    const who = producers.map((p) => p.producer);
    if (v.fieldKind === "deprecated" && v.yes) {
      items.push({
        level: "act",
        kind: "field-drained",
        subject: s.subject,
        what: `${v.field} of ${s.subject} is drained: no record carried it for the whole drain window, with every partition observed`,
        action: `Remove ${v.field} in ${next}.`,
      });
    } else if (v.fieldKind === "deprecated" && producers.length > 0) {
      items.push({
        level: "watch",
        kind: "field-in-use",
        subject: s.subject,
        what: holdouts(v, producers, rename).join("; "),
        action: inUseAction(v, who, next, rename),
      });
    } else if (v.fieldKind === "optional" && v.yes) {
      items.push({
        level: "act",
        kind: "field-ready",
        subject: s.subject,
        what: `every producer sends ${v.field} of ${s.subject} in every record`,
        action: `It can be added to required in ${next}.`,
      });
    }
  }
  return items;
}
