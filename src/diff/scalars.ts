import { at, mk, tighter, type Family } from "./family.js";
import type { ChangeKind } from "./kinds.js";
import { ALL, describeTypes, maskOfType, maskOfValue, STRING } from "./typeset.js";
import { declaredValues, deepEqual, includesValue } from "./values.js";
import { ANNOTATION_KEYWORDS, isValidationKeyword, STRUCTURAL_KEYWORDS } from "./keywords.js";
import type { View } from "./view.js";

/**
 * Does the engine check strings against this `contentMediaType`? Only JSON media types are parsed
 * (the same test as passesContent in src/catalog/engine.ts); an absent keyword checks nothing.
 */
function checksMediaType(mediaType: unknown): boolean {
  return typeof mediaType === "string" && /^application\/(?:[\w.+-]+\+)?json\b/i.test(mediaType);
}

/** Annotations and unknown keywords: reported so the bump can be a patch, never breaking. */
export const annotations: Family = (_engine, pair, out) => {
  const o = pair.old.view;
  const n = pair.new.view;
  for (const key of new Set([...Object.keys(o.raw), ...Object.keys(n.raw)])) {
    if (STRUCTURAL_KEYWORDS.has(key)) continue;
    // Own keys only: `constructor` or `toString` in a schema is an unknown keyword, not Object's.
    let kind = (Object.hasOwn(ANNOTATION_KEYWORDS, key) ? ANNOTATION_KEYWORDS[key] : undefined) as
      ChangeKind | undefined;
    if (!kind && !isValidationKeyword(key, o.dialect) && !isValidationKeyword(key, n.dialect)) {
      kind = "extension-changed";
    }
    if (!kind) continue;
    const inOld = Object.hasOwn(o.raw, key);
    const inNew = Object.hasOwn(n.raw, key);
    const content = key === "contentEncoding" || key === "contentMediaType";
    const json = (view: View): boolean => view.loc.doc.assertsFormats && checksMediaType(view.raw[key]);
    // Each side is read under its own dialect: the same content keyword asserted on one side only
    // (a dialect change under --assert-formats) is a change.
    const sameCheck =
      !content ||
      (key === "contentMediaType"
        ? json(o) === json(n)
        : o.loc.doc.assertsFormats === n.loc.doc.assertsFormats);
    const same = inOld && inNew && deepEqual(o.raw[key], n.raw[key]);
    if (same && sameCheck) continue;
    const what = !inOld ? "added" : !inNew ? "removed" : "changed";
    if (content && (o.loc.doc.assertsFormats || n.loc.doc.assertsFormats)) {
      if (key === "contentMediaType" && json(o) === json(n)) {
        // The engine checks only whether content is JSON (passesContent in src/catalog/engine.ts): two
        // media types it treats alike accept the same strings, whatever their names.
        const reason = `${key} ${what}; the engine checks ${json(n) ? "both as JSON" : "neither"}`;
        out.push(mk(kind, inNew ? at(n.loc, key) : at(o.loc, key), "ok", "ok", reason));
        continue;
      }
      // Asserted content: whether a string breaks is for a witness to show.
      // A media type the engine does not check (not JSON) constrains nothing, so only a side that checks
      // JSON can reject a string.
      const media = key === "contentMediaType";
      const asserts = (view: View, present: boolean) =>
        present && (media ? json(view) : view.loc.doc.assertsFormats);
      const backward = asserts(n, inNew) ? tighter(pair.old, STRING, () => undefined) : "ok";
      const forward = asserts(o, inOld) ? tighter(pair.new, STRING, () => undefined) : "ok";
      const reason = same
        ? `${key} kept; asserted in ${o.loc.doc.assertsFormats ? "OLD" : "NEW"}'s dialect only (--assert-formats)`
        : `${key} ${what}; asserted in this dialect (--assert-formats)`;
      out.push(mk(kind, inNew ? at(n.loc, key) : at(o.loc, key), backward, forward, reason));
      continue;
    }
    const reason =
      kind === "extension-changed"
        ? `${key} ${what}; validators ignore keywords they do not know`
        : `${key} ${what}; annotations do not affect validation`;
    out.push(mk(kind, inNew ? at(n.loc, key) : at(o.loc, key), "ok", "ok", reason));
  }
};

/** `type`, judged against the types the other side can really produce (integer is part of number). */
export const typeKeyword: Family = (_engine, pair, out) => {
  const before = maskOfType(pair.old.view.type);
  const after = maskOfType(pair.new.view.type);
  if (before === after) return;
  const oldAllowed = before ?? ALL;
  const newAllowed = after ?? ALL;
  const lost = pair.old.types & ~newAllowed;
  const gained = pair.new.types & ~oldAllowed;
  const backward = lost === 0 ? "ok" : tighter(pair.old, lost, (v) => (maskOfValue(v) & newAllowed) !== 0);
  const forward = gained === 0 ? "ok" : tighter(pair.new, gained, (v) => (maskOfValue(v) & oldAllowed) !== 0);
  let kind: ChangeKind;
  if (before === undefined) kind = "type-added";
  else if (after === undefined) kind = "type-removed";
  else if ((after & ~before) === 0) kind = "type-narrowed";
  else if ((before & ~after) === 0) kind = "type-widened";
  else kind = "type-changed";
  const parts = [`type ${describeTypes(oldAllowed)} -> ${describeTypes(newAllowed)}`];
  if (backward !== "ok") parts.push(`OLD documents of type ${describeTypes(lost)} fail NEW`);
  if (forward !== "ok") parts.push(`NEW documents of type ${describeTypes(gained)} fail OLD`);
  const path = after === undefined ? at(pair.old.view.loc, "type") : at(pair.new.view.loc, "type");
  out.push(mk(kind, path, backward, forward, parts.join("; ")));
};

function show(values: readonly unknown[]): string {
  const text = values.map((v) => JSON.stringify(v)).join(", ");
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

const keywordOf = (view: View): string => (view.enumValues ? "enum" : "const");
const constOnly = (view: View): boolean => view.hasConst && !view.enumValues;

/** `enum` and `const` as finite sets of values; members the schema rejects anyway do not count. */
export const enums: Family = (_engine, pair, out) => {
  const o = pair.old.view;
  const n = pair.new.view;
  const before = declaredValues(o);
  const after = declaredValues(n);
  if (!before && !after) return;
  if (before && after) {
    if (constOnly(o) && constOnly(n)) {
      if (deepEqual(o.constValue, n.constValue)) return;
      const backward = tighter(pair.old, ALL, (v) => includesValue(after, v));
      const forward = tighter(pair.new, ALL, (v) => includesValue(before, v));
      const reason = `const ${show([o.constValue])} -> ${show([n.constValue])}`;
      out.push(mk("const-changed", at(n.loc, "const"), backward, forward, reason));
      return;
    }
    const added = after.filter((v) => !includesValue(before, v));
    const removed = before.filter((v) => !includesValue(after, v));
    if (added.length > 0) {
      const live = added.filter((v) => pair.new.values === undefined || includesValue(pair.new.values, v));
      const forward = live.length > 0 ? "breaks" : "ok";
      const reason =
        `NEW allows ${show(added)}` +
        (forward === "ok" ? " (rejected by NEW's other keywords)" : "; OLD rejects it");
      out.push(mk("enum-value-added", at(n.loc, keywordOf(n)), "ok", forward, reason));
    }
    if (removed.length > 0) {
      const live = removed.filter((v) => pair.old.values === undefined || includesValue(pair.old.values, v));
      const backward = live.length > 0 ? "breaks" : "ok";
      const reason =
        `NEW no longer allows ${show(removed)}` +
        (backward === "ok" ? " (OLD rejected it anyway)" : "; OLD documents using it fail NEW");
      out.push(mk("enum-value-removed", at(n.loc, keywordOf(n)), backward, "ok", reason));
    }
    return;
  }
  if (after) {
    const kind: ChangeKind = constOnly(n) ? "const-added" : "enum-added";
    const backward = tighter(pair.old, ALL, (v) => includesValue(after, v));
    const reason = `NEW only allows ${show(after)}`;
    out.push(mk(kind, at(n.loc, keywordOf(n)), backward, "ok", reason));
    return;
  }
  if (before) {
    const kind: ChangeKind = constOnly(o) ? "const-removed" : "enum-removed";
    const forward = tighter(pair.new, ALL, (v) => includesValue(before, v));
    const reason = `OLD only allowed ${show(before)}; NEW drops the restriction`;
    out.push(mk(kind, at(o.loc, keywordOf(o)), "ok", forward, reason));
  }
};
