// The two copies every LZ77 decoder (snappy, LZ4) spends its time in. Below SHORT_COPY bytes a plain
// loop beats the call into a native copy; bench/codecs.js measures the decoders that use these.
const SHORT_COPY = 16;

/** Copies src[from, from + length) to out at op. */
export function copyLiteral(
  src: Uint8Array,
  from: number,
  out: Uint8Array,
  op: number,
  length: number,
): void {
  if (length < SHORT_COPY) {
    for (let i = 0; i < length; i++) out[op + i] = src[from + i]!;
  } else {
    out.set(src.subarray(from, from + length), op);
  }
}

/** Copies length bytes from offset bytes back; the ranges overlap when offset < length (a run). */
export function copyMatch(out: Uint8Array, op: number, offset: number, length: number): void {
  const from = op - offset;
  if (offset >= length && length >= SHORT_COPY) {
    out.copyWithin(op, from, from + length);
  } else {
    for (let i = 0; i < length; i++) out[op + i] = out[from + i]!;
  }
}
