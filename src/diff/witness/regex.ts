import { schemaRegExp } from "../../catalog/regexp.js";

/**
 * Strings that a `pattern` matches, several and varied: each variant takes other alternatives, other
 * repetition counts and other characters of a class. Only strings the engine's own regular expression
 * accepts are returned, so an unsupported construct costs samples, never correctness.
 */
export function patternSamples(pattern: string, count = 6): string[] {
  const regExp = schemaRegExp(pattern);
  if (!regExp) return [];
  let tree: Alt;
  try {
    const parser = new Parser(pattern);
    tree = parser.alternatives();
    // Stryker disable next-line ConditionalExpression,ArrayDeclaration: only an unmatched ")" stops the parser early, and no engine compiles that
    if (parser.at < pattern.length) return [];
  } catch {
    return [];
  }
  const out = new Set<string>();
  for (let variant = 0; variant < count * 3 && out.size < count; variant++) {
    const sample = render(tree, variant, { depth: 0 });
    if (sample !== undefined && regExp.test(sample)) out.add(sample);
  }
  return [...out];
}

interface Alt {
  readonly kind: "alt";
  readonly options: readonly Seq[];
}
interface Seq {
  readonly items: readonly Quantified[];
}
interface Quantified {
  readonly atom: Atom;
  readonly min: number;
  readonly max: number;
}
type Atom =
  | { readonly kind: "chars"; readonly chars: readonly string[] }
  | { readonly kind: "empty" }
  | { readonly kind: "unknown" }
  | Alt;

// Characters tried against a class or an escape such as \w; the class's own characters join them.
const POOL = [..."aZ0_- .x9@+/:A,b=z#!~()[]{}'\"\t\n"];

function classChars(source: string, extra: readonly string[]): string[] {
  const test = schemaRegExp(`^(?:${source})$`);
  if (!test) return [];
  return [...new Set([...extra, ...POOL])].filter((c) => test.test(c));
}

class Parser {
  at = 0;
  constructor(private readonly text: string) {}

  alternatives(): Alt {
    const options = [this.sequence()];
    while (this.text[this.at] === "|") {
      this.at++;
      options.push(this.sequence());
    }
    return { kind: "alt", options };
  }

  private sequence(): Seq {
    const items: Quantified[] = [];
    while (this.at < this.text.length && this.text[this.at] !== "|" && this.text[this.at] !== ")") {
      const atom = this.atom();
      items.push({ atom, ...this.quantifier() });
    }
    return { items };
  }

  private quantifier(): { min: number; max: number } {
    const c = this.text[this.at];
    let result = { min: 1, max: 1 };
    if (c === "*") result = { min: 0, max: Infinity };
    else if (c === "+") result = { min: 1, max: Infinity };
    else if (c === "?") result = { min: 0, max: 1 };
    else if (c === "{") {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(this.text.slice(this.at));
      if (!match) return result;
      const min = Number(match[1]);
      const max = match[2] === undefined ? min : match[3] === "" ? Infinity : Number(match[3]);
      this.at += match[0].length;
      if (this.text[this.at] === "?") this.at++;
      return { min, max };
    } else return result;
    this.at++;
    if (this.text[this.at] === "?") this.at++;
    return result;
  }

  private atom(): Atom {
    const c = this.text[this.at++] as string;
    if (c === "^" || c === "$") return { kind: "empty" };
    if (c === ".") return { kind: "chars", chars: ["a", "x", "0", "-"] };
    if (c === "[") return this.characterClass();
    if (c === "(") return this.group();
    if (c === "\\") return this.escape();
    return { kind: "chars", chars: [c] };
  }

  private characterClass(): Atom {
    const start = this.at - 1;
    const own: string[] = [];
    if (this.text[this.at] === "^") this.at++;
    if (this.text[this.at] === "]") {
      own.push("]");
      this.at++;
    }
    while (this.at < this.text.length && this.text[this.at] !== "]") {
      if (this.text[this.at] === "\\") this.at++;
      own.push(this.text[this.at++] as string);
    }
    this.at++;
    const source = this.text.slice(start, this.at);
    // Ends of a range (a-z) give z and m as well as a: later variants reach them.
    const ranged = own.flatMap((ch, i) => (own[i + 1] === "-" && own[i + 2] ? [ch, own[i + 2]!] : [ch]));
    return { kind: "chars", chars: classChars(source, ranged) };
  }

  private group(): Atom {
    if (this.text.startsWith("?:", this.at)) this.at += 2;
    else if (/^\?<[A-Za-z]/.test(this.text.slice(this.at))) this.at = this.text.indexOf(">", this.at) + 1;
    else if (/^\?<?[=!]/.test(this.text.slice(this.at))) {
      // Lookarounds constrain without consuming: render nothing, and let the regular expression judge.
      this.at += this.text[this.at + 1] === "<" ? 3 : 2;
      this.alternatives();
      this.at++;
      return { kind: "empty" };
    }
    const inner = this.alternatives();
    if (this.text[this.at] !== ")") throw new Error("unclosed group");
    this.at++;
    return inner;
  }

  private escape(): Atom {
    const c = this.text[this.at++] as string;
    if ("dDwWsS".includes(c)) return { kind: "chars", chars: classChars(`\\${c}`, []) };
    if (c === "b" || c === "B") return { kind: "empty" };
    if (/[1-9]/.test(c) || c === "k") return { kind: "unknown" };
    // Without its braces (`\p` is a plain "p" in the engine's older syntax) it is a letter like any other.
    const end = this.text.indexOf("}", this.at);
    if ((c === "p" || c === "P") && this.text[this.at] === "{" && end !== -1) {
      const source = `\\${c}${this.text.slice(this.at, end + 1)}`;
      this.at = end + 1;
      return { kind: "chars", chars: classChars(source, ["é", "Ω"]) };
    }
    const simple: Readonly<Record<string, string>> = { n: "\n", t: "\t", r: "\r", f: "\f", v: "\v", 0: "\0" };
    if (simple[c]) return { kind: "chars", chars: [simple[c]] };
    if (c === "u" || c === "x") {
      const match = (c === "u" ? /^(?:\{([0-9a-fA-F]+)\}|([0-9a-fA-F]{4}))/ : /^([0-9a-fA-F]{2})/).exec(
        this.text.slice(this.at),
      );
      if (match) {
        this.at += match[0].length;
        return { kind: "chars", chars: [String.fromCodePoint(parseInt(match[1] ?? match[2] ?? "0", 16))] };
      }
    }
    return { kind: "chars", chars: [c] };
  }
}

function render(node: Atom, variant: number, state: { depth: number }): string | undefined {
  if (state.depth > 40) return undefined;
  if (node.kind === "empty") return "";
  if (node.kind === "unknown") return "";
  if (node.kind === "chars") {
    return node.chars.length === 0 ? undefined : node.chars[variant % node.chars.length];
  }
  const option = node.options[variant % node.options.length] as Seq;
  let out = "";
  state.depth++;
  for (const [i, item] of option.items.entries()) {
    // Variant 0 repeats minimally; others add one or two, and a bounded maximum is tried too.
    const extra = [0, 1, 2, 0, 1][(variant + i) % 5] as number;
    const times = Math.min(item.max, item.min + extra, item.min + 8);
    for (let k = 0; k < times; k++) {
      const piece = render(item.atom, variant + k, state);
      if (piece === undefined) return undefined;
      out += piece;
    }
  }
  state.depth--;
  return out;
}
