import type { ReaderCheck } from "../format.js";
import type { AvroValue } from "./decode.js";
import { Kind, unqualified, type Node } from "./schema.js";

/**
 * The rules an Avro reader's outcome names (the `keyword` label: a fixed set).
 * Fails: `missing_default` (a reader field the writer lacks, without a default), `union_branch` (the
 * writer's union branch matches none of the reader's), `enum_symbol` (the writer's symbol is not the
 * reader's, and the reader's enum has no default), `name_mismatch`, `fixed_size`, `type_mismatch`.
 * Lossy: `field_dropped` (a writer field the reader does not have), `field_defaulted` (a reader field
 * filled from its default), `enum_defaulted` (an unknown symbol read as the reader's default).
 */
export const AVRO_RULES = [
  "missing_default",
  "union_branch",
  "enum_symbol",
  "name_mismatch",
  "fixed_size",
  "type_mismatch",
  "field_dropped",
  "field_defaulted",
  "enum_defaulted",
] as const;
type Rule = (typeof AVRO_RULES)[number];

export const enum R {
  Ok,
  Fail,
  Record,
  Enum,
  List,
  WriterUnion,
}

export interface FieldPlan {
  readonly name: string;
  readonly writer: Node;
  /** Undefined: the reader has no such field, and drops it. */
  readonly plan: Plan | undefined;
}

/**
 * How a reader reads values of one writer schema: the spec's "Schema Resolution", after Java's
 * SchemaCompatibility, decided once per (writer, reader) pair. What depends on the values (which
 * union branch, which enum symbol, how many items) is read off the decoded value's trace.
 */
export interface Plan {
  kind: R;
  readonly writer: Node;
  /** No value of the writer can fail or lose anything here: the trace is skipped. */
  safe: boolean;
  rule: Rule;
  /** A failing record's missing field, or the reader field filled from its default. */
  at: string;
  fields: FieldPlan[];
  /** Per writer enum symbol: 0 read as is, 1 read as the reader's default, 2 fails. */
  symbols: Uint8Array;
  items: Plan | undefined;
  branches: Plan[];
}

const PROMOTIONS: Partial<Record<Kind, readonly Kind[]>> = {
  [Kind.Int]: [Kind.Long, Kind.Float, Kind.Double],
  [Kind.Long]: [Kind.Float, Kind.Double],
  [Kind.Float]: [Kind.Double],
  [Kind.String]: [Kind.Bytes],
  [Kind.Bytes]: [Kind.String],
};

/** Per writer root, its plans by reader root: held by the writer's node, so they live as long as it. */
const PLANS = Symbol("plans");
type Planned = Node & { [PLANS]?: Map<Node, Plan> };

/** The plan of a writer root read by a reader root, made once per pair for the life of both. */
export function planOf(writer: Node, reader: Node): Plan {
  const byReader = ((writer as Planned)[PLANS] ??= new Map());
  let plan = byReader.get(reader);
  if (!plan) byReader.set(reader, (plan = resolve(writer, reader, new Map())));
  return plan;
}

function named(writer: Node, reader: Node): boolean {
  return unqualified(writer.name) === unqualified(reader.name) || reader.aliases.includes(writer.name);
}

/** The spec's "match" of two non-union schemas, at their top: kind and name, or a promotion. */
function matches(writer: Node, reader: Node, promote: boolean): boolean {
  if (writer.kind === reader.kind)
    return writer.kind === Kind.Record || writer.kind === Kind.Enum || writer.kind === Kind.Fixed
      ? named(writer, reader)
      : true;
  return promote && (PROMOTIONS[writer.kind]?.includes(reader.kind) ?? false);
}

function blank(kind: R, writer: Node): Plan {
  return {
    kind,
    writer,
    safe: false,
    rule: "type_mismatch",
    at: "",
    fields: [],
    symbols: new Uint8Array(0),
    items: undefined,
    branches: [],
  };
}

function fail(writer: Node, rule: Rule, at = ""): Plan {
  const plan = blank(R.Fail, writer);
  plan.rule = rule;
  plan.at = at;
  return plan;
}

function resolve(writer: Node, reader: Node, seen: Map<Node, Map<Node, Plan>>): Plan {
  let byReader = seen.get(writer);
  if (!byReader) seen.set(writer, (byReader = new Map()));
  const known = byReader.get(reader);
  if (known) return known;
  if (writer.kind === Kind.Union) {
    const plan = blank(R.WriterUnion, writer);
    byReader.set(reader, plan);
    for (const branch of writer.branches) {
      const p = resolve(branch, reader, seen);
      plan.branches.push(
        p.kind === R.Fail && p.rule !== "missing_default" ? fail(branch, "union_branch") : p,
      );
    }
    plan.safe = plan.branches.every((p) => p.safe);
    return plan;
  }
  if (reader.kind === Kind.Union) {
    const branch =
      reader.branches.find((b) => matches(writer, b, false)) ??
      reader.branches.find((b) => matches(writer, b, true));
    const plan = branch ? resolve(writer, branch, seen) : fail(writer, "union_branch");
    byReader.set(reader, plan);
    return plan;
  }
  if (!matches(writer, reader, true)) {
    const sameKind = writer.kind === reader.kind;
    return fail(writer, sameKind ? "name_mismatch" : "type_mismatch");
  }
  switch (writer.kind) {
    case Kind.Fixed:
      return writer.size === reader.size ? ok(writer) : fail(writer, "fixed_size");
    case Kind.Enum: {
      const plan = blank(R.Enum, writer);
      plan.symbols = new Uint8Array(
        writer.symbols.map((s) => (reader.symbols.includes(s) ? 0 : reader.enumDefault >= 0 ? 1 : 2)),
      );
      plan.safe = plan.symbols.every((s) => s === 0);
      return plan;
    }
    case Kind.Array:
    case Kind.Map: {
      const plan = blank(R.List, writer);
      byReader.set(reader, plan);
      plan.items = resolve(writer.items!, reader.items!, seen);
      plan.safe = plan.items.safe;
      return plan;
    }
    case Kind.Record:
      return record(writer, reader, byReader, seen);
    default:
      return ok(writer);
  }
}

function ok(writer: Node): Plan {
  const plan = blank(R.Ok, writer);
  plan.safe = !writer.traced;
  return plan;
}

function record(
  writer: Node,
  reader: Node,
  byReader: Map<Node, Plan>,
  seen: Map<Node, Map<Node, Plan>>,
): Plan {
  const plan = blank(R.Record, writer);
  byReader.set(reader, plan);
  const readerFieldOf = new Map<string, (typeof reader.fields)[number]>();
  for (const field of reader.fields) {
    const source =
      writer.fields.find((w) => w.name === field.name) ??
      writer.fields.find((w) => field.aliases.includes(w.name));
    if (source) readerFieldOf.set(source.name, field);
    else if (!field.hasDefault) {
      plan.kind = R.Fail;
      plan.rule = "missing_default";
      plan.at = field.name;
      return plan;
    } else if (plan.at === "") plan.at = field.name;
  }
  for (const field of writer.fields) {
    const target = readerFieldOf.get(field.name);
    plan.fields.push({
      name: field.name,
      writer: field.node,
      plan: target ? resolve(field.node, target.node, seen) : undefined,
    });
  }
  plan.safe = plan.at === "" && plan.fields.every((f) => f.plan?.safe === true);
  return plan;
}

// What one check found: the first failure, else the first loss; the path to where it is.
let failed: Rule | null = null;
let lost: Rule | null = null;
let lostAt = "";
let failedAt = "";
const path: string[] = [];

/**
 * The JSON Pointer of where the check is. Its segments need no escaping: Avro names are
 * `[A-Za-z_][A-Za-z0-9_]*`, array places are numbers and a map's is `*`.
 */
function here(last?: string): string {
  let out = "";
  for (let i = 0; i < path.length; i++) out += "/" + path[i]!;
  return last === undefined ? out : out + "/" + last;
}

function lose(rule: Rule, last?: string): void {
  if (lost !== null) return;
  lost = rule;
  lostAt = here(last);
}

/** Whether the reader reads the value, into `out` (formats/format.ts `ReaderCheck`). */
export function checkAvro(reader: Node, value: AvroValue, out: ReaderCheck): void {
  const plan = planOf(value.writer.root, reader);
  if (plan.safe) {
    out.outcome = "ok";
    out.rule = null;
    out.location = null;
    return;
  }
  failed = null;
  lost = null;
  path.length = 0;
  run(plan, value.trace, 0);
  if (failed !== null) {
    out.outcome = "fails";
    out.rule = failed;
    out.location = failedAt;
  } else if (lost !== null) {
    out.outcome = "lossy";
    out.rule = lost;
    out.location = lostAt;
  } else {
    out.outcome = "ok";
    out.rule = null;
    out.location = null;
  }
  path.length = 0;
}

/** Reads the trace from `i` along the plan; the index after it, or -1 once something failed. */
function run(plan: Plan, trace: Int32Array, i: number): number {
  if (plan.safe) return skip(plan.writer, trace, i);
  switch (plan.kind) {
    case R.Ok:
      return skip(plan.writer, trace, i);
    case R.Fail:
      failed = plan.rule;
      failedAt = here(plan.at === "" ? undefined : plan.at);
      return -1;
    case R.Enum: {
      const outcome = plan.symbols[trace[i]!];
      if (outcome === 2) {
        failed = "enum_symbol";
        failedAt = here();
        return -1;
      }
      if (outcome === 1) lose("enum_defaulted");
      return i + 1;
    }
    case R.WriterUnion: {
      const next = trace[i + 1]!;
      return run(plan.branches[trace[i]!]!, trace, i + 2) < 0 ? -1 : next;
    }
    case R.List: {
      const count = trace[i]!;
      const next = trace[i + 1]!;
      const items = plan.items!;
      if (items.safe) return next;
      const isMap = plan.writer.kind === Kind.Map;
      i += 2;
      for (let k = 0; k < count; k++) {
        // A map's keys are data: its place is `*`.
        path.push(isMap ? "*" : String(k));
        i = run(items, trace, i);
        path.pop();
        if (i < 0) return -1;
      }
      return next;
    }
    case R.Record: {
      for (const field of plan.fields) {
        if (field.plan === undefined) {
          lose("field_dropped", field.name);
          i = skip(field.writer, trace, i);
          continue;
        }
        path.push(field.name);
        i = run(field.plan, trace, i);
        path.pop();
        if (i < 0) return -1;
      }
      if (plan.at !== "") lose("field_defaulted", plan.at);
      return i;
    }
  }
  return i;
}

/** The trace index after a writer value that the plan need not read. */
function skip(node: Node, trace: Int32Array, i: number): number {
  if (!node.traced) return i;
  switch (node.kind) {
    case Kind.Record:
      for (const field of node.fields) i = skip(field.node, trace, i);
      return i;
    case Kind.Enum:
      return i + 1;
    default:
      return trace[i + 1]!;
  }
}
