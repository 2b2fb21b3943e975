import { describe, expect, it } from "vitest";
import type { FieldVerdict } from "../../../src/lifecycle/field-verdicts.js";
import type { RunningMonitor } from "../../../src/monitor/start.js";
import { startLiveMonitor } from "../../helpers/live.js";
import { countedProducer, paySchema, paySend, payTopic } from "../../helpers/pay-topic.js";
import { waitFor } from "../../helpers/kafka.js";

// Presence by JSON Pointer through a real broker (issue 38): 1.1 deprecates an order line's `sku`
// (`/items/*/sku`) while the top-level `sku` (`/sku`, optional) is still sent. A window of 3 s.

const WINDOW_MS = 3_000;

const V11 = paySchema(
  "1.1",
  {
    id: { type: "integer" },
    sku: { type: "string" },
    items: { type: "array", items: { properties: { sku: { type: "string", deprecated: true } } } },
  },
  ["id", "items"],
);

function field(monitor: RunningMonitor, pointer: string): FieldVerdict {
  return monitor.report().subjects[0]!.fields!.find((f) => f.field === pointer)!;
}

const present = (monitor: RunningMonitor, pointer: string) =>
  field(monitor, pointer).producers.map((p) => [p.producer, p.present, p.records]);

describe("field presence by pointer through a real broker", () => {
  it("/items/*/sku drains while /sku is still sent, /sku is unaffected, and an escaped key in an item puts it back in use", async () => {
    const { brokers, topic, configPath } = await payTopic({
      prefix: "sw-pointer",
      window: "3s",
      deprecated: false,
      files: { "pay/1.1.json": V11 },
    });
    const monitor = await startLiveMonitor(configPath);
    try {
      await waitFor(() => monitor.health.ready, "partitions to be assigned");
      const produced = countedProducer(brokers, topic, monitor);
      expect(monitor.report().subjects[0]!.fields!.map((f) => [f.field, f.fieldKind])).toEqual([
        ["/items/*/sku", "deprecated"],
        ["/sku", "optional"],
      ]);

      // Web still sends the line's sku; billing only the top-level one.
      await produced([
        ...paySend("web", 10, `"sku":"a","items":[{"n":1},{"sku":"a"}]`),
        ...paySend("billing", 10, `"sku":"a","items":[{"n":1}]`),
      ]);
      expect(field(monitor, "/items/*/sku").yes).toBe(false);
      expect(present(monitor, "/items/*/sku")).toEqual([
        ["billing", 0, 10],
        ["web", 10, 10],
      ]);
      expect(present(monitor, "/sku")).toEqual([
        ["billing", 10, 10],
        ["web", 10, 10],
      ]);

      // Web drops it from its lines; both still send /sku.
      await produced(paySend("web", 10, `"sku":"a","items":[{"n":1}]`));
      const droppedAt = Date.now();
      await waitFor(() => field(monitor, "/items/*/sku").yes, "/items/*/sku to drain", 30_000);
      expect(Date.now() - droppedAt).toBeGreaterThanOrEqual(WINDOW_MS);
      // /sku was in every record all along: ready to require, its counts every record's.
      await waitFor(() => field(monitor, "/sku").yes, "/sku to be ready", 30_000);
      expect(field(monitor, "/sku").evidence["recordsSinceMissing"]).toBe(30);

      // A line's key written with an escape is the line's sku: in use again. /sku is not touched.
      await produced([
        ...paySend("web", 8, `"sku":"a","items":[{"n":1}]`, 0),
        ...paySend("web", 1, String.raw`"sku":"a","items":[{"n":1},{"\u0073ku":"b"}]`, 0),
      ]);
      const again = field(monitor, "/items/*/sku");
      expect(again.yes).toBe(false);
      expect(again.reasons).toHaveLength(1);
      expect(again.reasons[0]).toMatch(/^web still sends \/items\/\*\/sku in \d+% of its records/);
      expect(again.evidence["lastCarriedBy"]).toBe("web");
      expect(field(monitor, "/sku").yes).toBe(true);
      expect(field(monitor, "/sku").evidence["recordsSinceMissing"]).toBe(39);
    } finally {
      await monitor.stop();
    }
  });
});
