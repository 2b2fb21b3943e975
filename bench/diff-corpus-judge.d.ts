// Types of bench/diff-corpus-judge.js, for test/unit/diff/real-world.test.ts: bench/ is plain JavaScript.
export interface RealPair {
  readonly schema: string;
  readonly name: string;
  readonly old: unknown;
  readonly new: unknown;
  readonly docs: ReadonlyArray<{ readonly file: string; readonly json: unknown }>;
}
export interface PairVerdict {
  readonly name: string;
  readonly seconds: number;
  readonly refused?: string;
  readonly backward?: string;
  readonly forward?: string;
  readonly decided?: number;
  readonly budget?: readonly string[];
  readonly unsound?: readonly string[];
  readonly falseAlarms?: readonly string[];
  readonly missed?: readonly string[];
  readonly disagreements?: readonly string[];
}
export interface EngineCompiler {
  compileVersion(input: {
    uri: string;
    json: unknown;
    name: string;
    refs?: readonly unknown[];
  }): (document: unknown) => boolean;
}
export declare const ROOT: string;
/** The schema with every `const: v` spelled `enum: [v]` (draft-04 has no `const`; ajv reads it). */
export declare function constAsEnum(schema: unknown): unknown;
export declare function loadRealCorpus(): {
  source: string;
  head: string;
  pairs: RealPair[];
  refs: Map<string, unknown>;
};
export declare function judgePair(
  pair: RealPair,
  refs: Map<string, unknown>,
  diffSchemas: (old: unknown, next: unknown, options: object) => unknown,
  engine: EngineCompiler,
  budget?: number,
): Promise<PairVerdict>;
