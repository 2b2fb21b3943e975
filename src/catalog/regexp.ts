import { RE2JS } from "re2js";
import { toLinearSyntax } from "./linear-regexp.js";
import { isDeterministicSequence } from "./safe-regexp.js";
import { escapePointer, walkSchemas } from "./walk.js";

/**
 * A `pattern` as the engine compiles it: with the `u` flag first (so `\p{L}` and astral characters
 * work), and without it when the pattern is only valid in the older syntax (`[a-z\_]`, `\:`), which
 * schemas written for Java or Python registries often use. Undefined when it is no regular expression.
 */
export function schemaRegExp(pattern: string, flags = "u"): RegExp | undefined {
  try {
    return new RegExp(pattern, flags);
  } catch {
    if (!flags.includes("u")) return undefined;
    try {
      return new RegExp(pattern, flags.replace("u", ""));
    } catch {
      return undefined;
    }
  }
}

/** A pattern no engine mode can compile; the compiler locates it in the schema for its message. */
export class PatternError extends Error {
  constructor(readonly pattern: string) {
    super(`/${pattern}/ is not a regular expression`);
    this.name = "PatternError";
  }
}

/** What ajv needs of a compiled pattern. */
export interface PatternMatcher {
  test(text: string): boolean;
}

const SURROGATE = /[\ud800-\udfff]/;
const SURROGATES = /[\ud800-\udfff]/g;
/** Where a code unit stands to RE2: U+F0000 up, which no pattern read without `u` can name. */
const STAND_IN = 0xf0000 - 0xd800;
const standIn = (unit: string): string => String.fromCodePoint(STAND_IN + unit.charCodeAt(0));

/**
 * A pattern run by RE2 (re2js): time linear in the string, whatever the pattern nests. The native
 * RegExp decided the pattern's mode. Read without `u`, a pattern sees an astral character as two code
 * units (`.` and `[^,]` match each): RE2 is then given each surrogate as a character of its own, a
 * private-use code point that such a pattern can only match with `.` or a negated class, as ECMA does.
 */
export class LinearRegExp implements PatternMatcher {
  readonly #re2: RE2JS;
  readonly #native: RegExp;
  readonly #codeUnits: boolean;

  constructor(re2: RE2JS, native: RegExp) {
    this.#re2 = re2;
    this.#native = native;
    this.#codeUnits = !native.unicode;
  }

  get source(): string {
    return this.#native.source;
  }

  /** ajv shares one compiled pattern per `toString()`: it must differ as RegExp's does. */
  toString(): string {
    return this.#native.toString();
  }

  test(text: string): boolean {
    if (this.#codeUnits && SURROGATE.test(text)) return this.#re2.test(text.replace(SURROGATES, standIn));
    return this.#re2.test(text);
  }
}

/** A schema pattern compiled for validation, and whether its running time is linear in the string. */
export interface CompiledPattern {
  readonly matcher: LinearRegExp | RegExp;
  readonly linear: boolean;
}

/**
 * A schema pattern compiled for validation. The native RegExp when it runs in linear time anyway (an
 * anchored sequence of single-character atoms that cannot overlap, `isDeterministicSequence`): it is
 * an order of magnitude faster than re2js. Else RE2 when it can run the pattern with ECMA-262's
 * meaning; else (lookaround, backreferences) the native RegExp again, not linear, whose running time
 * the validation's time budget bounds. Undefined when it is no regular expression.
 */
export function compilePattern(pattern: string, flags = "u"): CompiledPattern | undefined {
  const native = schemaRegExp(pattern, flags);
  if (!native) return undefined;
  if (isDeterministicSequence(pattern, native.unicode)) return { matcher: native, linear: true };
  const syntax = toLinearSyntax(pattern, native.unicode);
  if (syntax === undefined) return { matcher: native, linear: false };
  try {
    return { matcher: new LinearRegExp(RE2JS.compile(syntax), native), linear: true };
  } catch {
    // RE2's own limits (a repeat count above 1000, a script it has no table for).
    return { matcher: native, linear: false };
  }
}

/** `compilePattern`'s matcher. */
export function patternMatcher(pattern: string, flags = "u"): LinearRegExp | RegExp | undefined {
  return compilePattern(pattern, flags)?.matcher;
}

/** Whether a schema pattern runs in time linear in the string (false: it may backtrack). */
export function isLinearPattern(pattern: string): boolean {
  return compilePattern(pattern)?.linear ?? false;
}

/** The `code.regExp` engine handed to ajv: `patternMatcher`, throwing a PatternError for bad patterns. */
export function ajvRegExp(): ((pattern: string, flags: string) => PatternMatcher) & { code: string } {
  const engine = (pattern: string, flags: string): PatternMatcher => {
    const matcher = patternMatcher(pattern, flags);
    if (!matcher) throw new PatternError(pattern);
    return matcher;
  };
  // Only used when ajv generates standalone code, which schemawatch never does.
  return Object.assign(engine, { code: "new RegExp" });
}

/** A pattern of a schema that runs on the backtracking engine, and where it is (a JSON Pointer). */
export interface BacktrackingPattern {
  readonly pointer: string;
  readonly pattern: string;
}

/**
 * The `pattern` and `patternProperties` of a schema that the linear engine cannot run: the only ones
 * whose running time can explode with the string, so the suspects when a validation runs out of time.
 */
export function backtrackingPatterns(schema: unknown): BacktrackingPattern[] {
  const found: BacktrackingPattern[] = [];
  walkSchemas(schema, (node, pointer) => {
    const pattern = node["pattern"];
    if (typeof pattern === "string" && !isLinearPattern(pattern))
      found.push({ pointer: `${pointer}/pattern`, pattern });
    const map = node["patternProperties"];
    if (typeof map !== "object" || map === null || Array.isArray(map)) return;
    for (const key of Object.keys(map))
      if (!isLinearPattern(key))
        found.push({ pointer: `${pointer}/patternProperties/${escapePointer(key)}`, pattern: key });
  });
  return found;
}
