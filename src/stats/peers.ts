import {
  changeWords,
  clock,
  keyOf,
  type PeerFinding,
  type Quartiles,
  type ShiftOptions,
} from "./findings.js";
import { quartiles, shiftRatio } from "./shift.js";
import { mergeSketch, newSketch } from "./sketch.js";
import type { Bucket, SeriesKey } from "./store.js";

/**
 * A producer against the other producers of the same version: what its own past cannot show (a new
 * producer that started in dollars) the others can. Pure: buckets in, a finding out.
 *
 * Over the newest PEER_WINDOW buckets of the producer, from each bucket c on: its values against each
 * other producer's values of the same buckets, one vote a producer whatever it sent (pooled by value,
 * a producer that sends most of them would outvote the rest, and every normal producer would be the
 * odd one beside it). A producer votes with at least `minSamples` values there; the producer is odd
 * when at least two vote and more than half of them differ from it by `factor` in every quartile (the
 * scale test's rule) the same way. The peers' quartiles it shows are the voters' medians.
 * The earliest such c of the window is the bucket it is found since.
 */

/** How many of the newest buckets are compared: a difference is found within three buckets. */
export const PEER_WINDOW = 3;

export function detectPeerShift(
  key: SeriesKey,
  own: readonly Bucket[],
  peers: readonly (readonly Bucket[])[],
  options: ShiftOptions,
): PeerFinding | undefined {
  if (peers.length < 2 || own.length === 0) return undefined;
  const window = own.slice(-PEER_WINDOW);
  for (let c = 0; c < window.length; c++) {
    const from = window[c]!.index;
    const mine = newSketch();
    for (let d = c; d < window.length; d++) {
      const sketch = window[d]!.sketch;
      if (sketch) mergeSketch(mine, sketch);
    }
    if (mine.count < options.minSamples) continue;
    const its = quartiles(mine);
    const voters: Quartiles[] = [];
    let samples = 0;
    let up = 0;
    let down = 0;
    for (const buckets of peers) {
      const theirs = newSketch();
      for (const bucket of buckets)
        if (bucket.index >= from && bucket.sketch) mergeSketch(theirs, bucket.sketch);
      if (theirs.count < options.minSamples) continue;
      const q = quartiles(theirs);
      voters.push(q);
      samples += theirs.count;
      const ratio = shiftRatio(q, its, options.factor);
      if (ratio === undefined) continue;
      if (ratio > 1) up++;
      else down++;
    }
    if (voters.length < 2 || 2 * Math.max(up, down) <= voters.length) continue;
    // More than half of the voters apart the same way puts each quartile's median voter among them,
    // so the medians are apart that way too: what the finding shows and its factor.
    const theirs = medianQuartiles(voters);
    const ratio = shiftRatio(theirs, its, options.factor);
    // Stryker disable next-line ConditionalExpression: implied by the majority above; kept for the type
    if (ratio === undefined) continue;
    const since = from * options.bucketMs;
    const { times, check } = changeWords(ratio, options.measure);
    return {
      ...keyOf(key),
      kind: "peers",
      measure: options.measure ?? "value",
      since,
      peers: theirs,
      own: its,
      samplesPeers: samples,
      samplesOwn: mine.count,
      factor: ratio,
      message: `${key.producer}'s ${key.field} (${key.subject}, version ${key.writer}) is ${times} than the other producers' of that version since ${clock(since)}: ${check}`,
    };
  }
  return undefined;
}

/** Each quartile's median over the producers (the lower middle one of an even count). */
function medianQuartiles(voters: readonly Quartiles[]): Quartiles {
  const at = (i: number) => voters.map((q) => q[i]!).sort((a, b) => a - b)[(voters.length - 1) >> 1]!;
  return [at(0), at(1), at(2)];
}
