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

/** The `code.regExp` engine handed to ajv: `schemaRegExp`, throwing a PatternError for bad patterns. */
export function ajvRegExp(): ((pattern: string, flags: string) => RegExp) & { code: string } {
  const engine = (pattern: string, flags: string): RegExp => {
    const regExp = schemaRegExp(pattern, flags);
    if (!regExp) throw new PatternError(pattern);
    return regExp;
  };
  // Only used when ajv generates standalone code, which schemawatch never does.
  return Object.assign(engine, { code: "new RegExp" });
}
