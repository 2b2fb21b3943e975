/**
 * Where each top-level member of a JSON object's text lies, without parsing (or recursing into) the
 * values: a value nested deeper than a recursive serializer can follow is found all the same, and a
 * line cut short still gives the members before the cut. Later duplicates win, as in `JSON.parse`.
 */
export function topLevelMembers(text: string): Map<string, readonly [number, number]> {
  const members = new Map<string, readonly [number, number]>();
  let i = skipSpace(text, 0);
  if (text[i] !== "{") return members;
  i++;
  for (;;) {
    i = skipSpace(text, i);
    if (text[i] !== '"') return members;
    const keyEnd = stringEnd(text, i);
    if (keyEnd < 0) return members;
    let name: string;
    try {
      name = JSON.parse(text.slice(i, keyEnd)) as string;
    } catch {
      return members;
    }
    i = skipSpace(text, keyEnd);
    if (text[i] !== ":") return members;
    const start = skipSpace(text, i + 1);
    const end = valueEnd(text, start);
    if (end < 0) return members;
    members.set(name, [start, end]);
    i = skipSpace(text, end);
    if (text[i] !== ",") return members;
    i++;
  }
}

/** A top-level member's value, parsed, when it is a string or a number; undefined otherwise. */
export function memberText(
  text: string,
  members: ReadonlyMap<string, readonly [number, number]>,
  name: string,
): string | number | undefined {
  const span = members.get(name);
  if (!span) return undefined;
  const first = text[span[0]];
  // Only scalars: an object or array here is no topic or partition, and is not parsed.
  if (first === "{" || first === "[") return undefined;
  try {
    const value: unknown = JSON.parse(text.slice(span[0], span[1]));
    return typeof value === "string" || typeof value === "number" ? value : undefined;
  } catch {
    return undefined;
  }
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r"))
    i++;
  return i;
}

/** The index after a string starting at `i` (a quote), or -1 when the text ends inside it. */
function stringEnd(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const c = text[j];
    if (c === "\\") j++;
    else if (c === '"') return j + 1;
  }
  return -1;
}

/** The index after the value starting at `i`, or -1 when the text ends inside it. */
function valueEnd(text: string, i: number): number {
  const first = text[i];
  if (first === '"') return stringEnd(text, i);
  if (first !== "{" && first !== "[") {
    let j = i;
    while (j < text.length && !",}] \t\r\n".includes(text[j]!)) j++;
    return j === i || j === text.length ? -1 : j;
  }
  // Brackets are counted, not matched: the text was valid JSON, or is read only as far as it can be.
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const c = text[j];
    if (c === '"') {
      j = stringEnd(text, j) - 1;
      if (j < 0) return -1;
    } else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0) return j + 1;
    }
  }
  return -1;
}
