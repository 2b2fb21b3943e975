import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The linter keeps kafkajs's private modules inside src/kafka/patches/ and the room's entrance at its
// index.ts (eslint.config.js), so a new adaptation cannot start somewhere else unnoticed.
const eslint = new ESLint();
const problems = async (file: string, code: string): Promise<string[]> => {
  const [result] = await eslint.lintText(`${code}\nexport {};\n`, { filePath: file });
  return result!.messages.filter((m) => m.ruleId === "no-restricted-syntax").map((m) => m.message);
};
const PRIVATE =
  "kafkajs's private modules are named in src/kafka/patches/ only (kafkajs.ts): add the adaptation there";
const ENTRANCE = "src/kafka/patches/ is entered through its index.ts: export what you need from there";

describe("the kafkajs patches room", () => {
  it.each([
    ["src/kafka/source.ts", 'export const m = "kafkajs/src/network/requestQueue/index.js";', PRIVATE],
    ["src/state/topic.ts", 'export const m = `kafkajs/src/${"errors"}.js`;', PRIVATE],
    ["src/monitor/start.ts", 'export const m = import("kafkajs/src/admin/index.js");', PRIVATE],
    [
      "src/kafka/batch.ts",
      'import { KafkaRecord } from "./patches/kafka-record.js";\nvoid KafkaRecord;',
      ENTRANCE,
    ],
    ["src/state/messages.ts", 'export { UNDECODABLE } from "../kafka/patches/decode-guard.js";', ENTRANCE],
    ["src/monitor/start.ts", 'export const m = import("../kafka/patches/codecs/index.js");', ENTRANCE],
  ])("refuses in %s: %s", async (file, code, why) => {
    expect(await problems(file, code)).toEqual([why]);
  });

  it.each([
    ["src/kafka/patches/log-end.ts", 'export const m = "kafkajs/src/admin/index.js";'],
    ["src/kafka/patches/codecs/zlib.ts", 'export const m = "kafkajs/src/errors.js";'],
    ["src/kafka/patches/index.ts", 'export { KafkaRecord } from "./kafka-record.js";'],
    ["src/kafka/batch.ts", 'import { KafkaRecord } from "./patches/index.js";\nvoid KafkaRecord;'],
    ["src/monitor/start.ts", 'export const m = import("../kafka/patches/index.js");'],
    ["src/kafka/connection.ts", 'import { logLevel } from "kafkajs";\nvoid logLevel;'],
  ])("lets %s say %s", async (file, code) => {
    expect(await problems(file, code)).toEqual([]);
  });
});
