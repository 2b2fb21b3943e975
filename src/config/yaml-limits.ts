import {
  CST,
  Composer,
  Lexer,
  LineCounter,
  Parser,
  Scalar,
  YAMLParseError,
  visit,
  type Document,
  type DocumentOptions,
  type Node,
  type ParseOptions,
  type SchemaOptions,
} from "yaml";

/** A config nests a handful of levels; the YAML composer recurses once per level. */
export const MAX_NESTING = 64;

/**
 * The YAML library's `maxAliasCount` for a config: how often an anchor may be repeated, weighted by
 * the aliases inside it. Its default (100) refuses an anchor shared by a few hundred subjects; this
 * lets ten thousand share one and refuses a bomb in its sixth level of nine.
 */
export const MAX_ALIAS_COUNT = 10_000;

/** A problem at a place in the text. */
export interface TextProblem {
  readonly line: number;
  readonly message: string;
}

/**
 * The first collection nested deeper than MAX_NESTING, found on the parser's token tree (built
 * without recursion) before the document is composed: the composer would overflow the stack at a
 * depth that depends on the stack, and say so at a position that does too.
 */
export function nestingProblem(text: string): TextProblem | undefined {
  const read = readChecked(text, new LineCounter());
  return "tokens" in read ? undefined : read;
}

/**
 * Parses a config's text into one YAML document the way `parseDocument` does, each stage once (a
 * config of hundreds of subjects takes tens of milliseconds a stage), with the nesting checked on
 * the lexer's tokens before the parser sees them and on the parser's tokens before the composer.
 */
export function parseChecked(
  text: string,
  lines: LineCounter,
  options: ParseOptions & DocumentOptions & SchemaOptions,
): Document | TextProblem {
  const read = readChecked(text, lines);
  if (!("tokens" in read)) return read;
  let document: Document | undefined;
  for (const next of new Composer(options).compose(read.tokens, true, text.length)) {
    if (!document) document = next as Document;
    else {
      const message = "Source contains multiple documents; please use YAML.parseAllDocuments()";
      document.errors.push(new YAMLParseError([next.range[0], next.range[1]], "MULTIPLE_DOCS", message));
      break;
    }
  }
  return document!;
}

function readChecked(text: string, lines: LineCounter): { tokens: CST.Token[] } | TextProblem {
  const lexemes = [...new Lexer().lex(text)];
  const flow = flowNestingProblem(lexemes, text);
  if (flow) return flow;
  const parser = new Parser(lines.addNewLine);
  // As Parser.parse does: the first line starts at 0.
  lines.addNewLine(0);
  const tokens: CST.Token[] = [];
  for (const lexeme of lexemes) for (const token of parser.next(lexeme)) tokens.push(token);
  for (const token of parser.end()) tokens.push(token);
  const pending: [CST.Token, number][] = tokens.map((t) => [t, 0]);
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [token, depth] = next;
    if (token.type === "document") {
      if (token.value) pending.push([token.value, depth]);
    } else if (token.type === "block-map" || token.type === "block-seq" || token.type === "flow-collection") {
      if (depth + 1 > MAX_NESTING) return tooDeep(lines.linePos(token.offset).line);
      for (const item of token.items) {
        if ("key" in item && item.key) pending.push([item.key, depth + 1]);
        if (item.value) pending.push([item.value, depth + 1]);
      }
    }
  }
  return { tokens };
}

/**
 * The first `[` or `{` nested deeper than MAX_NESTING, found on the lexer's tokens: the parser takes
 * time that grows with the square of a flow collection's depth (seconds for 40 000 `[`), the lexer
 * does not. Block collections need their indentation, so a file cannot nest them as deep.
 */
function flowNestingProblem(lexemes: readonly string[], text: string): TextProblem | undefined {
  let depth = 0;
  let offset = 0;
  let atScalar = false;
  for (const source of lexemes) {
    // Offsets as the parser counts them: markers take no room in the text, a scalar's text does.
    if (atScalar) {
      atScalar = false;
      offset += source.length;
      continue;
    }
    const type = CST.tokenType(source);
    if (type === "scalar") atScalar = true;
    else if (type === "flow-map-start" || type === "flow-seq-start") depth++;
    else if (type === "flow-map-end" || type === "flow-seq-end") depth--;
    if (depth > MAX_NESTING) return tooDeep(text.slice(0, offset).split("\n").length);
    if (type !== "scalar" && type !== "doc-mode" && type !== "flow-error-end") offset += source.length;
  }
  return undefined;
}

function tooDeep(line: number): TextProblem {
  return { line, message: `nested more than ${MAX_NESTING} levels deep: refused (a config nests a few)` };
}

/**
 * The first alias that cannot be resolved: one without an anchor before it, or one inside the node
 * its anchor names (a cycle, which the YAML library would turn into a circular object without a
 * word). An alias names the last anchor before it, so one walk in document order finds both.
 */
export function aliasProblem(document: Document, lines: LineCounter): TextProblem | undefined {
  const anchors = new Map<string, Node>();
  let problem: TextProblem | undefined;
  visit(document, {
    Alias(_key, alias, path) {
      const at = lines.linePos(alias.range?.[0] ?? 0).line;
      const target = anchors.get(alias.source);
      if (!target)
        problem = { line: at, message: `alias *${alias.source} has no anchor &${alias.source} before it` };
      else if (path.includes(target)) {
        problem = {
          line: at,
          message: `alias *${alias.source} is inside the node its anchor &${alias.source} names: it would repeat itself forever`,
        };
      }
      return problem ? visit.BREAK : undefined;
    },
    Node(_key, node) {
      if (node.anchor) anchors.set(node.anchor, node);
    },
  });
  return problem;
}

/**
 * The document as plain data, within the YAML library's own alias limit: `toJS` refuses a document
 * whose aliases repeat their anchors more than MAX_ALIAS_COUNT times (the "billion laughs": each
 * alias repeats its anchor, anchors nest aliases). The library's error has no position; aliases
 * resolve in document order and each one only adds to the count, so a search over how many of them
 * are kept finds the one that goes past the limit, in a few conversions of the whole document.
 */
export function toPlainData(document: Document, lines: LineCounter): { data: unknown } | TextProblem {
  try {
    return { data: document.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) };
  } catch (error) {
    if (!(error instanceof ReferenceError)) throw error;
  }
  const aliases: Node[] = [];
  visit(document, { Alias: (_key, alias) => void aliases.push(alias) });
  // Keeping `fits` aliases converts; keeping `fails` does not.
  let fits = 0;
  let fails = aliases.length;
  while (fails - fits > 1) {
    const kept = Math.floor((fits + fails) / 2);
    if (pastLimit(document, kept)) fails = kept;
    else fits = kept;
  }
  const alias = aliases[fails - 1];
  return {
    line: lines.linePos(alias?.range?.[0] ?? 0).line,
    message: `the aliases up to here repeat what their anchors name more than ${MAX_ALIAS_COUNT} times: refused as an alias bomb`,
  };
}

/** Whether the document goes past the alias limit with only its first `kept` aliases (the rest null). */
function pastLimit(document: Document, kept: number): boolean {
  const copy = document.clone();
  let seen = 0;
  visit(copy, { Alias: () => (seen++ < kept ? undefined : new Scalar(null)) });
  try {
    copy.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    return false;
  } catch (error) {
    if (error instanceof ReferenceError) return true;
    throw error;
  }
}

/**
 * Values a config may stand for read as a tree, its aliases expanded: far past any config (hundreds
 * of subjects are thousands of values), and what the schema's validation reads in a fraction of a second.
 */
export const MAX_VALUES = 1_000_000;

/**
 * The path to the deepest part of the data that stands for more than MAX_VALUES values read as a
 * tree, or undefined. The YAML library's alias limit counts each alias once, whatever its anchor
 * holds, and shares one object among an anchor's aliases; whatever reads the data as a tree (the
 * schema's validation, the defaults) does the tree's work: 1 000 subjects repeating an anchor of
 * 50 000 topics are within the library's limit and took 14 s to validate. Counted on the data, an
 * object once, without recursion (aliases may nest deeper than the text does).
 */
export function expansionProblem(data: unknown): string[] | undefined {
  const sizes = new Map<object, number>();
  const sizeOf = (value: unknown) => (isObject(value) ? sizes.get(value) : 1);
  const stack: unknown[] = [data];
  for (let value = stack.at(-1); value !== undefined; value = stack.at(-1)) {
    if (!isObject(value) || sizes.has(value)) {
      stack.pop();
      continue;
    }
    const children = Object.values(value);
    const pending = children.filter((child) => isObject(child) && !sizes.has(child));
    if (pending.length > 0) {
      stack.push(...pending);
      continue;
    }
    const total = children.reduce((sum: number, child) => sum + sizeOf(child)!, 1);
    sizes.set(value, Math.min(total, MAX_VALUES + 1));
    stack.pop();
  }
  if ((sizeOf(data) ?? 0) <= MAX_VALUES) return undefined;
  const path: string[] = [];
  for (let node = data; isObject(node);) {
    const next = Object.entries(node).find(([, child]) => (sizeOf(child) ?? 0) > MAX_VALUES);
    if (!next) break;
    path.push(next[0]);
    node = next[1];
  }
  return path;
}

function isObject(value: unknown): value is object {
  return typeof value === "object" && value !== null;
}
