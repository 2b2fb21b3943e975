// Types of bench/scale-catalog.js, for the tests that replay the same generated cluster
// (test/unit/report/attention-groups.test.ts): bench/ is plain JavaScript.
export declare const VERSIONS: ReadonlyArray<{ file: string; version: string; status: string }>;
export declare const PRODUCERS: number;
export declare const PARTITIONS: number;
export declare function producersPerSubject(subjects: number): number;
export declare function partitionsPerTopic(subjects: number): number;
export declare function writeCluster(
  dir: string,
  subjects: number,
  records: number,
): Promise<{ config: (ratio: number) => string; capture: string }>;
export declare function writeRegistryCluster(
  dir: string,
  subjects: number,
  url: string,
  prefix: string,
): Promise<{ config: string; capture: string }>;
