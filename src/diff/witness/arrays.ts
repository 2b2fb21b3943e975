import type { Loc } from "../document.js";
import type { View } from "../view.js";
import { budget, MAX_LENGTH } from "./composite.js";
import type { PartValues } from "./parts.js";
import type { Scope } from "./scope.js";

/** The schemas that apply to item `index`: a tuple's own, else the rest (`items`, `additionalItems`). */
function itemSchemas(views: readonly View[], index: number): Loc[] {
  // Stryker disable next-line ArrayDeclaration: a non-schema among the item schemas is skipped
  const out: Loc[] = [];
  for (const view of views) {
    if (index < view.prefix.length) out.push(view.prefix[index] as Loc);
    else if (view.rest) out.push(view.rest);
    else {
      // (A directive before `else` would attach to no node of the mutated line: Stryker skipped it.)
      // Stryker disable next-line ConditionalExpression,EqualityOperator,CallExpression: `rest` is unevaluatedItems already where no items keyword is, so this is not reached
      if (view.unevaluatedItems && view.prefix.length === 0) out.push(view.unevaluatedItems);
    }
  }
  return out;
}

/**
 * Arrays of a scope: the shortest one, lengths at both versions' limits, each position with each of its
 * candidate values, a repeated item where the other version wants unique items.
 */
export function arrays(
  generator: PartValues,
  scope: Scope,
  hints: readonly View[],
  depth: number,
): unknown[] {
  const views = scope.views;
  const min = Math.max(0, ...views.map((v) => v.minItems ?? 0));
  const max = Math.min(Infinity, ...views.map((v) => v.maxItems ?? Infinity));
  const unique = views.some((v) => v.uniqueItems);
  const contains = views.flatMap((v) => (v.contains ? [v.contains] : []));
  const tuple = Math.min(4, Math.max(0, ...[...views, ...hints].map((v) => v.prefix.length)));
  // The first position an item matching `contains` can take: a tuple's positions may exclude it.
  let containsAt = 0;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: without contains every position fits, so the loop stops at 0
  if (contains.length > 0) {
    const limit = Math.max(0, ...views.map((v) => v.prefix.length));
    const fits = (i: number) => generator.values([...itemSchemas(views, i), ...contains], [], depth + 1, 1);
    while (containsAt < limit && fits(containsAt).length === 0) containsAt++;
  }
  const cache = new Map<number, unknown[]>();
  const valuesAt = (i: number): unknown[] => {
    let values = cache.get(i);
    // Stryker disable next-line ConditionalExpression: the generator memoises the same question anyway
    if (!values) {
      // Stryker disable next-line ArrayDeclaration: a non-schema among the item schemas is skipped
      const mine = [...itemSchemas(views, i), ...(i === containsAt ? contains : [])];
      values = generator.values(mine, itemSchemas(hints, i), depth + 1, depth < 2 ? 32 : 12);
      // Stryker disable next-line CallExpression: the generator memoises the same question anyway
      cache.set(i, values);
    }
    return values;
  };
  const build = (length: number, at?: number, value?: unknown): unknown[] | undefined => {
    // Stryker disable next-line ConditionalExpression,LogicalOperator: generate keeps only arrays within the scope's minItems and maxItems
    if (length < min || length > max || length > MAX_LENGTH) return undefined;
    const items: unknown[] = [];
    for (let i = 0; i < length; i++) {
      if (i === at) {
        items.push(value);
        continue;
      }
      const options = valuesAt(i);
      const choice = unique
        ? options.find((o) => !items.some((x) => JSON.stringify(x) === JSON.stringify(o)))
        : options[0];
      if (choice === undefined) return undefined;
      items.push(choice);
    }
    return items;
  };
  const shortest = Math.max(min, contains.length > 0 ? containsAt + 1 : 0);
  const out: unknown[] = [];
  const push = (items: unknown[] | undefined): void =>
    void (items && out.length < budget(depth) && out.push(items));
  push(build(shortest));
  const lengths = new Set([0, 1, 2, shortest + 1, tuple, tuple + 1, max]);
  for (const view of hints)
    for (const n of [view.minItems, view.maxItems])
      // Stryker disable next-line ConditionalExpression: a NaN length builds the empty array, tried first anyway
      if (n !== undefined) [n - 1, n, n + 1].forEach((m) => lengths.add(m));
  // Stryker disable next-line ConditionalExpression,EqualityOperator: build() gives nothing below minItems, and minItems is at least 0
  for (const length of lengths) if (length >= 0) push(build(length));
  const positions = Math.max(1, shortest, tuple);
  for (let i = 0; i < positions; i++) {
    for (const value of valuesAt(i).slice(1)) push(build(Math.max(shortest, i + 1), i, value));
  }
  // Past a tuple, the first item the rest schema takes varies too: a rest edited after `items: [...]`
  // (or `prefixItems`) is seen only by an array that fills the tuple and goes one item further.
  const restAt = Math.max(0, ...[...views, ...hints].map((v) => v.prefix.length));
  if (
    restAt >= positions &&
    restAt < MAX_LENGTH &&
    [...views, ...hints].some((v) => v.prefix.length > 0 && v.rest !== undefined)
  ) {
    for (const value of valuesAt(restAt).slice(1)) push(build(Math.max(shortest, restAt + 1), restAt, value));
  }
  // Several items matching `contains`, at the counts either side's minContains/maxContains care about.
  const wanted = [...contains, ...hints.flatMap((v) => (v.contains ? [v.contains] : []))];
  if (wanted.length > 0) {
    const counts = new Set<number>([2]);
    for (const view of [...views, ...hints]) {
      for (const n of [view.minContains, view.maxContains])
        // Stryker disable next-line ConditionalExpression: a NaN count adds no item
        if (n !== undefined) [n - 1, n, n + 1].forEach((m) => counts.add(m));
    }
    const matching = (i: number): unknown[] =>
      generator.values([...itemSchemas(views, i), ...wanted], itemSchemas(hints, i), depth + 1, 4);
    for (const count of counts) {
      if (count < 1 || count > MAX_LENGTH) continue;
      // Tuple positions before `containsAt` keep their plain values; the matching items follow.
      const head = Array.from({ length: containsAt }, (_, i) => valuesAt(i)[0]);
      if (head.includes(undefined)) continue;
      const items: unknown[] = [...head];
      for (let i = containsAt; i < containsAt + count; i++) {
        const options = matching(i);
        const choice = unique
          ? options.find((o) => !items.some((x) => JSON.stringify(x) === JSON.stringify(o)))
          : options[0];
        if (choice !== undefined) items.push(choice);
      }
      const end = containsAt + count;
      if (items.length === end)
        for (const length of [end, end + 1]) {
          const filler = build(length);
          push(filler ? [...items, ...filler.slice(end)] : undefined);
        }
    }
  }
  if (!unique && hints.some((v) => v.uniqueItems)) {
    const [first] = valuesAt(0);
    if (first !== undefined && max >= 2) push(Array.from({ length: Math.max(2, min) }, () => first));
  }
  return out;
}
