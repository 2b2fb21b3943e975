import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

import { install, installed } from "../../../../src/kafka/patches/index.js";
import { PRIVATE_MODULES } from "../../../../src/kafka/patches/kafkajs.js";

// install() is the room's one way in: it puts the three adaptations into kafkajs's shared modules,
// once, whoever calls it. Each test file runs in a process of its own, so kafkajs is untouched here
// until this file installs.
const require = createRequire(import.meta.url);
const decoderModule = () => require(PRIVATE_MODULES.recordBatchDecoder) as unknown;
const RequestQueue = require(PRIVATE_MODULES.requestQueue) as { prototype: Record<string, unknown> };
const { CompressionCodecs } = require("kafkajs") as { CompressionCodecs: Record<number, () => unknown> };
const kafkajsDecoder = decoderModule();
const kafkajsSchedule = RequestQueue.prototype["scheduleCheckPendingRequests"];

describe("install", () => {
  it("is not there until called, then puts the decode guard, the request queue fix and the codecs in", () => {
    expect(installed()).toBe(false);
    // kafkajs 2.2.4 has no snappy codec of its own: its table throws.
    expect(() => CompressionCodecs[2]!()).toThrow("Snappy compression not implemented");
    install();
    expect(installed()).toBe(true);
    expect(decoderModule()).not.toBe(kafkajsDecoder);
    expect(RequestQueue.prototype["scheduleCheckPendingRequests"]).not.toBe(kafkajsSchedule);
    for (const attribute of [1, 2, 3, 4]) {
      const codec = CompressionCodecs[attribute]!() as { decompress?: unknown; compress?: unknown };
      expect([typeof codec.decompress, typeof codec.compress]).toEqual(["function", "function"]);
    }
  });

  it("changes nothing when called again", () => {
    install();
    const decoder = decoderModule();
    const schedule = RequestQueue.prototype["scheduleCheckPendingRequests"];
    const factories = [1, 2, 3, 4].map((attribute) => CompressionCodecs[attribute]);
    install();
    install();
    expect(decoderModule()).toBe(decoder);
    expect(RequestQueue.prototype["scheduleCheckPendingRequests"]).toBe(schedule);
    expect([1, 2, 3, 4].map((attribute) => CompressionCodecs[attribute])).toEqual(factories);
    expect(installed()).toBe(true);
  });
});
