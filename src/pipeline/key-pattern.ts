import { RE2JS } from "re2js";
import { toLinearSyntax } from "../catalog/linear-regexp.js";
import { compilePattern } from "../catalog/regexp.js";
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
  producerOf(key: string): string | undefined;
}

/** Where RE2 sees a lone UTF-16 code unit (as `LinearRegExp` maps them): U+F0000 up. */
const STAND_IN = 0xf0000 - 0xd800;
const SURROGATE = /[\ud800-\udfff]/;
const SURROGATES = /[\ud800-\udfff]/g;
const STAND_INS = /[\u{f0000}-\u{f07ff}]/gu;

/**
 * Compiles a `keyPattern` as the config gives it (read as `new RegExp(pattern)`, without flags) so
 * that it runs in time linear in the key: on the native engine when the pattern is an anchored
 * sequence that cannot backtrack, else on RE2 with ECMA-262's meaning (`compilePattern`, as the
 * schemas' patterns). The config loader has refused the patterns neither can run (lookaround,
 * backreferences): one reaching here is a caller's bug.
 */
export function compileKeyPattern(pattern: string): KeyPattern {
  const compiled = compilePattern(pattern, "");
  if (compiled === undefined || !compiled.linear) {
    throw new SchemawatchError(
      "CONFIG_INVALID",
      `producer.keyPattern /${pattern}/ cannot run in linear time: the config loader should have refused it`,
    );
  }
  const native = compiled.matcher;
  if (native instanceof RegExp) {
    // A deterministic sequence has no group: the whole match names the producer.
    return { producerOf: (key) => native.exec(key)?.[0] };
  }
  const re2 = RE2JS.compile(toLinearSyntax(pattern, false)!);
  return {
    producerOf(key) {
      // Read without `u`, a pattern sees an astral character as two code units: RE2 is given each
      // as a character of its own (as LinearRegExp does), and the name gets them back.
      const astral = SURROGATE.test(key);
      const match = re2.exec(astral ? key.replace(SURROGATES, standIn) : key) as Array<
        string | undefined
      > | null;
      if (match === null) return undefined;
      const name = match[1] ?? match[0]!;
      return astral ? name.replace(STAND_INS, fromStandIn) : name;
    },
  };
}

const standIn = (unit: string): string => String.fromCodePoint(STAND_IN + unit.charCodeAt(0));
const fromStandIn = (char: string): string => String.fromCharCode(char.codePointAt(0)! - STAND_IN);
