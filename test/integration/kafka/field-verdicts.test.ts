import { describe, expect, it } from "vitest";
import type { FieldVerdict } from "../../../src/lifecycle/field-verdicts.js";
import type { RunningMonitor } from "../../../src/monitor/start.js";
import { startLiveMonitor } from "../../helpers/live.js";
import { countedProducer, paySend, payTopic } from "../../helpers/pay-topic.js";
import { waitFor } from "../../helpers/kafka.js";

// Expand, then contract, through a real broker: `total` replaces `amount` (deprecated in 1.1), and
// `total` is made required in two steps. A window of 3 s stands in for the default 7 days.

const WINDOW_MS = 3_000;

const setup = () => payTopic({ prefix: "sw-fields", window: "3s", deprecated: true });

/** `n` records of a producer, with the raw JSON `body` (the id is added), round robin over both partitions. */
const send = paySend;

function field(monitor: RunningMonitor, pointer: string): FieldVerdict {
  return monitor.report().subjects[0]!.fields!.find((f) => f.field === pointer)!;
}

describe("field verdicts through a real broker", () => {
  it("a rename: amount drains only a window after the last producer dropped it (an escaped key counts), total is ready only once the last producer sends it", async () => {
    const { brokers, topic, configPath } = await setup();
    const monitor = await startLiveMonitor(configPath);
    try {
      await waitFor(() => monitor.health.ready, "partitions to be assigned");
      const produced = countedProducer(brokers, topic, monitor);

      // Expand: billing sends both names, web still only the old one.
      await produced([...send("billing", 10, `"amount":3,"total":3`), ...send("web", 10, `"amount":3`)]);
      const amount1 = field(monitor, "/amount");
      expect(amount1.yes).toBe(false);
      expect(amount1.reasons.slice(0, 2).map((r) => r.replace(/, the last one .*$/, ""))).toEqual([
        "billing still sends /amount in 100% of its records (10 of 10 in the last 3s; writer 1.1.0)",
        "web still sends /amount in 100% of its records (10 of 10 in the last 3s; writer 1.1.0)",
      ]);
      expect(field(monitor, "/total").reasons[0]!.replace(/, the last one .*$/, "")).toBe(
        "web still omits /total in 100% of its records (10 of 10 in the last 3s; writer 1.1.0)",
      );

      // Web sends both now; billing drops the old name first.
      await produced([...send("billing", 10, `"total":3`), ...send("web", 10, `"amount":3,"total":3`)]);
      const webSendsTotalSince = Date.now();
      const amount2 = field(monitor, "/amount");
      expect(amount2.producers.map((p) => [p.producer, p.present, p.records])).toEqual([
        ["billing", 10, 20],
        ["web", 20, 20],
      ]);
      // Then web drops it too: a window later, nothing carried amount.
      await produced(send("web", 10, `"total":3`));
      const droppedAt = Date.now();
      expect(field(monitor, "/amount").yes).toBe(false);
      expect(field(monitor, "/total").yes).toBe(false);
      await waitFor(() => field(monitor, "/amount").yes, "/amount to drain", 30_000);
      expect(Date.now() - droppedAt).toBeGreaterThanOrEqual(WINDOW_MS);
      // Ready to require once the last producer has sent total in every record for the window.
      await waitFor(() => field(monitor, "/total").yes, "/total to be ready to require", 30_000);
      expect(Date.now() - webSendsTotalSince).toBeGreaterThanOrEqual(WINDOW_MS);

      // A record whose key is written with an escape still carries amount: it is in use again. It comes
      // last in its partition's batch, after records with no backslash: the search for escapes that
      // the first of them began reads on through the batch (docs/fields.md) and must find it.
      await produced([...send("web", 8, `"total":3`), ...send("web", 1, `"\\u0061mount":3,"total":3`)]);
      const escapedAt = Date.now();
      const again = field(monitor, "/amount");
      expect(again.yes).toBe(false);
      expect(again.reasons).toHaveLength(1);
      // The counts may be whole buckets begun before the window (a tick of the clock, 1 s, and a
      // bucket), so web's records of a moment before the drain may still be among them: the span
      // then says how far back they reach.
      expect(again.reasons[0]).toMatch(
        /^web still sends \/amount in \d+% of its records \(\d+ of \d+ in the last \d+s; writer 1\.1\.0\), the last one (just now|\d+ms ago|\d+s ago)$/,
      );
      expect(again.producers.find((p) => p.producer === "web")?.present).toBeGreaterThanOrEqual(1);
      // Drained again only a whole window after it.
      await waitFor(() => field(monitor, "/amount").yes, "/amount to drain again", 30_000);
      expect(Date.now() - escapedAt).toBeGreaterThanOrEqual(WINDOW_MS);
      const drained = field(monitor, "/amount");
      expect(drained.evidence["lastCarriedBy"]).toBe("web");
      expect(drained.evidence["partitions"]).toBe(2);
      const attention = monitor.report().attention.filter((a) => a.kind.startsWith("field-"));
      expect(attention.map((a) => [a.kind, a.action])).toEqual([
        ["field-drained", "Remove /amount in 2.0.0."],
        ["field-ready", "It can be added to required in 2.0.0."],
      ]);
    } finally {
      await monitor.stop();
    }
  });
});
