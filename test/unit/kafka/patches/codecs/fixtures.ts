// The committed codec fixtures (fixtures/generate.js says how they were made) and the helpers the
// codec tests share.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { expect } from "vitest";

import { CodecError, type CodecName } from "../../../../../src/kafka/patches/codecs/errors.js";

const DIR = join(import.meta.dirname, "fixtures");

interface Manifest {
  inputs: Record<string, { bytes: number; sha256: string; records?: number }>;
  fixtures: Record<string, { codec: CodecName; input: string; producedBy: string; bytes: number }>;
}

export const manifest = JSON.parse(readFileSync(join(DIR, "manifest.json"), "utf8")) as Manifest;

export function fixture(name: string): Buffer {
  return readFileSync(join(DIR, name));
}

export const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

/** The fixtures of one codec, with the length and hash their decompressed bytes must have. */
export function fixturesOf(codec: CodecName): { name: string; bytes: number; sha256: string }[] {
  return Object.entries(manifest.fixtures)
    .filter(([, f]) => f.codec === codec)
    .map(([name, f]) => ({ name, ...manifest.inputs[f.input]! }));
}

/** A message made only of the codec's fixed wording and numbers: never a byte of the payload. */
export function expectCodecError(error: unknown, codec: CodecName, problem?: RegExp): void {
  expect(error).toBeInstanceOf(CodecError);
  const e = error as CodecError;
  expect(e.code).toBe("BATCH_UNDECODABLE");
  expect(e.codec).toBe(codec);
  expect(e.message).toMatch(new RegExp(`^${codec} batch cannot be decompressed: [\\w ',()?.-]+$`));
  if (problem !== undefined) expect(e.message).toMatch(problem);
}

/** The error `fn` throws (fails the test when it returns). */
export function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw, but it returned");
}

/** Cut points for truncation tests: every length near both ends and a spread through the middle. */
export function cutPoints(length: number, spread = 200): number[] {
  const cuts = new Set<number>();
  for (let i = 0; i < Math.min(64, length); i++) {
    cuts.add(i);
    cuts.add(length - 1 - i);
  }
  for (let i = 0; i < spread; i++) cuts.add(Math.floor((length * i) / spread));
  return [...cuts].filter((c) => c >= 0 && c < length).sort((a, b) => a - b);
}
