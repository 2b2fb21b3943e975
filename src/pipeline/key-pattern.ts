import { RE2JS } from "re2js";
import { toLinearSyntax } from "../catalog/linear-regexp.js";
import { compilePattern } from "../catalog/regexp.js";
import { isDeterministicSequence } from "../catalog/safe-regexp.js";
import { SchemawatchError } from "../errors.js";

/**
 * The longest key (in bytes) a `keyPattern` is run on. The linear engine costs about half a
 * microsecond per character on a hostile pattern, so this bounds one key to a few milliseconds,
 * well inside the validation's time budget, however large a key Kafka lets a producer send. A
 * producer's name is a short label (64 characters at most), which a key this long never needs.
 */
export const MAX_KEY_BYTES = 16_384;

/** What a `keyPattern` takes from a key: its first capture group, else the whole match. */
export interface KeyPattern {
  /** Which engine runs it: `native` only where it cannot backtrack (see `compileKeyPattern`). */
  readonly engine: "native" | "re2";
  producerOf(key: string): string | undefined;
}

/** Where RE2 sees a lone UTF-16 code unit (as `LinearRegExp` maps them): U+F0000 up. */
const STAND_IN = 0xf0000 - 0xd800;
const SURROGATE = /[\ud800-\udfff]/;
const SURROGATES = /[\ud800-\udfff]/g;
const STAND_INS = /[\u{f0000}-\u{f07ff}]/gu;

/**
 * Compiles a `keyPattern` as the config gives it (read as `new RegExp(pattern)`, without flags) so
 * that it runs in time linear in the key. On the native engine when the pattern, without its plain
 * groups, is an anchored sequence that cannot backtrack (`^([a-z]+):`, `^([^/]+)/`): a capture
 * group that is not quantified and holds no alternative changes nothing of how a backtracking
 * engine searches, only what it saves, and the native engine extracts a group some 30 times faster
 * than re2js (0.1 µs against 4 µs on an 18-character key). Else on RE2 with ECMA-262's meaning.
 * The config loader has refused the patterns neither can run (lookaround, backreferences): one
 * reaching here is a caller's bug.
 */
export function compileKeyPattern(pattern: string): KeyPattern {
  const compiled = compilePattern(pattern, "");
  if (compiled === undefined || !compiled.linear) {
    throw new SchemawatchError(
      "CONFIG_INVALID",
      `producer.keyPattern /${pattern}/ cannot run in linear time: the config loader should have refused it`,
    );
  }
  const bare = withoutPlainGroups(pattern);
  if (bare !== undefined && isDeterministicSequence(bare, false)) {
    const native = new RegExp(pattern);
    return {
      engine: "native",
      producerOf(key) {
        const match = native.exec(key);
        return match === null ? undefined : (match[1] ?? match[0]);
      },
    };
  }
  const re2 = RE2JS.compile(toLinearSyntax(pattern, false)!);
  const groups = re2.groupCount();
  return {
    engine: "re2",
    producerOf(key) {
      // Read without `u`, a pattern sees an astral character as two code units: RE2 is given each
      // as a character of its own (as LinearRegExp does), and the name gets them back.
      const astral = SURROGATE.test(key);
      const matcher = re2.matcher(astral ? key.replace(SURROGATES, standIn) : key);
      if (!matcher.find()) return undefined;
      const name = (groups > 0 ? matcher.group(1) : null) ?? matcher.group(0)!;
      return astral ? name.replace(STAND_INS, fromStandIn) : name;
    },
  };
}

const standIn = (unit: string): string => String.fromCodePoint(STAND_IN + unit.charCodeAt(0));
const fromStandIn = (char: string): string => String.fromCharCode(char.codePointAt(0)! - STAND_IN);

/**
 * The pattern with its plain groups taken out (`(…)`, `(?:…)`, `(?<name>…)` not followed by a
 * quantifier, with no alternative inside), or undefined when it has any other group, an
 * alternative, or a backreference. Classes and escapes are copied as they are.
 */
export function withoutPlainGroups(pattern: string): string | undefined {
  let out = "";
  let open = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "\\") {
      const next = pattern[i + 1];
      if (next === undefined || /[1-9k]/.test(next)) return undefined;
      out += c + next;
      i++;
    } else if (c === "[") {
      let end = i + 1;
      if (pattern[end] === "^") end++;
      if (pattern[end] === "]") end++;
      for (; end < pattern.length && pattern[end] !== "]"; end++) if (pattern[end] === "\\") end++;
      if (end >= pattern.length) return undefined;
      out += pattern.slice(i, end + 1);
      i = end;
    } else if (c === "(") {
      if (pattern[i + 1] === "?") {
        if (pattern[i + 2] === ":") i += 2;
        else if (pattern[i + 2] === "<" && /[A-Za-z_$]/.test(pattern[i + 3] ?? "")) {
          const close = pattern.indexOf(">", i);
          if (close < 0) return undefined;
          i = close;
        } else return undefined;
      }
      open++;
    } else if (c === ")") {
      const next = pattern[i + 1];
      if (open === 0 || (next !== undefined && "*+?{".includes(next))) return undefined;
      open--;
    } else if (c === "|") {
      return undefined;
    } else {
      out += c;
    }
  }
  return open === 0 ? out : undefined;
}
