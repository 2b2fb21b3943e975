// Every figure the benchmark states has a target and a verdict, and the verdict is computed on the
// unrounded value. The printed value gets more decimals when rounding would make it read as the other
// verdict (2.004 against "≤ 2.00" prints as 2.004, never as a contradictory "2.00 MISS").

/** The figures of one run, printed as they are measured and once more together at the end. */
export class Figures {
  #all = [];

  /**
   * @param {string} name what was measured
   * @param {number} value the unrounded measurement
   * @param {{ target: number, better: "lower" | "higher", unit?: string, digits?: number, note?: string }} spec
   */
  add(name, value, { target, better, unit = "", digits = 2, note = "" }) {
    const pass = better === "lower" ? value <= target : value >= target;
    const passes = (shown) => (better === "lower" ? shown <= target : shown >= target);
    let places = digits;
    while (places < 6 && passes(Number(value.toFixed(places))) !== pass) places++;
    const line = `${name}: ${value.toFixed(places)}${unit} (target ${better === "lower" ? "≤" : "≥"} ${target.toFixed(digits)}${unit}) ${pass ? "PASS" : "MISS"}${note ? `, ${note}` : ""}`;
    this.#all.push(line);
    console.log(line);
    return pass;
  }

  print() {
    console.log(`\nTargets (${this.#all.length}), each verdict on the unrounded value:`);
    for (const line of this.#all) console.log(`- ${line}`);
  }
}
