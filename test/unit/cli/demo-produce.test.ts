import { describe, expect, it } from "vitest";
import { loadSchemaFiles } from "../../../src/catalog/load.js";
import type { CommandContext } from "../../../src/cli/command.js";
import {
  demoDocument,
  demoProduceCommand,
  demoValue,
  versionHeader,
} from "../../../src/cli/commands/demo-produce.js";
import { SchemawatchError } from "../../../src/errors.js";

// The flags and the documents of `schemawatch demo-produce`, without a broker: every bad flag is a USAGE
// error before kafkajs is even loaded (main turns USAGE into exit 2). Sending to a real broker is
// test/integration/e2e/demo-produce.test.ts.

function context(): CommandContext & { out: () => string } {
  let out = "";
  return {
    stdout: { write: (chunk: string) => (out += chunk) },
    stderr: { write: () => true },
    env: {},
    cwd: process.cwd(),
    stopSignal: new AbortController().signal,
    out: () => out,
  };
}

const GOOD = ["--brokers", "127.0.0.1:1", "--topic", "events", "--producer", "legacy", "--version", "1.0.0"];

function without(flag: string): string[] {
  const i = GOOD.indexOf(flag);
  return [...GOOD.slice(0, i), ...GOOD.slice(i + 2)];
}

async function usage(args: string[]): Promise<string> {
  const error: unknown = await demoProduceCommand.run(args, context()).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, args.join(" ")).toBeInstanceOf(SchemawatchError);
  expect((error as SchemawatchError).code).toBe("USAGE");
  return (error as SchemawatchError).message;
}

describe("schemawatch demo-produce flags", () => {
  it("prints its help", async () => {
    const ctx = context();
    expect(await demoProduceCommand.run(["--help"], ctx)).toBe(0);
    expect(ctx.out()).toContain("Usage: schemawatch demo-produce --brokers LIST --topic NAME");
    expect(demoProduceCommand.name).toBe("demo-produce");
  });

  it("names each missing flag", async () => {
    expect(await usage(without("--brokers"))).toMatch(/--brokers LIST is required/);
    expect(await usage(without("--topic"))).toMatch(/--topic NAME is required/);
    expect(await usage(without("--producer"))).toMatch(/--producer NAME is required/);
    expect(await usage(without("--version"))).toMatch(/--version 1\.0\.0\|1\.1\.0 is required/);
  });

  it("rejects bad values with what was given", async () => {
    expect(await usage([...without("--version"), "--version", "2.0.0"])).toMatch(
      /--version must be 1\.0\.0 or 1\.1\.0, got '2\.0\.0'/,
    );
    expect(await usage([...GOOD, "--rate", "0"])).toMatch(/--rate must be a number in \(0, 10000\], got '0'/);
    expect(await usage([...GOOD, "--rate", "fast"])).toMatch(/--rate must be .* got 'fast'/);
    expect(await usage([...GOOD, "--count", "1.5"])).toMatch(/--count must be a positive integer, got '1.5'/);
    expect(await usage([...GOOD, "--count=-3"])).toMatch(/--count must be a positive integer/);
    expect(await usage([...GOOD, "--wire-id", "4294967296"])).toMatch(/--wire-id must be a schema id/);
    expect(await usage([...without("--brokers"), "--brokers", "kafka"])).toMatch(
      /--brokers takes host:port entries, got 'kafka'/,
    );
    expect(await usage([...GOOD, "--speed", "3"])).toMatch(/unknown flag --speed\n[\s\S]*--help/);
    expect(await usage([...GOOD, "extra"])).toMatch(/unexpected argument 'extra'/);
  });
});

describe("the demo documents", () => {
  it("follow the article's story: 1.0.0 passes 1.0 only on its own terms, 1.1.0 fails the closed 1.0", async () => {
    const [v10, v11, v20] = await loadSchemaFiles([
      "examples/catalog/event/1.0.json",
      "examples/catalog/event/1.1.json",
      "examples/catalog/event/2.0.json",
    ]);
    const old = Array.from({ length: 30 }, (_, n) => demoDocument("1.0.0", n));
    const recent = Array.from({ length: 30 }, (_, n) => demoDocument("1.1.0", n));
    expect(new Set(old.map((d) => d["event"]))).toEqual(new Set(["view", "click"]));
    expect(new Set(recent.map((d) => d["event"]))).toEqual(new Set(["view", "click", "buy"]));
    // Exact figures in the end-to-end test depend on these: every 1.0.0 document passes 1.0 and 1.1
    // and fails the 2.0 candidate (no amount); every 1.1.0 document fails 1.0 and passes 1.1 and 2.0.
    for (const d of old)
      expect([v10!.validate(d), v11!.validate(d), v20!.validate(d)]).toEqual([true, true, false]);
    for (const d of recent)
      expect([v10!.validate(d), v11!.validate(d), v20!.validate(d)]).toEqual([false, true, true]);
  });

  it("declare their version as the article writes it, or behind the wire prefix", () => {
    expect(versionHeader("1.0.0")).toBe("event/1.0");
    expect(versionHeader("1.1.0")).toBe("event/1.1");
    expect(demoValue({ id: 1 }).toString()).toBe('{"id":1}');
    const wire = demoValue({ id: 1 }, 102);
    expect([...wire.subarray(0, 5)]).toEqual([0, 0, 0, 0, 102]);
    expect(wire.subarray(5).toString()).toBe('{"id":1}');
  });
});
