import { at, mk, tighter, type Family } from "./family.js";
import { limit } from "./limits.js";
import { matchesEverything } from "./patterns.js";
import { NUMBER, STRING } from "./typeset.js";
import { stringLength, testPattern } from "./values.js";

const length = (v: unknown): number | undefined => (typeof v === "string" ? stringLength(v) : undefined);

const matches =
  (pattern: string) =>
  (v: unknown): boolean | undefined =>
    typeof v !== "string" ? true : testPattern(pattern, v);

/** minLength, maxLength, pattern, format. A changed pattern or format is undecided. */
export const strings: Family = (_engine, pair, out) => {
  const o = pair.old.view;
  const n = pair.new.view;
  const common = { family: STRING, measure: length };
  limit(
    pair,
    out,
    { ...common, kind: "min-length", keyword: "minLength", isMin: true },
    o.minLength,
    n.minLength,
  );
  limit(
    pair,
    out,
    { ...common, kind: "max-length", keyword: "maxLength", isMin: false },
    o.maxLength,
    n.maxLength,
  );

  const a = o.pattern;
  const b = n.pattern;
  if (a !== b) {
    // a and b differ here, so each branch's second test (and the last branch's whole test) always holds.
    // Stryker disable next-line ConditionalExpression: b is set wherever a is not (see above)
    if (a === undefined && b !== undefined) {
      const backward = matchesEverything(b) ? "ok" : tighter(pair.old, STRING, matches(b));
      out.push(
        mk("pattern-added", at(n.loc, "pattern"), backward, "ok", `NEW requires strings to match /${b}/`),
      );
    } else if (
      // Stryker disable next-line ConditionalExpression: a is set on this branch (see above)
      a !== undefined &&
      b === undefined
    ) {
      const forward = matchesEverything(a) ? "ok" : tighter(pair.new, STRING, matches(a));
      out.push(
        mk("pattern-removed", at(o.loc, "pattern"), "ok", forward, `OLD required strings to match /${a}/`),
      );
    } else if (
      // Stryker disable next-line ConditionalExpression,LogicalOperator: both are set on this branch (see above)
      a !== undefined &&
      // Stryker disable next-line ConditionalExpression: both are set on this branch (see above)
      b !== undefined
    ) {
      const backward = matchesEverything(b) ? "ok" : tighter(pair.old, STRING, matches(b), "undecided");
      const forward = matchesEverything(a) ? "ok" : tighter(pair.new, STRING, matches(a), "undecided");
      const reason = `pattern /${a}/ -> /${b}/: regular expressions are not compared for inclusion`;
      out.push(mk("pattern-changed", at(n.loc, "pattern"), backward, forward, reason));
    }
  }

  // ajv-formats asserts formats on strings, and int32/int64/float/double on numbers: only where the
  // engine asserts formats at all (drafts 04 to 07 with --assert-formats); elsewhere an annotation.
  const family = STRING | NUMBER;
  const f = o.loc.doc.assertsFormats ? o.format : undefined;
  const g = n.loc.doc.assertsFormats ? n.format : undefined;
  // Each side is read under its own dialect: the same format asserted on one side only is a change.
  if (o.format === n.format && f === g) return;
  if (f === g) {
    const kind =
      o.format === undefined ? "format-added" : n.format === undefined ? "format-removed" : "format-changed";
    const path = n.format === undefined ? at(o.loc, "format") : at(n.loc, "format");
    const reason = `format ${o.format ?? "none"} -> ${n.format ?? "none"}: an annotation here (formats are asserted only in drafts 04 to 07 with --assert-formats)`;
    out.push(mk(kind, path, "ok", "ok", reason));
    return;
  }
  const unknown = (): undefined => undefined;
  if (f === undefined) {
    const backward = tighter(pair.old, family, unknown);
    out.push(mk("format-added", at(n.loc, "format"), backward, "ok", `NEW asserts format ${g}`));
  } else if (g === undefined) {
    const forward = tighter(pair.new, family, unknown);
    out.push(mk("format-removed", at(o.loc, "format"), "ok", forward, `OLD asserted format ${f}`));
  } else {
    const backward = tighter(pair.old, family, unknown, "undecided");
    const forward = tighter(pair.new, family, unknown, "undecided");
    const reason = `format ${f} -> ${g}: formats are not compared structurally`;
    out.push(mk("format-changed", at(n.loc, "format"), backward, forward, reason));
  }
};
