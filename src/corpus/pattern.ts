/**
 * A short string that a simple regular expression matches: literals, escapes (`\d`, `\w`, `\s` and
 * their negations), `.`, character classes, groups with alternatives (the first is taken) and the
 * quantifiers `?`, `*`, `+`, `{n}`, `{n,}` and `{n,m}`. Lookarounds, backreferences and Unicode
 * property escapes give up (undefined). The caller tests the result against the pattern either way.
 */
export function sampleForPattern(pattern: string, minLength = 0): string | undefined {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, "u");
  } catch {
    return undefined;
  }
  const parser = new Parser(pattern);
  let sample: string | undefined;
  try {
    sample = parser.alternatives();
  } catch {
    return undefined;
  }
  if (sample === undefined || parser.position !== pattern.length) return undefined;
  // An unanchored end accepts anything after the match, which is the simplest way to meet minLength.
  const length = [...sample].length;
  if (length < minLength && !pattern.endsWith("$")) sample += "x".repeat(minLength - length);
  return regex.test(sample) ? sample : undefined;
}

const CLASS_CANDIDATES = ["a", "0", "A", "x", "1", "-", "_", " ", ".", "@", "+"];

const ESCAPES: Record<string, string> = { d: "0", D: "a", w: "a", W: "-", s: " ", S: "a" };

class Parser {
  position = 0;
  readonly #text: string;

  constructor(text: string) {
    this.#text = text;
  }

  #peek(): string | undefined {
    return this.#text[this.position];
  }

  /** `a|b|c`: the sample of the first alternative; the others are parsed and dropped. */
  alternatives(): string | undefined {
    const first = this.#sequence();
    while (this.#peek() === "|") {
      this.position++;
      if (this.#sequence() === undefined) return undefined;
    }
    return first;
  }

  #sequence(): string | undefined {
    let out = "";
    for (let next = this.#peek(); next !== undefined && next !== "|" && next !== ")"; next = this.#peek()) {
      const atom = this.#atom();
      if (atom === undefined) return undefined;
      const times = this.#quantifier();
      if (times === undefined) return undefined;
      out += atom.repeat(times);
    }
    return out;
  }

  #atom(): string | undefined {
    const char = this.#text[this.position++];
    switch (char) {
      case "^":
      case "$":
        return "";
      case ".":
        return "a";
      case "(":
        return this.#group();
      case "[":
        return this.#class();
      case "\\":
        return this.#escape();
      case "*":
      case "+":
      case "?":
      case "{":
        return undefined;
      default:
        return char;
    }
  }

  #group(): string | undefined {
    if (this.#peek() === "?") {
      const kind = this.#text.slice(this.position, this.position + 2);
      if (kind === "?:") this.position += 2;
      else if (kind === "?<" && !/^\?<[=!]/.test(this.#text.slice(this.position))) {
        const end = this.#text.indexOf(">", this.position);
        if (end < 0) return undefined;
        this.position = end + 1;
      } else return undefined;
    }
    const inner = this.alternatives();
    if (this.#text[this.position++] !== ")") return undefined;
    return inner;
  }

  #class(): string | undefined {
    const start = this.position - 1;
    let i = this.position;
    if (this.#text[i] === "^") i++;
    if (this.#text[i] === "]") i++;
    for (; i < this.#text.length && this.#text[i] !== "]"; i++) if (this.#text[i] === "\\") i++;
    if (i >= this.#text.length) return undefined;
    this.position = i + 1;
    const single = new RegExp(`^${this.#text.slice(start, i + 1)}$`, "u");
    return CLASS_CANDIDATES.find((c) => single.test(c));
  }

  #escape(): string | undefined {
    const char = this.#text[this.position++];
    if (char === undefined) return undefined;
    if (char in ESCAPES) return ESCAPES[char];
    if (char === "b" || char === "B") return char === "b" ? "" : undefined;
    if (/[1-9pPk]/.test(char)) return undefined;
    if (char === "n") return "\n";
    if (char === "t") return "\t";
    return /[A-Za-z0-9]/.test(char) ? undefined : char;
  }

  /** How many times the atom before it is repeated in the sample: the least the quantifier allows. */
  #quantifier(): number | undefined {
    const char = this.#peek();
    let times = 1;
    if (char === "*" || char === "?") {
      times = 0;
      this.position++;
    } else if (char === "+") {
      this.position++;
    } else if (char === "{") {
      const match = /^\{(\d+)(,\d*)?\}/.exec(this.#text.slice(this.position));
      if (!match) return undefined;
      times = Number(match[1]);
      this.position += match[0].length;
    } else {
      return 1;
    }
    if (this.#peek() === "?") this.position++;
    return times;
  }
}
