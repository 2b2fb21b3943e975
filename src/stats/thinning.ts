/**
 * Which validated records of one (subject, producer) have their numbers and string lengths profiled
 * (values are counted from every record, listener.ts says why): all of them while the producer sends
 * at most `max` a second, else a random share of them, about `max` a second.
 *
 * Statistics need hundreds of values a bucket, not 200,000 a second: profiling every validated record
 * was a tenth of the CPU of a record validated by three readers (BENCHMARKS.md, issue 37). A cap that
 * took each second's first records would see only the producers and partitions read early in it; this
 * takes each record of a second with one chance, the same for every writer version of the producer,
 * so no partition or version is favoured within a second. The chance of a second is `max` over the
 * producer's records in its last second with records; a second whose rate jumped more than twofold
 * stops at `2 × max` (only there are its first records favoured, until the next second adapts).
 *
 * A record drawn stands for the records its chance passed over: it weighs one over its chance (20
 * at a chance of 0.05), so within a bucket a second of 20,000 records weighs twenty times a second of
 * 1,000, and a producer whose values change with its rate has the quartiles of its records, not of its
 * seconds. A weight is a whole number (the sketches and the state keep counts): 1 / chance rounded
 * down or up at random, in proportion, so that it is right on average (12.5 is 12 or 13, half each).
 * Replicas that read parts of one producer's partitions each weigh by their own rate, so their merged
 * quartiles are the producer's too. Only a second whose rate more than doubled, past its ceiling of
 * `2 × max` records, counts fewer records than it had.
 *
 * The clock is the time records are observed (a replay's own), and the random numbers come from a
 * generator seeded by the subject's and the producer's names (`thinningFor`): one capture replayed
 * twice profiles the same records, whatever other subjects and producers it holds.
 */
export class ProducerThinning {
  #second = Number.NaN;
  #seen = 0;
  #taken = 0;
  #chance = 1;
  #weight = 1;

  constructor(
    readonly max: number,
    readonly random: () => number,
  ) {}

  /**
   * Whether the record observed at `at` (ms) is profiled, and as how many: 0 when it is not, else the
   * records it stands for (1 while every record is taken).
   */
  draw(at: number): number {
    const second = Math.floor(at / 1000);
    if (second !== this.#second) {
      // 1 or more (Infinity at the first second, which knows no rate) takes every record.
      this.#chance = this.max / this.#seen;
      // What a record drawn stands for, exact where it is whole (not 1 / chance, which may be 2.9999…).
      this.#weight = this.#seen / this.max;
      this.#second = second;
      this.#seen = 0;
      this.#taken = 0;
    }
    this.#seen++;
    if (this.#taken >= 2 * this.max) return 0;
    if (this.#chance >= 1) {
      this.#taken++;
      return 1;
    }
    if (this.random() >= this.#chance) return 0;
    this.#taken++;
    const weight = this.#weight;
    const whole = Math.floor(weight);
    // A whole weight (a rate that is a multiple of max) asks for no second random number.
    return whole === weight ? whole : whole + (this.random() < weight - whole ? 1 : 0);
  }
}

/**
 * A seeded generator of numbers in [0, 1) (mulberry32): the same seed, the same sequence, so a replay
 * profiles what the last replay did. Not for anything secret.
 */
export function seededRandom(seed = 0x9e3779b9): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The thinning of one (subject, producer), its draws seeded by the two names (FNV-1a of them). */
export function thinningFor(subject: string, producer: string, max: number): ProducerThinning {
  const text = `${subject}\0${producer}`;
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return new ProducerThinning(max, seededRandom(hash));
}
