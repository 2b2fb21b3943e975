import type { Cell } from "../pipeline/tallies.js";

type Sample = { readonly labels: object; readonly value: number };

/**
 * The samples of counter cells summed over their `producer` label, which the samples leave out: what
 * `sum without (producer)` would give in Prometheus, computed at scrape time so that a target exports
 * one series per label set instead of one per producer (config `metrics.producerDetail: false`).
 *
 * The label is dropped rather than set to a placeholder such as `*`: to Prometheus a missing label
 * and an empty one are the same, so `sum by (…, producer, …)` still groups, with one group whose
 * producer is empty, and `producer=~".*"` still matches; no placeholder can collide with a real
 * producer's name or pass for one in an alert.
 *
 * The cells array only grows (tallies never remove a cell) and a cell's labels never change, so a sum
 * never goes backwards: each new cell is assigned to its sum once, and a scrape only adds values up.
 */
export class SummedWithoutProducer<L extends { readonly producer: string }> {
  readonly #cells: readonly Cell<L>[];
  /** For each cell already seen, in the cells' order: the index of its sum. */
  readonly #sumOf: number[] = [];
  readonly #labels: Omit<L, "producer">[] = [];
  readonly #byKey = new Map<string, number>();

  constructor(cells: readonly Cell<L>[]) {
    this.#cells = cells;
  }

  samples(): Sample[] {
    const cells = this.#cells;
    for (let i = this.#sumOf.length; i < cells.length; i++)
      this.#sumOf.push(this.#sumIndex(cells[i]!.labels));
    const values = new Array<number>(this.#labels.length).fill(0);
    for (let i = 0; i < cells.length; i++) values[this.#sumOf[i]!]! += cells[i]!.value;
    return this.#labels.map((labels, i) => ({ labels, value: values[i]! }));
  }

  #sumIndex(labels: L): number {
    const { producer: _producer, ...rest } = labels;
    // Label values never hold a NUL or a \u0001 (topics, versions and keywords cannot), so they separate.
    const key = Object.entries(rest)
      .map(([name, value]) => `${name}\u0001${String(value)}`)
      .join("\u0000");
    let index = this.#byKey.get(key);
    if (index === undefined) {
      index = this.#labels.length;
      this.#labels.push(rest);
      this.#byKey.set(key, index);
    }
    return index;
  }
}
