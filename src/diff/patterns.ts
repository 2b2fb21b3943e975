import { schemaRegExp } from "../catalog/regexp.js";

/**
 * Does a pattern match every string? True when it can match the empty string and asserts nothing
 * (`[a-z]*`, `.*`, `(x)?`: a search finds the empty match at the start of any string), or when only a
 * leading `^` or a trailing `$` anchors such a pattern (`^.*`, `\s*$`).
 */
export function matchesEverything(pattern: string): boolean {
  const regExp = schemaRegExp(pattern);
  if (!regExp) return false;
  const free = (text: string): boolean => {
    const inner = schemaRegExp(text);
    return inner !== undefined && !hasAssertion(text) && inner.test("");
  };
  if (free(pattern)) return true;
  if (topLevelAlternation(pattern)) return false;
  if (pattern.startsWith("^") && free(pattern.slice(1))) return true;
  return pattern.endsWith("$") && !pattern.endsWith("\\$") && free(pattern.slice(0, -1));
}

function* tokens(pattern: string): Generator<{ text: string; inClass: boolean; depth: number }> {
  let inClass = false;
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === "\\") {
      yield { text: pattern.slice(i, i + 2), inClass, depth };
      i++;
    } else if (inClass) {
      if (c === "]") inClass = false;
      yield { text: c, inClass: true, depth };
    } else if (c === "[") {
      inClass = true;
      yield { text: c, inClass: true, depth };
    } else {
      if (c === "(") depth++;
      yield { text: pattern.startsWith("(?", i) ? pattern.slice(i, i + 4) : c, inClass, depth };
      if (c === ")") depth--;
    }
  }
}

function hasAssertion(pattern: string): boolean {
  for (const token of tokens(pattern)) {
    if (token.inClass) continue;
    if (token.text === "^" || token.text === "$") return true;
    if (/^\\[bB1-9k]/.test(token.text)) return true;
    if (/^\(\?<?[=!]/.test(token.text)) return true;
  }
  return false;
}

function topLevelAlternation(pattern: string): boolean {
  for (const token of tokens(pattern))
    if (!token.inClass && token.depth === 0 && token.text === "|") return true;
  return false;
}
