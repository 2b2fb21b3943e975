import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { validator as schemasafeValidator } from "@exodus/schemasafe";
import { compilePattern, PatternError, schemaRegExp } from "./regexp.js";

/**
 * @exodus/schemasafe, the engine of versions that use annotations or the dynamic scope
 * (src/catalog/annotations.ts), loaded with three changes to its code generator. Each one is a text
 * replacement in one of its files that must match exactly once, so a release that moves the code
 * fails here, at the first compilation, rather than validating differently. The version is pinned
 * exactly in package.json; test/unit/catalog/schemasafe.test.ts holds each change by its effect.
 *
 * 1. Every `new RegExp` of its files is the project's: a schema's `pattern` and `patternProperties`
 *    run on the linear engine where it can run them (`compilePattern`, as ajv's versions do), never
 *    on the backtracking RegExp a hostile pattern stalls; a pattern valid only without the `u` flag
 *    (`[a-z\_]`) compiles as it does for ajv.
 * 2. A function a `$dynamicRef`, a `$recursiveRef` or a cycle may reach tells its caller what it
 *    evaluated in every case: schemasafe 1.3.0 reports only what it could not prove statically, and
 *    nothing at all when it proved everything, so `unevaluated*` across such a reference threw
 *    "Cannot read properties of null" while validating, or missed what the target evaluated.
 * 3. A function for a subschema inside another resource (`"$ref": "second#/$defs/stuff"`) enters
 *    that resource's dynamic scope: its `$dynamicAnchor`s are registered, as when its root is entered.
 * 4. A base URI of any scheme with an authority (`file:///…/v1.json`, the URI of a catalog file
 *    without `$id`) resolves references as `http:` ones do, and an absolute `urn:` reference is
 *    absolute: 1.3.0 knew only `http:` and `https:`, and a `$dynamicAnchor` or a relative `$ref` in
 *    a file without `$id` did not compile.
 */

export type Schemasafe = typeof schemasafeValidator;

const PACKAGE = "@exodus/schemasafe";
const VERSION = "1.3.0";

interface Patch {
  readonly file: string;
  readonly find: string;
  readonly replace: string;
}

const PATCHES: readonly Patch[] = [
  {
    file: "pointer.js",
    find: "const protocolRegex = /^https?:\\/\\//",
    replace: "const protocolRegex = /^[a-z][a-z0-9+.-]*:\\/\\//i",
  },
  {
    file: "pointer.js",
    find: "if (!base.includes('/') || protocolRegex.test(sub)) return sub",
    replace: "if (!base.includes('/') || /^[a-z][a-z0-9+.-]*:/i.test(sub)) return sub",
  },
  {
    file: "compile.js",
    find: `  if (opts[optDynamic] && (isDynamic(stat).items || isDynamic(stat).properties)) {
    if (!local) throw new Error('Failed to trace dynamic properties') // Unreachable
    fun.write('validate.evaluatedDynamic = [%s, %s, %s]', local.item, local.items, local.props)
  }`,
    replace: `  if (opts[optDynamic] && !local) {
    fun.write('validate.evaluatedDynamic = [[], [0], [[], []]]')
  } else if (opts[optDynamic]) {
    if (stat.items > 0) fun.write('%s.push(%d)', local.items, stat.items)
    if (stat.properties.length > 0) fun.write('%s[0].push(...%j)', local.props, stat.properties)
    if (stat.patterns.length > 0) fun.write('%s[1].push(...%j)', local.props, stat.patterns)
    fun.write('validate.evaluatedDynamic = [%s, %s, %s]', local.item, local.items, local.props)
  }`,
  },
  {
    file: "compile.js",
    find: `  const hasDynAnchors = opts[optDynAnchors] && hasRefs && hasKeywords(schema, ['$dynamicAnchor'])`,
    replace: `  const outerResource =
    opts[optDynAnchors] && schema && typeof schema === 'object' && schema !== root && !(schema.$id || schema.id)
      ? enclosingResource(root, schema)
      : null
  const outerAnchors = outerResource ? getDynamicAnchors(outerResource) : new Map()
  const hasDynAnchors =
    opts[optDynAnchors] && hasRefs && (outerAnchors.size > 0 || hasKeywords(schema, ['$dynamicAnchor']))`,
  },
  {
    file: "compile.js",
    find: `      const allDynamic = getDynamicAnchors(node)`,
    replace: `      const allDynamic = node === schema && outerResource ? outerAnchors : getDynamicAnchors(node)`,
  },
  {
    file: "compile.js",
    find: `const compileSchema = (schema, root, opts, scope, basePathRoot = '') => {`,
    replace: `const enclosingResource = (root, target) => {
  let found = null
  const data = new Set(['const', 'enum', 'default', 'examples'])
  const visit = (node, resource) => {
    if (found || !node || typeof node !== 'object') return
    const own = !Array.isArray(node) && (typeof node.$id === 'string' || typeof node.id === 'string')
    const here = own ? node : resource
    if (node === target) found = here
    for (const [key, value] of Object.entries(node)) if (!data.has(key)) visit(value, here)
  }
  visit(root, root)
  return found
}

const compileSchema = (schema, root, opts, scope, basePathRoot = '') => {`,
  },
];

/**
 * Loads schemasafe's files with the changes above: each file is evaluated as CommonJS with
 * `require` answering its sibling files from this load (one instance of each, as they share state)
 * and `RegExp` bound to the project's patterns. Call once per process: the result is kept by the
 * caller.
 */
export function loadSchemasafe(): Schemasafe {
  const require = createRequire(import.meta.url);
  const version = (require(`${PACKAGE}/package.json`) as { version: string }).version;
  if (version !== VERSION)
    throw new Error(`${PACKAGE} is ${version}; src/catalog/schemasafe.ts patches ${VERSION} only`);
  const dir = dirname(require.resolve(PACKAGE));
  const modules = new Map<string, { exports: unknown }>();
  const patternRegExp = projectRegExp();
  const load = (id: string): unknown => {
    const file = id.replace(/^\.\//, "").replace(/(\.js)?$/, ".js");
    const known = modules.get(file);
    if (known) return known.exports;
    const module = { exports: {} as unknown };
    modules.set(file, module);
    let source = readFileSync(join(dir, file), "utf8");
    for (const patch of PATCHES.filter((p) => p.file === file)) {
      const at = source.indexOf(patch.find);
      if (at < 0 || source.indexOf(patch.find, at + 1) >= 0)
        throw new Error(
          `${PACKAGE} ${version}: ${file} no longer reads as src/catalog/schemasafe.ts expects`,
        );
      source = source.replace(patch.find, () => patch.replace);
    }
    const local = (wanted: string): unknown => (wanted.startsWith("./") ? load(wanted) : require(wanted));
    // schemasafe's own files, as it would evaluate them; only `RegExp` is bound to another value.
    const run = new Function("require", "module", "exports", "RegExp", source) as (
      ...args: unknown[]
    ) => void;
    run(local, module, module.exports, patternRegExp);
    return module.exports;
  };
  for (const patch of PATCHES) load(patch.file);
  return (load("index.js") as { validator: Schemasafe }).validator;
}

/**
 * `RegExp` as schemasafe's files see it: `new RegExp(pattern, "u")` gives a RegExp whose `test` runs
 * the pattern as ajv's versions run it (linear where the engine can, `u` first, else without it), a
 * PatternError when it is no regular expression; `instanceof` and the prototype are RegExp's own.
 * Compiled patterns are kept: schemasafe builds one per call where it tests a key at run time.
 */
function projectRegExp(): unknown {
  const compiled = new Map<string, RegExp>();
  function PatternRegExp(source: unknown, flags?: unknown): RegExp {
    const pattern = String(source);
    const wanted = typeof flags === "string" ? flags : "";
    const key = `${wanted}/${pattern}`;
    let made = compiled.get(key);
    if (made) return made;
    const native = schemaRegExp(pattern, wanted);
    const matcher = compilePattern(pattern, wanted)?.matcher;
    if (!native || !matcher) throw new PatternError(pattern);
    made = native;
    if (!(matcher instanceof RegExp))
      Object.defineProperty(made, "test", { value: (text: string) => matcher.test(text) });
    compiled.set(key, made);
    return made;
  }
  PatternRegExp.prototype = RegExp.prototype;
  return PatternRegExp;
}
