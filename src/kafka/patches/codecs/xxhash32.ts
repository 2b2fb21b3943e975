// xxHash32 (https://github.com/Cyan4973/xxHash, XXH32), the checksum of the LZ4 frame format: its
// header checksum, and the optional block and content checksums.
const P1 = 0x9e3779b1;
const P2 = 0x85ebca77;
const P3 = 0xc2b2ae3d;
const P4 = 0x27d4eb2f;
const P5 = 0x165667b1;

const rotl = (x: number, r: number): number => (x << r) | (x >>> (32 - r));
const round = (acc: number, lane: number): number => Math.imul(rotl((acc + Math.imul(lane, P2)) | 0, 13), P1);
const read32 = (data: Uint8Array, at: number): number =>
  data[at]! | (data[at + 1]! << 8) | (data[at + 2]! << 16) | (data[at + 3]! << 24);

/** XXH32 of data[start, end) with the given seed, as an unsigned 32-bit number. */
export function xxhash32(data: Uint8Array, start = 0, end = data.length, seed = 0): number {
  let at = start;
  let h: number;
  if (end - start >= 16) {
    let v1 = (seed + P1 + P2) | 0;
    let v2 = (seed + P2) | 0;
    let v3 = seed | 0;
    let v4 = (seed - P1) | 0;
    const last = end - 16;
    while (at <= last) {
      v1 = round(v1, read32(data, at));
      v2 = round(v2, read32(data, at + 4));
      v3 = round(v3, read32(data, at + 8));
      v4 = round(v4, read32(data, at + 12));
      at += 16;
    }
    h = (rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18)) | 0;
  } else {
    h = (seed + P5) | 0;
  }
  h = (h + (end - start)) | 0;
  for (; at + 4 <= end; at += 4) h = Math.imul(rotl((h + Math.imul(read32(data, at), P3)) | 0, 17), P4);
  for (; at < end; at++) h = Math.imul(rotl((h + Math.imul(data[at]!, P5)) | 0, 11), P1);
  h ^= h >>> 15;
  h = Math.imul(h, P2);
  h ^= h >>> 13;
  h = Math.imul(h, P3);
  h ^= h >>> 16;
  return h >>> 0;
}
