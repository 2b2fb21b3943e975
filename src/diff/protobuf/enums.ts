import type protobuf from "protobufjs";
import type { ProtoSchema } from "../../formats/protobuf/parse.js";
import { plain, type ProtoChange } from "./change.js";
import { enumsOf, localName, messagesOf, name } from "./names.js";

/**
 * Pairs of enums to compare: the files' own (top level and nested in their messages) by name within
 * the package, then `reached`, the pairs a compared field holds on both sides (an enum of an imported
 * file, such as a registry's reference subject of enums only), each pair once. A file's own enum on
 * one side only is removed or added (a rename is both). No record of the file's messages shows it
 * (a field that held it is compared above, by its number and type), so in a file with messages the
 * change is `ok` both ways, as Confluent judges it. A file of enums only has no records: its users are
 * the files that import it (a registry's shared enum subject), so there it is judged as a message
 * removed or added is: removed breaks backward (a file written against OLD no longer reads with NEW),
 * added breaks forward. An enum nested in a message removed or added goes with it: the message's change
 * says it, once.
 */
export function compareEnums(
  old: ProtoSchema,
  next: ProtoSchema,
  reached: readonly (readonly [protobuf.Enum, protobuf.Enum])[],
  out: ProtoChange[],
): void {
  const oldEnums = enumsOf(old);
  const newEnums = enumsOf(next);
  const shared = (side: ProtoSchema) => side.messages.length === 0;
  const oldMessages = messagesOf(old);
  const newMessages = messagesOf(next);
  // Whether `e` is nested in a message (`Order` of `Order.Kind`) that the other side's messages lack.
  const inMessageGone = (e: protobuf.Enum, others: ReadonlyMap<string, unknown>) => {
    const within = localName(e).split(".").slice(0, -1).join(".");
    return within !== "" && !others.has(within);
  };
  for (const [local, o] of oldEnums)
    if (!newEnums.has(local) && !inMessageGone(o, newMessages))
      out.push({
        kind: "enum-removed",
        path: name(o),
        backward: shared(old) ? "breaks" : "ok",
        forward: "ok",
        reason: shared(old)
          ? `enum ${local} is removed: a file that imports OLD and uses ${local} cannot be read with NEW`
          : `enum ${local} is removed (it drops from the file's API): no record of its messages carries it, but a file that imports this one and uses ${local} cannot be read with NEW`,
      });
  const pairs: [protobuf.Enum, protobuf.Enum][] = [];
  for (const [local, n] of newEnums) {
    const o = oldEnums.get(local);
    if (o !== undefined) pairs.push([o, n]);
  }
  const seen = new Set(pairs.map(([o, n]) => `${o.fullName}\0${n.fullName}`));
  for (const [o, n] of reached) {
    const key = `${o.fullName}\0${n.fullName}`;
    if (seen.has(key) || localName(o) !== localName(n)) continue;
    seen.add(key);
    pairs.push([o, n]);
  }
  for (const [o, n] of pairs) compareEnum(o, n, out);
  // Said last, as a message added is.
  for (const [local, n] of newEnums)
    if (!oldEnums.has(local) && !inMessageGone(n, oldMessages))
      out.push({
        kind: "enum-added",
        path: name(n),
        backward: "ok",
        forward: shared(next) ? "breaks" : "ok",
        reason: shared(next)
          ? `enum ${local} is added: a file that uses ${local} cannot be read with OLD, which lacks it`
          : `enum ${local} is added: no record of the file's messages carries it until a field holds it`,
      });
}

/** An enum's names by number (the last name of an aliased number, as protobufjs keeps them). */
const byNumber = (e: protobuf.Enum) => new Map(Object.entries(e.values).map(([k, v]) => [v, k]));

/**
 * Values by number, as the wire carries them: a number added or removed loses its name for the reader
 * that lacks it, a number renamed reads the same. A name kept on both sides whose number changed
 * (`ON = 1, OFF = 2` swapped to `ON = 2, OFF = 1`, or `ON = 1` moved to `ON = 5`) is a record whose
 * value now means something else: every record still decodes, but a reader takes the writer's `ON`
 * for `OFF`, or for no name at all. That is reported once, at the kept name, as a break both ways
 * (the numbers and names it touches are not reported again as renames, additions or removals).
 */
function compareEnum(o: protobuf.Enum, n: protobuf.Enum, out: ProtoChange[]): void {
  const ov = byNumber(o);
  const nv = byNumber(n);
  // Own properties only: a value named `toString` is not the object's inherited member.
  const has = (e: protobuf.Enum, key: string) => Object.hasOwn(e.values, key);
  const moved = (key: string) => has(o, key) && has(n, key) && o.values[key] !== n.values[key];
  for (const [number, key] of nv) {
    const at = `${name(n)}.${key}(=${number})`;
    if (moved(key)) out.push(renumbered(at, key, o.values[key]!, number, ov, nv));
    else if (!ov.has(number))
      out.push(
        plain("enum-value-added", at, "an old reader gets a number it has no name for (loses its name)"),
      );
    // A rename is a name gone and a name new on one number (a name the old enum lacks is another than
    // the number's old one); a kept name's move is said above.
    else if (!has(o, key) && !has(n, ov.get(number)!))
      out.push(
        plain(
          "enum-value-renamed",
          at,
          `renamed from ${ov.get(number)}: the number is what the wire carries`,
        ),
      );
  }
  for (const [number, key] of ov)
    if (!nv.has(number) && !moved(key))
      out.push(
        plain(
          "enum-value-removed",
          `${name(o)}.${key}(=${number})`,
          "a new reader gets a number it has no name for (loses its name)",
        ),
      );
}

/** `key` moved from number `from` (OLD) to `to` (NEW): what each side's reader makes of the other's value. */
function renumbered(
  at: string,
  key: string,
  from: number,
  to: number,
  ov: ReadonlyMap<number, string>,
  nv: ReadonlyMap<number, string>,
): ProtoChange {
  const as = (other: string | undefined) => (other === undefined ? "a number it has no name for" : other);
  return {
    kind: "enum-value-renumbered",
    path: at,
    backward: "breaks",
    forward: "breaks",
    reason:
      `${key} moves from ${from} to ${to}, so the meaning changes though every record decodes: ` +
      `a new reader reads OLD's ${key} (${from}) as ${as(nv.get(from))}, ` +
      `an old reader reads NEW's ${key} (${to}) as ${as(ov.get(to))}`,
  };
}
