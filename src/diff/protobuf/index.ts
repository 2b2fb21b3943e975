import protobuf from "protobufjs";
import type { ProtoSchema } from "../../formats/protobuf/parse.js";
import { worst } from "../family.js";
import type { Bump, Compatibility, Verdict } from "../vocabulary.js";
import { plain, type ProtoChange, type ProtoChangeKind, type ProtoDiffResult } from "./change.js";
import { compareEnums } from "./enums.js";
import { label, localName, messagesOf, name, typeName } from "./names.js";
import { candidateRecords, worstReading, type ProtoWitness } from "./witness.js";

export type { ProtoChange, ProtoChangeKind, ProtoDiffResult } from "./change.js";

/** A judged direction: its verdict, the witness of a `breaks` or a loss, and words for the reason. */
interface Reading {
  readonly verdict: Verdict;
  readonly witness: ProtoWitness | null;
}

/**
 * Compares two versions of a `.proto` file message by message (by name within the package) and field
 * by field (by number), and judges each change by what a reader of each side makes of records the
 * other writes (formats/protobuf/plan.ts, the per-record check the monitor runs).
 */
export function diffProto(old: ProtoSchema, next: ProtoSchema): ProtoDiffResult {
  const changes: ProtoChange[] = [];
  if (old.package !== next.package)
    changes.push(
      plain(
        "package-changed",
        next.package ?? "",
        "the package is renamed: messages are matched by their own names",
      ),
    );
  const oldMessages = messagesOf(old);
  const newMessages = messagesOf(next);
  // Pairs of messages to compare: the file's own by name, then the messages their fields hold by the
  // same name in imported files (a reference's change reaches the records too).
  const queue: [protobuf.Type, protobuf.Type][] = [];
  const compared = new Set<string>();
  const enqueue = (o: protobuf.Type, n: protobuf.Type) => {
    if (compared.has(localName(o))) return;
    compared.add(localName(o));
    queue.push([o, n]);
  };
  // Enums the compared fields hold, an imported file's too (a file of enums only has no message).
  const reached: [protobuf.Enum, protobuf.Enum][] = [];
  for (const [local, o] of oldMessages) {
    const n = newMessages.get(local);
    if (n === undefined)
      changes.push(judged(old, next, "message-removed", name(o), o, null, null, "the message is removed"));
    else enqueue(o, n);
  }
  while (queue.length > 0) {
    const [o, n] = queue.shift()!;
    compareMessage(old, next, o, n, changes, enqueue, reached);
  }
  for (const [local, n] of newMessages)
    if (!oldMessages.has(local))
      changes.push(judged(old, next, "message-added", name(n), null, n, null, "a message is added"));
  compareEnums(old, next, reached, changes);
  const backward = worst(changes.map((c) => c.backward));
  const forward = worst(changes.map((c) => c.forward));
  const lossless = changes.every((c) => !/\bloses\b|\bdefault\b|\bdrops\b|\bkeeps one\b/.test(c.reason));
  // Texts that differ where nothing a record carries does (comments, options, layout): documentation.
  if (changes.length === 0 && old.texts.join("\0") !== next.texts.join("\0"))
    changes.push({
      kind: "schema-changed",
      path: old.package ?? "",
      backward: "ok",
      forward: "ok",
      reason:
        "the files differ, but no message, field or enum value a record carries does (comments, options, layout)",
    });
  let bump: Bump = "none";
  if (changes.length > 0)
    bump = backward !== "ok" ? "major" : forward === "ok" && lossless ? "patch" : "minor";
  return { compatibility: compatibilityOf(backward, forward), backward, forward, bump, changes };
}

function compareMessage(
  old: ProtoSchema,
  next: ProtoSchema,
  o: protobuf.Type,
  n: protobuf.Type,
  out: ProtoChange[],
  enqueue: (o: protobuf.Type, n: protobuf.Type) => void,
  reached: [protobuf.Enum, protobuf.Enum][],
): void {
  const numbers = new Set([...o.fieldsArray.map((f) => f.id), ...n.fieldsArray.map((f) => f.id)]);
  for (const number of [...numbers].sort((a, b) => a - b)) {
    const of = o.fieldsById[number];
    const nf = n.fieldsById[number];
    const at = `${name(nf === undefined ? o : n)}.${(nf ?? of)!.name}(#${number})`;
    if (nf === undefined) {
      const kind = of!.required ? "required-field-removed" : "field-removed";
      out.push(judged(old, next, kind, at, o, n, number, `field ${of!.name} is removed`));
      continue;
    }
    if (of === undefined) {
      const kind = nf.required ? "required-field-added" : "field-added";
      out.push(judged(old, next, kind, at, o, n, number, `field ${nf.name} is added`));
      continue;
    }
    if (of.name !== nf.name)
      out.push(plain("field-renamed", at, `renamed from ${of.name}: the number is what the wire carries`));
    const oType = typeName(of);
    const nType = typeName(nf);
    if (
      oType === nType &&
      of.resolvedType instanceof protobuf.Type &&
      nf.resolvedType instanceof protobuf.Type
    )
      enqueue(of.resolvedType, nf.resolvedType);
    if (of.resolvedType instanceof protobuf.Enum && nf.resolvedType instanceof protobuf.Enum)
      reached.push([of.resolvedType, nf.resolvedType]);
    if (oType !== nType)
      out.push(judged(old, next, "field-type-changed", at, o, n, number, `${oType} becomes ${nType}`));
    else if (label(of) !== label(nf))
      out.push(
        judged(old, next, "field-label-changed", at, o, n, number, `${label(of)} becomes ${label(nf)}`),
      );
    else if (of.options?.["default"] !== nf.options?.["default"])
      out.push(judged(old, next, "default-changed", at, o, n, null, "its default changes"));
  }
  compareOneofs(old, next, o, n, out);
}

function compareOneofs(
  old: ProtoSchema,
  next: ProtoSchema,
  o: protobuf.Type,
  n: protobuf.Type,
  out: ProtoChange[],
): void {
  const oldNames = new Set(o.oneofsArray.map((x) => x.name));
  for (const oneof of n.oneofsArray) {
    if (!oldNames.has(oneof.name))
      out.push(plain("oneof-added", `${name(n)}.${oneof.name}`, "a oneof is added"));
    // Members that OLD could set together (each outside any oneof, or in different oneofs) and NEW
    // holds in one: a record of OLD may set several, of which a NEW reader keeps one.
    const groups = new Map<string, protobuf.Field>();
    for (const member of oneof.fieldsArray) {
      const before = o.fieldsById[member.id];
      if (before === undefined) continue;
      const group = before.partOf === null ? `#${member.id}` : `oneof ${before.partOf.name}`;
      if (!groups.has(group)) groups.set(group, before);
    }
    if (groups.size > 1) {
      const fields = [...groups.values()];
      const message = o.fullName.slice(1);
      const record = Object.assign({}, ...fields.map((f) => candidateRecords(old, message, f.id)[0]));
      out.push(
        change(
          "fields-moved-into-oneof",
          `${name(n)}.${oneof.name}`,
          reading(old, next, message, [record]),
          ok,
          `${fields.map((f) => f.name).join(", ")}, which a record could set together, are now in one oneof`,
        ),
      );
    }
  }
  const newNames = new Set(n.oneofsArray.map((x) => x.name));
  for (const oneof of o.oneofsArray)
    if (!newNames.has(oneof.name))
      out.push(plain("oneof-removed", `${name(o)}.${oneof.name}`, "a oneof is removed"));
}

const ok: Reading = { verdict: "ok", witness: null };

/** A change judged by records: backward, OLD's records (carrying field `number`) read by NEW; forward, the reverse. */
function judged(
  old: ProtoSchema,
  next: ProtoSchema,
  kind: ProtoChangeKind,
  path: string,
  o: protobuf.Type | null,
  n: protobuf.Type | null,
  number: number | null,
  what: string,
): ProtoChange {
  const backward =
    o === null
      ? ok
      : reading(old, next, o.fullName.slice(1), candidateRecords(old, o.fullName.slice(1), number));
  const forward =
    n === null
      ? ok
      : reading(next, old, n.fullName.slice(1), candidateRecords(next, n.fullName.slice(1), number));
  return change(kind, path, backward, forward, what);
}

function reading(
  writer: ProtoSchema,
  reader: ProtoSchema,
  message: string,
  records: readonly unknown[],
): Reading {
  const witness = worstReading(writer, reader, message, records);
  if (witness === null) return ok;
  return { verdict: witness.reads.outcome === "fails" ? "breaks" : "ok", witness };
}

function change(
  kind: ProtoChangeKind,
  path: string,
  backward: Reading,
  forward: Reading,
  what: string,
): ProtoChange {
  const said = (direction: string, r: Reading) =>
    r.witness === null
      ? []
      : [
          `${direction}: ${r.witness.reads.outcome === "fails" ? "misreads" : "loses"} (${r.witness.reads.rule} at ${r.witness.reads.location || "the record"})`,
        ];
  const reason = [what, ...said("backward", backward), ...said("forward", forward)].join("; ");
  const witness =
    backward.witness === null && forward.witness === null
      ? undefined
      : {
          ...(backward.witness ? { backward: backward.witness } : {}),
          ...(forward.witness ? { forward: forward.witness } : {}),
        };
  return {
    kind,
    path,
    backward: backward.verdict,
    forward: forward.verdict,
    reason,
    ...(witness ? { witness } : {}),
  };
}

function compatibilityOf(backward: Verdict, forward: Verdict): Compatibility {
  if (backward === "ok") return forward === "ok" ? "FULL" : "BACKWARD";
  return forward === "ok" ? "FORWARD" : "NONE";
}
