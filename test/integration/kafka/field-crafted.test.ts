import { describe, expect, it } from "vitest";
import type { FieldVerdict } from "../../../src/lifecycle/field-verdicts.js";
import type { RunningMonitor } from "../../../src/monitor/start.js";
import { startLiveMonitor } from "../../helpers/live.js";
import { countedProducer, paySend, payTopic } from "../../helpers/pay-topic.js";
import { waitFor } from "../../helpers/kafka.js";

// Field verdicts a crafted stream must not forge, through a real broker (issue 42): `amount` is
// deprecated in 1.1 and `total` optional; a window of 3 s stands in for the default 7 days.

const WINDOW_MS = 3_000;

function field(monitor: RunningMonitor, pointer: string): FieldVerdict {
  return monitor.report().subjects[0]!.fields!.find((f) => f.field === pointer)!;
}

/** A reason without its age, which the clock decides. */
const ageless = (reason: string) => reason.replace(/, the last one .*?(:|$)/, "$1");

const raw = (value: string) => ({
  value,
  headers: { producer: "web", "schema-version": "1.1" },
  partition: 0,
});

describe("field verdicts on crafted records through a real broker", () => {
  it("a record that is not JSON is unknown use: the drained field is in use again and the ready one is not ready, sampled or not", async () => {
    const { brokers, topic, configPath } = await payTopic({
      prefix: "sw-crafted",
      window: "3s",
      deprecated: true,
    });
    const monitor = await startLiveMonitor(configPath);
    try {
      await waitFor(() => monitor.health.ready, "partitions to be assigned");
      const produced = countedProducer(brokers, topic, monitor);
      await produced([...paySend("billing", 10, `"total":3`), ...paySend("web", 10, `"total":3`)]);
      await waitFor(
        () => field(monitor, "/amount").yes && field(monitor, "/total").yes,
        "both verdicts",
        30_000,
      );

      // A dialect the byte search once read as lacking amount, and one it read as carrying total.
      await produced([raw(`{'id':1,'amount':3,'total':3}`), raw(`{"id":2,"amount":3,"total":3,}`)]);
      const sentAt = Date.now();
      const amount = field(monitor, "/amount");
      expect(amount.yes).toBe(false);
      expect(amount.reasons.map(ageless)).toEqual([
        "2 records of web could not be read in the last 3s: they may carry /amount",
      ]);
      expect(amount.evidence["unknownRecords"]).toBe(2);
      const total = field(monitor, "/total");
      expect(total.yes).toBe(false);
      expect(total.reasons.map(ageless)).toContain(
        "2 records of web could not be read in the last 3s: they may lack /total",
      );
      // A window later, without another such record, both verdicts stand again.
      await waitFor(() => field(monitor, "/amount").yes, "/amount to drain again", 30_000);
      expect(Date.now() - sentAt).toBeGreaterThanOrEqual(WINDOW_MS);
    } finally {
      await monitor.stop();
    }
  });

  it("a key that ends in an escaped quote and the field's name is not the field", async () => {
    const { brokers, topic, configPath } = await payTopic({
      prefix: "sw-crafted",
      window: "3s",
      deprecated: true,
    });
    const monitor = await startLiveMonitor(configPath);
    try {
      await waitFor(() => monitor.health.ready, "partitions to be assigned");
      const produced = countedProducer(brokers, topic, monitor);
      // Web's key is `x"total`, valid JSON, and no record of web has `total`.
      await produced([
        ...paySend("billing", 10, `"total":3`),
        ...paySend("web", 10, String.raw`"x\"total":3`),
      ]);
      const total = field(monitor, "/total");
      expect(total.producers.map((p) => [p.producer, p.present, p.absent, p.unknown])).toEqual([
        ["billing", 10, 0, 0],
        ["web", 0, 10, 0],
      ]);
      // (Beside the coverage's own reasons: the monitor has observed its partitions for less than a window.)
      expect(total.reasons.map(ageless).filter((r) => !r.startsWith("coverage gap"))).toEqual([
        "web still omits /total in 100% of its records (10 of 10 in the last 3s; writer 1.1.0)",
        "0 records carried /total since the last that lacked it; 5 needed",
      ]);
      // Past the window it is still not ready: web never sent it.
      await new Promise((resolve) => setTimeout(resolve, WINDOW_MS + 1_500));
      await produced(paySend("web", 5, String.raw`"x\"total":3`));
      expect(field(monitor, "/total").yes).toBe(false);
      expect(field(monitor, "/total").producers.find((p) => p.producer === "web")?.present).toBe(0);
    } finally {
      await monitor.stop();
    }
  });
});
