import { copyLiteral, copyMatch, type Bytes } from "./copy.js";
import { CodecError } from "./errors.js";

const fail = (problem: string): CodecError => new CodecError("lz4", problem);
const truncated = (): CodecError => fail("the input ends in the middle of a block (truncated?)");

/**
 * Decodes one LZ4 block (https://github.com/lz4/lz4/blob/dev/doc/lz4_Block_format.md) from
 * src[sp, srcEnd) into out starting at op, writing no further than outLimit; a match may reach back
 * as far as windowStart (the block's own start for independent blocks, the frame's for linked ones).
 * Returns the new end of the output. `overflow` builds the error for output past outLimit.
 */
export function decodeLz4Block(
  source: Bytes,
  sp: number,
  srcEnd: number,
  out: Bytes,
  op: number,
  outLimit: number,
  windowStart: number,
  overflow: () => CodecError,
): number {
  const src = source.bytes;
  for (;;) {
    if (sp >= srcEnd) throw truncated();
    const token = src[sp++]!;
    let literals = token >>> 4;
    if (literals === 15) {
      let byte: number;
      do {
        if (sp >= srcEnd) throw truncated();
        byte = src[sp++]!;
        literals += byte;
      } while (byte === 255);
    }
    if (sp + literals > srcEnd) throw truncated();
    if (op + literals > outLimit) throw overflow();
    copyLiteral(source, sp, out, op, literals);
    sp += literals;
    op += literals;
    // The last sequence of a block has literals only.
    if (sp === srcEnd) return op;

    if (sp + 2 > srcEnd) throw truncated();
    const offset = src[sp]! | (src[sp + 1]! << 8);
    sp += 2;
    if (offset === 0 || offset > op - windowStart) {
      throw fail("a match refers to bytes before the start of its window (corrupt)");
    }
    let length = (token & 15) + 4;
    if (length === 19) {
      let byte: number;
      do {
        if (sp >= srcEnd) throw truncated();
        byte = src[sp++]!;
        length += byte;
      } while (byte === 255);
    }
    if (op + length > outLimit) throw overflow();
    copyMatch(out, op, offset, length);
    op += length;
  }
}
