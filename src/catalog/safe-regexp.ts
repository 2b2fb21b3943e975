/**
 * Patterns the native, backtracking RegExp runs in linear time anyway, so they keep its speed (an
 * order of magnitude above re2js): anchored with `^`, then a plain sequence of single-character
 * atoms (literals, classes, `\d`, `.`…), each optionally quantified, with no group, alternation or
 * assertion, where every atom that repeats a variable number of times can never match a character
 * that could come next (the atoms up to the next mandatory one). Such a pattern has at most one way to
 * match from its one starting point: a character given back on failure fails the next atom at once,
 * so the work is bounded by the string's length times the pattern's. `^[0-9a-f]{8}-[0-9a-f]{4}$`,
 * `^\d{4}-\d{2}-\d{2}$` and `^[a-z][a-z0-9_-]*$` are such patterns; `^(a+)+$`, `^\d+\d*$` and
 * `^[a-z.]+\.com$` are not, and run on the linear engine. Anything the check does not understand is
 * left to the linear engine: it errs only towards the slower, safe side.
 */

/** A set of code points as sorted, disjoint, inclusive ranges. */
type CharSet = ReadonlyArray<readonly [number, number]>;

const MAX = 0x10ffff;
const ANY: CharSet = [[0, MAX]];
const DIGIT: CharSet = [[0x30, 0x39]];
const WORD: CharSet = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
const SPACE: CharSet = [
  [0x9, 0xd],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
const LINE_TERMINATORS: CharSet = [
  [0xa, 0xa],
  [0xd, 0xd],
  [0x2028, 0x2029],
];
const ESCAPED: Record<string, number> = { n: 0xa, r: 0xd, t: 0x9, v: 0xb, f: 0xc };
const SYNTAX = new Set("^$\\.*+?()[]{}|/-");

interface Item {
  readonly set: CharSet;
  readonly min: number;
  readonly max: number;
}

class NotSimple extends Error {}

/** Whether the native engine runs this pattern in time linear in the string (see above). */
export function isDeterministicSequence(pattern: string, unicode: boolean): boolean {
  if (!pattern.startsWith("^") || /[\ud800-\udfff]/.test(pattern)) return false;
  let items: Item[];
  try {
    items = parseSequence(pattern.slice(1), unicode);
  } catch (error) {
    if (error instanceof NotSimple) return false;
    throw error;
  }
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (item.min === item.max) continue;
    for (let j = i + 1; j < items.length; j++) {
      if (intersects(item.set, items[j]!.set)) return false;
      if (items[j]!.min > 0) break;
    }
  }
  return true;
}

function parseSequence(body: string, unicode: boolean): Item[] {
  const chars = [...body];
  const items: Item[] = [];
  let at = 0;
  while (at < chars.length) {
    const c = chars[at++]!;
    let set: CharSet;
    if (c === "$") {
      if (at !== chars.length) throw new NotSimple();
      break;
    } else if (c === "\\") {
      const escaped = chars[at++];
      if (escaped === undefined) throw new NotSimple();
      if (unicode && (escaped === "p" || escaped === "P")) {
        at = propertyEnd(chars, at);
        set = ANY;
      } else set = escapeSet(escaped, unicode);
    } else if (c === "[") {
      const close = classEnd(chars, at);
      set = classSet(chars.slice(at, close), unicode);
      at = close + 1;
    } else if (c === ".") {
      set = complement(LINE_TERMINATORS);
    } else if ("()|^*+?{}]".includes(c)) {
      throw new NotSimple();
    } else {
      set = single(c.codePointAt(0)!);
    }
    const [min, max, length] = quantifier(chars, at);
    at += length;
    items.push({ set, min, max });
  }
  return items;
}

/** `[min, max, characters read]` of the quantifier at `at` (none: exactly once). Lazy ones are refused. */
function quantifier(chars: readonly string[], at: number): [number, number, number] {
  const c = chars[at];
  let result: [number, number, number];
  if (c === "*") result = [0, Infinity, 1];
  else if (c === "+") result = [1, Infinity, 1];
  else if (c === "?") result = [0, 1, 1];
  else if (c === "{") {
    const match = /^\{(\d+)(,(\d*))?\}/.exec(chars.slice(at, at + 24).join(""));
    if (!match) throw new NotSimple();
    const min = Number(match[1]);
    const max = match[2] === undefined ? min : match[3] === "" ? Infinity : Number(match[3]);
    result = [min, max, match[0].length];
  } else return [1, 1, 0];
  if (chars[at + result[2]] === "?") throw new NotSimple();
  return result;
}

function classEnd(chars: readonly string[], from: number): number {
  for (let at = from; at < chars.length; at++) {
    if (chars[at] === "\\") at++;
    else if (chars[at] === "]") return at;
  }
  throw new NotSimple();
}

function classSet(body: readonly string[], unicode: boolean): CharSet {
  let negated = false;
  let at = 0;
  if (body[0] === "^") {
    negated = true;
    at = 1;
  }
  const atoms: Array<CharSet | "-"> = [];
  while (at < body.length) {
    const c = body[at++]!;
    if (c === "\\") {
      const escaped = body[at++] ?? "";
      if (unicode && (escaped === "p" || escaped === "P")) {
        at = propertyEnd(body, at);
        atoms.push(ANY);
      } else atoms.push(escapeSet(escaped, unicode, true));
    } else if (c === "-") atoms.push("-");
    else atoms.push(single(c.codePointAt(0)!));
  }
  const ranges: Array<readonly [number, number]> = [];
  for (let i = 0; i < atoms.length; i++) {
    const atom = atoms[i]!;
    const end = atoms[i + 2];
    if (atom !== "-" && atoms[i + 1] === "-" && end !== undefined) {
      const to = end === "-" ? single(0x2d) : end;
      // A range between two characters; between a class escape and anything, not a range at all.
      if (!isSingle(atom) || !isSingle(to)) throw new NotSimple();
      ranges.push([atom[0]![0], to[0]![0]]);
      i += 2;
    } else ranges.push(...(atom === "-" ? single(0x2d) : atom));
  }
  const set = normalize(ranges);
  return negated ? complement(set) : set;
}

function escapeSet(c: string, unicode: boolean, inClass = false): CharSet {
  if (c === "d") return DIGIT;
  if (c === "D") return complement(DIGIT);
  if (c === "w") return WORD;
  if (c === "W") return complement(WORD);
  if (c === "s") return SPACE;
  if (c === "S") return complement(SPACE);
  if (c in ESCAPED) return single(ESCAPED[c]!);
  if (inClass && c === "b") return single(0x8);
  // Hex, unicode, control and octal escapes, backreferences, \b and \B: left to the linear engine.
  if (/[0-9xucbBk]/.test(c)) throw new NotSimple();
  if (unicode && !SYNTAX.has(c)) throw new NotSimple();
  return single(c.codePointAt(0)!);
}

/** Past the `{…}` of a property escape; its set is taken as any character, which errs safe. */
function propertyEnd(chars: readonly string[], at: number): number {
  if (chars[at] !== "{") throw new NotSimple();
  const close = chars.indexOf("}", at);
  if (close < 0) throw new NotSimple();
  return close + 1;
}

function single(code: number): CharSet {
  return [[code, code]];
}

function isSingle(set: CharSet): boolean {
  return set.length === 1 && set[0]![0] === set[0]![1];
}

function normalize(ranges: ReadonlyArray<readonly [number, number]>): CharSet {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const [lo, hi] of sorted) {
    if (lo > hi) throw new NotSimple();
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

function complement(set: CharSet): CharSet {
  const out: Array<[number, number]> = [];
  let next = 0;
  for (const [lo, hi] of set) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX) out.push([next, MAX]);
  return out;
}

function intersects(a: CharSet, b: CharSet): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const [alo, ahi] = a[i]!;
    const [blo, bhi] = b[j]!;
    if (alo <= bhi && blo <= ahi) return true;
    if (ahi < bhi) i++;
    else j++;
  }
  return false;
}
