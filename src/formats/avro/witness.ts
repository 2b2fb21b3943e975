import { Buffer } from "node:buffer";
import { Kind, type Node } from "./schema.js";
import { planOf, R, type Plan } from "./resolve.js";

/** Where a reader fails some writer value, and one such value (avsc's form: unions wrapped). */
export interface Break {
  readonly rule: string;
  readonly location: string;
  readonly witness: unknown;
}

/**
 * A value of the writer that the reader cannot read, found from the plan alone, or undefined when the
 * reader reads every value of the writer (lossy reads included): what `diff` says of an Avro pair.
 */
export function findBreak(writer: Node, reader: Node): Break | undefined {
  const found = search(planOf(writer, reader), [], new Set());
  return (
    found && { rule: found.rule, location: found.path.map((s) => "/" + s).join(""), witness: found.value }
  );
}

interface Found {
  rule: string;
  path: string[];
  value: unknown;
}

function search(plan: Plan, path: string[], open: Set<Plan>): Found | undefined {
  if (plan.safe || open.has(plan)) return undefined;
  open.add(plan);
  try {
    switch (plan.kind) {
      case R.Fail:
        return {
          rule: plan.rule,
          path: plan.at === "" ? path : [...path, plan.at],
          value: sample(plan.writer, 0),
        };
      case R.Enum: {
        const index = plan.symbols.indexOf(2);
        return index < 0 ? undefined : { rule: "enum_symbol", path, value: plan.writer.symbols[index] };
      }
      case R.WriterUnion:
        for (let b = 0; b < plan.branches.length; b++) {
          const found = search(plan.branches[b]!, path, open);
          if (found) return { ...found, value: wrap(plan.writer.branches[b]!, found.value) };
        }
        return undefined;
      case R.List: {
        const isMap = plan.writer.kind === Kind.Map;
        const found = search(plan.items!, [...path, isMap ? "*" : "0"], open);
        return found && { ...found, value: isMap ? { key: found.value } : [found.value] };
      }
      case R.Record:
        for (const field of plan.fields) {
          if (field.plan === undefined) continue;
          const found = search(field.plan, [...path, field.name], open);
          if (!found) continue;
          const value: Record<string, unknown> = {};
          for (const other of plan.fields)
            value[other.name] = other === field ? found.value : sample(other.writer, 0);
          return { ...found, value };
        }
        return undefined;
      default:
        return undefined;
    }
  } finally {
    open.delete(plan);
  }
}

const BRANCH_NAMES: Partial<Record<Kind, string>> = {
  [Kind.Boolean]: "boolean",
  [Kind.Int]: "int",
  [Kind.Long]: "long",
  [Kind.Float]: "float",
  [Kind.Double]: "double",
  [Kind.Bytes]: "bytes",
  [Kind.String]: "string",
  [Kind.Array]: "array",
  [Kind.Map]: "map",
};

/** A union's value as avsc takes it wrapped: `{ branch: value }`, null for the null branch. */
function wrap(branch: Node, value: unknown): unknown {
  if (branch.kind === Kind.Null) return null;
  return { [BRANCH_NAMES[branch.kind] ?? branch.name]: value };
}

/** The simplest value of a schema (a union's null branch where it has one, so recursion ends). */
function sample(node: Node, depth: number): unknown {
  if (depth > 64) throw new Error("no finite value of this recursive Avro schema");
  switch (node.kind) {
    case Kind.Null:
      return null;
    case Kind.Boolean:
      return false;
    case Kind.Int:
    case Kind.Long:
    case Kind.Float:
    case Kind.Double:
      return 0;
    case Kind.Bytes:
      return Buffer.alloc(0);
    case Kind.String:
      return "";
    case Kind.Fixed:
      return Buffer.alloc(node.size);
    case Kind.Enum:
      return node.symbols[0];
    case Kind.Array:
      return [];
    case Kind.Map:
      return {};
    case Kind.Union: {
      const branch = node.branches.find((b) => b.kind === Kind.Null) ?? node.branches[0]!;
      return wrap(branch, sample(branch, depth + 1));
    }
    case Kind.Record: {
      const value: Record<string, unknown> = {};
      for (const field of node.fields) value[field.name] = sample(field.node, depth + 1);
      return value;
    }
  }
}
