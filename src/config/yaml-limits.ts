import {
  CST,
  Composer,
  Lexer,
  LineCounter,
  Parser,
  YAMLParseError,
  isAlias,
  isMap,
  isNode,
  isSeq,
  type Document,
  type DocumentOptions,
  type Node,
  type ParseOptions,
  type SchemaOptions,
} from "yaml";

/** A config nests a handful of levels; the YAML composer recurses once per level. */
export const MAX_NESTING = 64;

/** Values the aliases of one document may stand for, all counted: far past any config, far short of a bomb. */
export const MAX_ALIASED_VALUES = 100_000;

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

/** The nodes directly inside a collection, keys before values, in document order. */
function children(node: Node): Node[] {
  if (isMap(node)) return node.items.flatMap((pair) => [pair.key, pair.value].filter(isNode));
  if (isSeq(node)) return node.items.filter(isNode);
  return [];
}

interface Frame {
  readonly node: Node;
  readonly children: Node[];
  next: number;
  /** Values in the node once its aliases are expanded. */
  size: number;
}

/**
 * The first alias that cannot be expanded safely: one without an anchor before it, one inside the
 * node its anchor names (a cycle), or the one past which the aliases stand for more than
 * MAX_ALIASED_VALUES values (the "billion laughs": each alias repeats its anchor, anchors nest
 * aliases). Walks the document once, in the order aliases resolve (an alias names the last anchor
 * before it), without recursion; the nesting is bounded by `nestingProblem` already.
 */
export function aliasProblem(document: Document, lines: LineCounter): TextProblem | undefined {
  const root = document.contents;
  if (!isNode(root)) return undefined;
  const at = (node: Node) => lines.linePos(node.range?.[0] ?? 0).line;
  if (isAlias(root)) return { line: at(root), message: `alias *${root.source} has no anchor before it` };
  const sizes = new Map<Node, number>();
  const anchors = new Map<string, Node>();
  let aliased = 0;
  const enter = (node: Node): Frame => {
    if (!isAlias(node) && node.anchor) anchors.set(node.anchor, node);
    return { node, children: children(node), next: 0, size: 1 };
  };
  const stack: Frame[] = [enter(root)];
  for (let frame = stack.at(-1); frame; frame = stack.at(-1)) {
    const child = frame.children[frame.next++];
    if (child === undefined) {
      stack.pop();
      sizes.set(frame.node, frame.size);
      if (stack.length > 0) stack.at(-1)!.size += frame.size;
    } else if (!isAlias(child)) {
      stack.push(enter(child));
    } else {
      const target = anchors.get(child.source);
      if (!target) {
        return {
          line: at(child),
          message: `alias *${child.source} has no anchor &${child.source} before it`,
        };
      }
      const size = sizes.get(target);
      if (size === undefined) {
        return {
          line: at(child),
          message: `alias *${child.source} is inside the node its anchor &${child.source} names: it would repeat itself forever`,
        };
      }
      aliased += size;
      frame.size += size;
      if (aliased > MAX_ALIASED_VALUES) {
        return {
          line: at(child),
          message: `the aliases up to here stand for more than ${MAX_ALIASED_VALUES} values (each repeats what its anchor names): refused as an alias bomb`,
        };
      }
    }
  }
  return undefined;
}
