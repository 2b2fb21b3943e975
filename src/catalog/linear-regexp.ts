/**
 * ECMA-262 patterns rewritten for RE2's syntax (re2js), so that `pattern` and `patternProperties` run
 * in time linear in the string however the pattern nests its quantifiers. The rewrite keeps ECMA's
 * meaning where the two differ (`.` and `\s` are wider in ECMA, `\b` in a class is a backspace, `[]`
 * matches nothing, identity escapes such as `\_` are literals) and gives up (undefined) on what RE2
 * cannot run at all: lookaround, backreferences, and property escapes it has no name for. Every literal
 * is written as `\x{…}`, so no character can mean something else to RE2 than it meant to ECMA.
 */

/** ECMA's WhiteSpace and LineTerminator: what `\s` matches (RE2's `\s` is only `[\t\n\f\r ]`). */
const SPACE =
  "\\x{9}-\\x{d}\\x{20}\\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}";
/** ECMA's `.` without the s flag: anything but a line terminator (RE2's `.` excludes only `\n`). */
const DOT = "[^\\x{a}\\x{d}\\x{2028}\\x{2029}]";
const ANY = "\\x{0}-\\x{10ffff}";
/** The general categories both engines name alike; other property names are left to the native engine. */
const CATEGORY = /^(?:[CLMNPSZ]|C[cfos]|L[lmotu]|M[cen]|N[dlo]|P[cdefios]|S[ckmo]|Z[lps])$/;
const QUANTIFIER = /^\{(\d+)(?:,(\d*))?\}/;

const hex = (code: number): string => `\\x{${code.toString(16)}}`;

/** One class member: a code point, or a set (`\d`, `\p{L}`, the whitespace list) written for RE2. */
type ClassAtom = { readonly code: number } | { readonly set: string };

class GiveUp extends Error {}

/**
 * The RE2 form of an ECMA pattern, or undefined when RE2 cannot run it with the same meaning.
 * `unicode`: the pattern compiles (and is read) with the `u` flag; without it, the pattern is read in
 * the older syntax, and the caller must leave strings with surrogates to the native engine, which
 * sees them as two code units where RE2 sees one code point.
 */
export function toLinearSyntax(pattern: string, unicode: boolean): string | undefined {
  // Without `u`, an astral literal is two code units to ECMA: only the native engine reads it so.
  if (!unicode && /[\ud800-\udfff]/.test(pattern)) return undefined;
  try {
    return new Translation(pattern, unicode).run();
  } catch (error) {
    if (error instanceof GiveUp) return undefined;
    throw error;
  }
}

class Translation {
  readonly #chars: string[];
  readonly #unicode: boolean;
  #at = 0;

  constructor(pattern: string, unicode: boolean) {
    this.#chars = unicode ? [...pattern] : pattern.split("");
    this.#unicode = unicode;
  }

  run(): string {
    let out = "";
    while (this.#at < this.#chars.length) out += this.#term();
    return out;
  }

  #peek(offset = 0): string | undefined {
    return this.#chars[this.#at + offset];
  }

  #rest(): string {
    return this.#chars.slice(this.#at, this.#at + 24).join("");
  }

  #term(): string {
    const c = this.#chars[this.#at++]!;
    switch (c) {
      case "\\":
        return this.#escape();
      case "(":
        return this.#group();
      case "[":
        return this.#class();
      case ".":
        return DOT;
      case ")":
      case "^":
      case "$":
      case "|":
        return c;
      case "*":
      case "+":
      case "?":
        return this.#lazy(c);
      case "{": {
        const quantifier = QUANTIFIER.exec(`{${this.#rest()}`);
        if (!quantifier) return hex(0x7b);
        this.#at += quantifier[0].length - 1;
        return this.#lazy(quantifier[0]);
      }
      default:
        return literal(c);
    }
  }

  #lazy(quantifier: string): string {
    if (this.#peek() !== "?") return quantifier;
    this.#at++;
    return `${quantifier}?`;
  }

  #group(): string {
    if (this.#peek() !== "?") return "(";
    const kind = this.#peek(1);
    if (kind === ":") {
      this.#at += 2;
      return "(?:";
    }
    if (kind === "<" && this.#peek(2) !== "=" && this.#peek(2) !== "!") {
      const close = this.#chars.indexOf(">", this.#at);
      const name = this.#chars.slice(this.#at + 2, close).join("");
      if (close < 0 || !/^[A-Za-z_]\w*$/.test(name)) throw new GiveUp();
      this.#at = close + 1;
      return `(?P<${name}>`;
    }
    // Lookahead and lookbehind: RE2 has neither.
    throw new GiveUp();
  }

  #escape(): string {
    const atom = this.#escapeAtom(false);
    if ("code" in atom) return hex(atom.code);
    return atom.set;
  }

  /** The escape after a backslash, inside a class or out; sets outside a class come bracketed. */
  #escapeAtom(inClass: boolean): ClassAtom {
    const c = this.#chars[this.#at++];
    if (c === undefined) throw new GiveUp();
    switch (c) {
      case "d":
      case "D":
      case "w":
      case "W":
        return { set: `\\${c}` };
      case "s":
        return { set: inClass ? SPACE : `[${SPACE}]` };
      case "S":
        if (inClass) throw new GiveUp();
        return { set: `[^${SPACE}]` };
      case "b":
      case "B":
        if (inClass) return c === "b" ? { code: 8 } : this.#identity(c);
        return { set: `\\${c}` };
      case "n":
        return { code: 0xa };
      case "r":
        return { code: 0xd };
      case "t":
        return { code: 0x9 };
      case "v":
        return { code: 0xb };
      case "f":
        return { code: 0xc };
      case "0":
        if (/\d/.test(this.#peek() ?? "")) throw new GiveUp();
        return { code: 0 };
      case "x":
        return this.#hexEscape(2) ?? this.#identity(c);
      case "u":
        return this.#unicodeEscape() ?? this.#identity(c);
      case "c": {
        const letter = this.#peek();
        if (letter === undefined || !/[A-Za-z]/.test(letter)) throw new GiveUp();
        this.#at++;
        return { code: letter.charCodeAt(0) % 32 };
      }
      case "p":
      case "P":
        if (!this.#unicode) return { code: c.codePointAt(0)! };
        return { set: this.#property(c) };
      case "k":
        throw new GiveUp();
      default:
        // Backreferences (and, without `u`, octal escapes).
        if (/[1-9]/.test(c)) throw new GiveUp();
        return this.#identity(c);
    }
  }

  /** `\_` without `u` (and `\.` `\/` `\-` with it) is the character itself. */
  #identity(c: string): ClassAtom {
    return { code: c.codePointAt(0)! };
  }

  #hexEscape(digits: number): ClassAtom | undefined {
    const text = this.#chars.slice(this.#at, this.#at + digits).join("");
    if (!new RegExp(`^[0-9A-Fa-f]{${digits}}$`).test(text)) return undefined;
    this.#at += digits;
    return { code: parseInt(text, 16) };
  }

  #unicodeEscape(): ClassAtom | undefined {
    if (this.#unicode && this.#peek() === "{") {
      const close = this.#chars.indexOf("}", this.#at);
      const text = this.#chars.slice(this.#at + 1, close).join("");
      if (close < 0 || !/^[0-9A-Fa-f]+$/.test(text)) throw new GiveUp();
      this.#at = close + 1;
      return { code: parseInt(text, 16) };
    }
    const unit = this.#hexEscape(4);
    if (!unit || !("code" in unit)) return unit;
    const high = unit.code;
    if (high < 0xd800 || high > 0xdfff) return unit;
    // Without `u` a surrogate is a code unit of its own, which RE2 cannot match as such.
    if (!this.#unicode) throw new GiveUp();
    if (high <= 0xdbff && this.#peek() === "\\" && this.#peek(1) === "u") {
      const at = this.#at;
      this.#at += 2;
      const low = this.#hexEscape(4);
      if (low && "code" in low && low.code >= 0xdc00 && low.code <= 0xdfff)
        return { code: 0x10000 + ((high - 0xd800) << 10) + (low.code - 0xdc00) };
      this.#at = at;
    }
    return unit;
  }

  /** `\p{…}` with `u`: the general categories and scripts RE2 names the same way. */
  #property(c: string): string {
    if (this.#peek() !== "{") throw new GiveUp();
    const close = this.#chars.indexOf("}", this.#at);
    if (close < 0) throw new GiveUp();
    const body = this.#chars.slice(this.#at + 1, close).join("");
    this.#at = close + 1;
    const [key, value] = body.includes("=") ? body.split("=") : [undefined, body];
    let name: string | undefined;
    if (key === undefined || key === "gc" || key === "General_Category")
      name = value !== undefined && CATEGORY.test(value) ? value : undefined;
    else if (key === "sc" || key === "Script") name = value;
    if (name === undefined || !/^[A-Za-z_]+$/.test(name)) throw new GiveUp();
    return `\\${c}{${name}}`;
  }

  #class(): string {
    let negated = false;
    if (this.#peek() === "^") {
      negated = true;
      this.#at++;
    }
    const atoms: Array<ClassAtom | "-"> = [];
    for (;;) {
      const c = this.#chars[this.#at++];
      if (c === undefined) throw new GiveUp();
      if (c === "]") break;
      if (c === "\\") atoms.push(this.#escapeAtom(true));
      else if (c === "-") atoms.push("-");
      else atoms.push({ code: c.codePointAt(0)! });
    }
    // `[]` matches nothing and `[^]` anything; RE2 refuses an empty class.
    if (atoms.length === 0) return negated ? `[${ANY}]` : `[^${ANY}]`;
    let body = "";
    for (let i = 0; i < atoms.length; i++) {
      const atom = atoms[i]!;
      const next = atoms[i + 1];
      const third = atoms[i + 2];
      // A range may end in `-` itself: `[!--]` is `!` to `-`.
      const after = third === "-" ? { code: 0x2d } : third;
      if (atom !== "-" && next === "-" && after !== undefined) {
        if ("code" in atom && "code" in after) {
          body += `${hex(atom.code)}-${hex(after.code)}`;
          i += 2;
          continue;
        }
      }
      body += atom === "-" ? hex(0x2d) : "code" in atom ? hex(atom.code) : atom.set;
    }
    return `[${negated ? "^" : ""}${body}]`;
  }
}

function literal(c: string): string {
  return /^[A-Za-z0-9]$/.test(c) ? c : hex(c.codePointAt(0)!);
}
