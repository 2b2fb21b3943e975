import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { MAX_KEY_BYTES, compileKeyPattern, withoutPlainGroups } from "../../../src/pipeline/key-pattern.js";
import { ProducerResolver } from "../../../src/pipeline/producer.js";
import { decodeCounts, eventPipeline, record, recordCounts } from "../../helpers/monitor.js";

const NESTED = "^(a+)+$";
const HOSTILE = "a".repeat(40) + "!";

const resolver = (keyPattern: string) => new ProducerResolver({ keyPattern, maxValues: 50 });
const keyed = (key: string) => record({ id: 1, event: "view" }, {}, { key });

/** Milliseconds `work` took. */
function timed(work: () => void): number {
  const start = performance.now();
  work();
  return performance.now() - start;
}

describe("a key pattern on hostile keys", () => {
  it("the key is hostile: a native RegExp of the same pattern is still running after a second (a child process, killed)", () => {
    const script = `/${NESTED}/.exec(${JSON.stringify(HOSTILE)}); process.stdout.write("finished");`;
    const child = spawnSync(process.execPath, ["-e", script], { timeout: 1_000, encoding: "utf8" });
    expect([child.signal, child.stdout]).toEqual(["SIGTERM", ""]);
  });

  it("a nested quantifier answers at once: no producer for the hostile key, the whole run for a matching one", () => {
    const producers = resolver(NESTED);
    let names: string[] = [];
    const ms = timed(() => {
      names = [keyed(HOSTILE), keyed("a".repeat(40)), keyed("a".repeat(39) + "!")].map((r) =>
        producers.resolve(r),
      );
    });
    expect(names).toEqual(["unknown", "a".repeat(40), "unknown"]);
    expect(ms).toBeLessThan(200);
  });

  it("reads the first group as the native engine does, on either engine", () => {
    const cases: ReadonlyArray<readonly [string, string, string | undefined]> = [
      ["^([a-z-]+):", "billing-api:42", "billing-api"],
      ["^([a-z-]+):", "42", undefined],
      ["^(?:(\\w+)\\.)+x$", "a.b.c.x", "c"],
      ["(\\w+)@(\\w+)\\.com$", "id-7 ann@example.com", "ann"],
      ["^(?<svc>[a-z]+)/", "web/1", "web"],
      ["^(x)?y", "y", "y"],
      ["^[a-z]+", "checkout-7", "checkout"],
      ["^[a-z]+-\\d+$", "checkout-7", "checkout-7"],
      // Read without `u`, as `new RegExp(keyPattern)` always read it: `.` is one code unit.
      ["^(..)-", "😀-x", "😀"],
      ["^(.)-", "😀-x", undefined],
      ["^(.+)-x$", "😀😀-x", "😀😀"],
      ["^(.)+-", "a😀-", "\ude00"],
    ];
    for (const [pattern, key, expected] of cases) {
      const native = new RegExp(pattern).exec(key);
      expect([pattern, key, native ? (native[1] ?? native[0]) : undefined]).toEqual([pattern, key, expected]);
      expect([pattern, key, compileKeyPattern(pattern).producerOf(key)]).toEqual([pattern, key, expected]);
    }
  });

  it("runs natively only what cannot backtrack without its plain groups; the rest on RE2", () => {
    const engines = [
      "^([a-z]+):",
      "^([^/]+)/",
      "^(?<svc>[a-z]+)/",
      "^[a-z]+",
      "^[(]([a-z]+)[)]:",
      "^\\(([a-z]+)\\)",
      "^(a+)+$",
      "^([a-z-]+)-",
      "(\\w+)@(\\w+)\\.com$",
      "^(x|y):",
      "^(?:(\\w+)\\.)+x$",
      "^([a-z]+){2}",
    ].map((pattern) => `${pattern} ${compileKeyPattern(pattern).engine}`);
    expect(engines).toEqual([
      "^([a-z]+): native",
      "^([^/]+)/ native",
      "^(?<svc>[a-z]+)/ native",
      "^[a-z]+ native",
      "^[(]([a-z]+)[)]: native",
      "^\\(([a-z]+)\\) native",
      "^(a+)+$ re2",
      "^([a-z-]+)- re2",
      "(\\w+)@(\\w+)\\.com$ re2",
      "^(x|y): re2",
      "^(?:(\\w+)\\.)+x$ re2",
      "^([a-z]+){2} re2",
    ]);
    expect(
      [
        "^([a-z]+):",
        "^(?:a)(?<n>b)c",
        "^[(](x)",
        "^\\(x\\)",
        "^(a)+",
        "^(a|b)",
        "^(?=a)",
        "^(a)\\1",
        "(a",
      ].map(withoutPlainGroups),
    ).toEqual([
      "^[a-z]+:",
      "^abc",
      "^[(]x",
      "^\\(x\\)",
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("a key of the greatest length read answers at once on either engine", () => {
    const key = "a".repeat(MAX_KEY_BYTES);
    for (const pattern of ["^([a-z]+):", NESTED, "^([a-z-]+)-"]) {
      const compiled = compileKeyPattern(pattern);
      const ms = timed(() => compiled.producerOf(key));
      expect([pattern, ms < 200]).toEqual([pattern, true]);
    }
  });

  it("refuses a pattern only a backtracking engine can run, naming the key", () => {
    expect(() => compileKeyPattern("^(?=a)(a+)+$")).toThrow("cannot run in linear time");
  });
});

describe("a key too long for the key pattern", () => {
  it("is not read: the record counts for producer unknown, and as key_too_long; a key at the bound is read", async () => {
    const { pipeline } = await eventPipeline("    producer:\n      keyPattern: '^([a-z]+):'\n");
    const long = "web:" + "x".repeat(MAX_KEY_BYTES - 4);
    const v10 = { "schema-version": "1.0" };
    pipeline.process(record({ id: 1, event: "view" }, v10, { key: long + "x" }));
    pipeline.process(record({ id: 2, event: "view" }, v10, { key: long + "xx" }));
    pipeline.process(record({ id: 3, event: "view" }, v10, { key: long }));
    expect(recordCounts(pipeline)).toEqual(["unknown 1.0.0=2", "web 1.0.0=1"]);
    expect(decodeCounts(pipeline)).toEqual(["events key_too_long=2"]);
  });
});
