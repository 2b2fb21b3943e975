import { changeWords, clock, keyOf, type PeerFinding, type ShiftOptions } from "./findings.js";
import { quartiles, shiftRatio } from "./shift.js";
import { mergeSketch, newSketch } from "./sketch.js";
import type { Bucket, SeriesKey } from "./store.js";

/**
 * A producer against the other producers of the same version: what its own past cannot show (a new
 * producer that started in dollars) the others can. Pure: buckets in, a finding out.
 *
 * Over the newest PEER_WINDOW buckets of the producer, from each bucket c on: its values against the
 * other producers' values of the same buckets together, each side with at least `minSamples`, and
 * every quartile apart by `factor` (the scale test's rule). At least two other producers are needed,
 * so that a majority says which side is odd: with two producers each would be the odd one. The
 * earliest such c of the window is the bucket it is found since.
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
    const others = newSketch();
    for (const buckets of peers) {
      for (const bucket of buckets)
        if (bucket.index >= from && bucket.sketch) mergeSketch(others, bucket.sketch);
    }
    if (mine.count < options.minSamples || others.count < options.minSamples) continue;
    const theirs = quartiles(others);
    const its = quartiles(mine);
    const ratio = shiftRatio(theirs, its, options.factor);
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
      samplesPeers: others.count,
      samplesOwn: mine.count,
      factor: ratio,
      message: `${key.producer}'s ${key.field} (${key.subject}, version ${key.writer}) is ${times} than the other producers' of that version since ${clock(since)}: ${check}`,
    };
  }
  return undefined;
}
