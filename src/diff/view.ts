import { hasModernKeywords, type Dialect } from "./dialect.js";
import { child, isObject, type Loc } from "./document.js";

/** One numeric bound with the keyword that set it (draft-04's boolean form is folded in). */
export interface Bound {
  readonly value: number;
  readonly exclusive: boolean;
  readonly keyword: string;
}

export interface Dependent<T> {
  readonly value: T;
  readonly keyword: "dependencies" | "dependentRequired" | "dependentSchemas";
}

/**
 * A schema object read once under its own dialect, so that the comparison never has to ask which
 * draft spelled a keyword how (tuple `items` versus `prefixItems`, boolean `exclusiveMaximum`, ...).
 */
export interface View {
  readonly loc: Loc;
  readonly raw: Readonly<Record<string, unknown>>;
  readonly dialect: Dialect;
  readonly type?: unknown;
  readonly enumValues?: readonly unknown[];
  readonly hasConst: boolean;
  readonly constValue?: unknown;
  readonly upper?: Bound;
  readonly lower?: Bound;
  readonly multipleOf?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly format?: string;
  readonly prefix: readonly Loc[];
  readonly prefixKeyword: "items" | "prefixItems";
  /** The schema for items after the tuple: `items`, `additionalItems` or (2019-09+) `unevaluatedItems`. */
  readonly rest?: Loc;
  readonly restKeyword: "items" | "additionalItems" | "unevaluatedItems";
  readonly unevaluatedItems?: Loc;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly uniqueItems: boolean;
  readonly contains?: Loc;
  readonly minContains?: number;
  readonly maxContains?: number;
  readonly properties: ReadonlyMap<string, Loc>;
  readonly patternProperties: ReadonlyMap<string, Loc>;
  readonly additionalProperties?: Loc;
  readonly unevaluatedProperties?: Loc;
  readonly required: readonly string[];
  readonly minProperties?: number;
  readonly maxProperties?: number;
  readonly dependentRequired: ReadonlyMap<string, Dependent<readonly string[]>>;
  readonly dependentSchemas: ReadonlyMap<string, Dependent<Loc>>;
  readonly propertyNames?: Loc;
  /** In-place conjuncts: `allOf`, plus a 2019-09+ `$ref` beside other keywords as branch "$ref". */
  readonly allOf: readonly Loc[];
  readonly ref?: Loc;
  readonly anyOf?: readonly Loc[];
  readonly oneOf?: readonly Loc[];
  readonly not?: Loc;
  readonly if?: Loc;
  readonly then?: Loc;
  readonly else?: Loc;
  /** allOf, anyOf, oneOf, $ref, if/then/else or dependentSchemas: evaluation is spread over branches. */
  readonly hasApplicators: boolean;
}

// Number.isFinite is false for every non-number.
const num = (value: unknown): number | undefined => (Number.isFinite(value) ? (value as number) : undefined);

const count = (value: unknown): number | undefined => {
  const n = num(value) ?? -1;
  return n >= 0 ? n : undefined;
};

/** The tighter of an inclusive and an exclusive upper bound: the exclusive one unless it lies above. */
function tighterUpper(inclusive: Bound | undefined, strict: Bound | undefined): Bound | undefined {
  if (!inclusive || !strict) return inclusive ?? strict;
  return strict.value <= inclusive.value ? strict : inclusive;
}

/** The tighter of an inclusive and an exclusive lower bound: the exclusive one unless it lies below. */
function tighterLower(inclusive: Bound | undefined, strict: Bound | undefined): Bound | undefined {
  if (!inclusive || !strict) return inclusive ?? strict;
  return strict.value >= inclusive.value ? strict : inclusive;
}

function bounds(
  raw: Readonly<Record<string, unknown>>,
  dialect: Dialect,
  side: "max" | "min",
): Bound | undefined {
  const plain = side === "max" ? "maximum" : "minimum";
  const exclusiveKey = side === "max" ? "exclusiveMaximum" : "exclusiveMinimum";
  const value = num(raw[plain]);
  const exclusive = raw[exclusiveKey];
  if (dialect === "draft-04") {
    return value === undefined ? undefined : { value, exclusive: exclusive === true, keyword: plain };
  }
  const inclusive: Bound | undefined =
    value === undefined ? undefined : { value, exclusive: false, keyword: plain };
  const ex = num(exclusive);
  const strict: Bound | undefined =
    ex === undefined ? undefined : { value: ex, exclusive: true, keyword: exclusiveKey };
  return side === "max" ? tighterUpper(inclusive, strict) : tighterLower(inclusive, strict);
}

function schemaMap(loc: Loc, raw: Readonly<Record<string, unknown>>, key: string): Map<string, Loc> {
  const map = new Map<string, Loc>();
  const value = raw[key];
  if (isObject(value))
    for (const [name, node] of Object.entries(value)) map.set(name, child(loc, node, key, name));
  return map;
}

function schemaList(loc: Loc, raw: Readonly<Record<string, unknown>>, key: string): Loc[] | undefined {
  const value = raw[key];
  return Array.isArray(value) ? value.map((node, i) => child(loc, node, key, String(i))) : undefined;
}

function sub(loc: Loc, raw: Readonly<Record<string, unknown>>, key: string): Loc | undefined {
  return Object.hasOwn(raw, key) ? child(loc, raw[key], key) : undefined;
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];

/** Builds the view of an object schema (or of `true`, read as `{}`); `$ref` is resolved by the caller. */
export function buildView(loc: Loc, ref: Loc | undefined): View {
  const raw: Readonly<Record<string, unknown>> = isObject(loc.node) ? loc.node : {};
  const dialect = loc.doc.dialect;
  const modern = hasModernKeywords(dialect);
  const items = raw["items"];
  // The tuple is array-form `items` in any dialect (a 2020-12 schema using it is read the older way),
  // else 2020-12's `prefixItems`.
  const prefixKeyword = dialect === "2020-12" && !Array.isArray(items) ? "prefixItems" : "items";
  const prefix = schemaList(loc, raw, prefixKeyword) ?? [];
  let rest: Loc | undefined;
  let restKeyword: View["restKeyword"] = "items";
  if (!Array.isArray(items)) rest = sub(loc, raw, "items");
  // Tuple-form items is not 2020-12, so a schema using it is read with the older meaning of additionalItems.
  else if (Object.hasOwn(raw, "additionalItems")) {
    rest = sub(loc, raw, "additionalItems");
    restKeyword = "additionalItems";
  }
  const dependentRequired = new Map<string, Dependent<readonly string[]>>();
  const dependentSchemas = new Map<string, Dependent<Loc>>();
  const dependencies = raw["dependencies"];
  if (isObject(dependencies)) {
    for (const [name, value] of Object.entries(dependencies)) {
      if (Array.isArray(value))
        dependentRequired.set(name, { value: strings(value), keyword: "dependencies" });
      else
        dependentSchemas.set(name, {
          value: child(loc, value, "dependencies", name),
          keyword: "dependencies",
        });
    }
  }
  if (modern) {
    const required = raw["dependentRequired"];
    if (isObject(required)) {
      for (const [name, value] of Object.entries(required)) {
        dependentRequired.set(name, { value: strings(value), keyword: "dependentRequired" });
      }
    }
    for (const [name, value] of schemaMap(loc, raw, "dependentSchemas")) {
      dependentSchemas.set(name, { value, keyword: "dependentSchemas" });
    }
  }
  const unevaluatedItems = modern ? sub(loc, raw, "unevaluatedItems") : undefined;
  const allOf = schemaList(loc, raw, "allOf") ?? [];
  const anyOf = schemaList(loc, raw, "anyOf");
  const oneOf = schemaList(loc, raw, "oneOf");
  const conditional = Object.hasOwn(raw, "if");
  const hasApplicators =
    allOf.length > 0 ||
    anyOf !== undefined ||
    oneOf !== undefined ||
    ref !== undefined ||
    conditional ||
    dependentSchemas.size > 0;
  // From 2020-12 on, the items `contains` matched are evaluated too (even with `minContains: 0`).
  const containsEvaluates = dialect === "2020-12" && Object.hasOwn(raw, "contains");
  if (rest === undefined && unevaluatedItems && !hasApplicators && !containsEvaluates) {
    rest = unevaluatedItems;
    restKeyword = "unevaluatedItems";
  }
  const uniqueItems = raw["uniqueItems"] === true;
  return {
    loc,
    raw,
    dialect,
    type: raw["type"],
    enumValues: Array.isArray(raw["enum"]) ? raw["enum"] : undefined,
    hasConst: Object.hasOwn(raw, "const"),
    constValue: raw["const"],
    upper: bounds(raw, dialect, "max"),
    // Stryker disable next-line StringLiteral: any side but "max" is the lower one
    lower: bounds(raw, dialect, "min"),
    multipleOf: num(raw["multipleOf"]),
    minLength: count(raw["minLength"]) || undefined,
    maxLength: count(raw["maxLength"]),
    pattern: typeof raw["pattern"] === "string" ? raw["pattern"] : undefined,
    format: typeof raw["format"] === "string" ? raw["format"] : undefined,
    prefix,
    prefixKeyword,
    rest,
    restKeyword,
    unevaluatedItems,
    minItems: count(raw["minItems"]) || undefined,
    maxItems: count(raw["maxItems"]),
    uniqueItems,
    contains: sub(loc, raw, "contains"),
    minContains: modern ? count(raw["minContains"]) : undefined,
    maxContains: modern ? count(raw["maxContains"]) : undefined,
    properties: schemaMap(loc, raw, "properties"),
    patternProperties: schemaMap(loc, raw, "patternProperties"),
    additionalProperties: sub(loc, raw, "additionalProperties"),
    unevaluatedProperties: modern ? sub(loc, raw, "unevaluatedProperties") : undefined,
    required: [...new Set(strings(raw["required"]))],
    minProperties: count(raw["minProperties"]) || undefined,
    maxProperties: count(raw["maxProperties"]),
    dependentRequired,
    dependentSchemas,
    propertyNames: sub(loc, raw, "propertyNames"),
    allOf,
    ref,
    anyOf,
    oneOf,
    not: sub(loc, raw, "not"),
    if: conditional ? sub(loc, raw, "if") : undefined,
    then: conditional ? sub(loc, raw, "then") : undefined,
    else: conditional ? sub(loc, raw, "else") : undefined,
    hasApplicators,
  };
}
