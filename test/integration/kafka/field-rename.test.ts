import { describe, expect, it } from "vitest";
import type { RenameProgress } from "../../../src/fields/rename-progress.js";
import type { RunningMonitor } from "../../../src/monitor/start.js";
import { startLiveMonitor } from "../../helpers/live.js";
import { countedProducer, paySend, payTopic } from "../../helpers/pay-topic.js";
import { waitFor } from "../../helpers/kafka.js";

// A rename the schemas do not mark, through a real broker: pay 1.1 declares amount and total side by
// side, and the config says total replaces amount. Each producer's records per form are counted
// exactly, and its step moves on only once the forms before it are a whole window old (3 s stands in
// for the default 7 days).

const WINDOW_MS = 3_000;

const setup = () =>
  payTopic({
    prefix: "sw-rename",
    window: "3s",
    deprecated: false,
    subject: "    fields:\n      replaces:\n        /total: /amount\n",
  });

/** `n` records of a producer, with the raw JSON `body` (the id is added), round robin over both partitions. */
const send = paySend;

const rename = (monitor: RunningMonitor): RenameProgress => monitor.report().subjects[0]!.renames![0]!;

/** Each producer as `producer old/both/new/neither/unknown step`. */
const progress = (monitor: RunningMonitor) =>
  rename(monitor).producers.map(
    (p) =>
      `${p.producer} ${p.records.old}/${p.records.both}/${p.records.new}/${p.records.neither}/${p.records.unknown} ${p.step}`,
  );

const inUseAction = (monitor: RunningMonitor) =>
  monitor
    .report()
    .attention.filter((a) => a.kind.startsWith("field-") && a.subject === "pay")
    .map((a) => `${a.kind}: ${a.action}`);

const inUse = (monitor: RunningMonitor) => inUseAction(monitor).filter((a) => a.startsWith("field-in-use: "));

describe("a rename's progress through a real broker", () => {
  it("counts each producer's records per form and moves its step only a window after its last record of the form before", async () => {
    const { brokers, topic, configPath } = await setup();
    const monitor = await startLiveMonitor(configPath);
    try {
      await waitFor(() => monitor.health.ready, "partitions to be assigned");
      const produced = countedProducer(brokers, topic, monitor);

      // Step 1 for billing (amount alone), web sends both, app sends total alone.
      await produced([
        ...send("billing", 10, `"amount":3`),
        ...send("web", 10, `"amount":3,"total":3`),
        ...send("app", 10, `"total":3`),
      ]);
      const billingAloneUntil = Date.now();
      expect(progress(monitor)).toEqual([
        "app 0/0/10/0/0 done",
        "billing 10/0/0/0/0 add",
        "web 0/10/0/0/0 switch",
      ]);
      expect(rename(monitor).producers.map((p) => p.words)).toEqual([
        "sends /total only: done; /amount can be removed once drained",
        "sends /amount without /total: add /total and send both (step 1)",
        "sends both: move consumers to /total, then stop sending /amount (steps 2 and 3)",
      ]);
      // The config's rename makes amount deprecated (no schema marks it) and total optional.
      expect(
        monitor.report().subjects[0]!.fields!.map((f) => `${f.field} ${f.fieldKind} ${f.version}`),
      ).toEqual(["/amount deprecated 1.1.0", "/total optional 1.1.0"]);
      expect(inUseAction(monitor)).toEqual([
        "field-in-use: Have billing send /total beside /amount (step 1 of the rename), before /amount can stop.",
      ]);
      // The same in /api/status and on /metrics.
      const status = (await (await fetch(`${monitor.address}/api/status`)).json()) as {
        renames: Record<string, RenameProgress[]>;
      };
      expect(status.renames["pay"]!.map((r) => r.producers.map((p) => [p.producer, p.step]))).toEqual([
        [
          ["app", "done"],
          ["billing", "add"],
          ["web", "switch"],
        ],
      ]);
      const metrics = await (await fetch(`${monitor.address}/metrics`)).text();
      expect(
        metrics
          .split("\n")
          .filter((l) =>
            l.startsWith(
              'schemawatch_field_rename_records_total{subject="pay",field="/amount",replacement="/total",producer="billing"',
            ),
          ),
      ).toEqual(
        ["old 10", "both 0", "new 0", "neither 0", "unknown 0"].map((f) => {
          const [form, value] = f.split(" ");
          return `schemawatch_field_rename_records_total{subject="pay",field="/amount",replacement="/total",producer="billing",form="${form}"} ${value}`;
        }),
      );

      // Billing sends both now, on and on: still step 1 until its last record of amount alone is a
      // window old. Producers send all the time; a producer that sends nothing for a window is quiet.
      const keepSending = async (
        batch: () => ReturnType<typeof send>,
        until: () => boolean,
        what: string,
      ) => {
        const deadline = Date.now() + 30_000;
        let rounds = 0;
        while (!until()) {
          if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
          await produced(batch());
          rounds++;
        }
        return rounds;
      };
      await produced(send("billing", 2, `"amount":3,"total":3`));
      expect(progress(monitor)[1]).toBe("billing 10/2/0/0/0 add");
      const rounds = await keepSending(
        () => send("billing", 2, `"amount":3,"total":3`),
        // The verdicts are judged on the lifecycle's tick: wait for web to leave the item too.
        () => progress(monitor)[1]!.endsWith(" switch") && !inUse(monitor).join().includes("web"),
        "billing to reach steps 2 and 3, and web's amount to be a window old",
      );
      expect(Date.now() - billingAloneUntil).toBeGreaterThanOrEqual(WINDOW_MS);
      const both = 2 + 2 * rounds;
      expect(progress(monitor)).toEqual([
        "app 0/0/10/0/0 quiet",
        `billing 10/${both}/0/0/0 switch`,
        "web 0/10/0/0/0 quiet",
      ]);
      expect(rename(monitor).producers[0]!.words).toBe("sent no record in the last 3s");
      // Web sent amount a window ago: only billing is still asked to stop.
      expect(inUse(monitor)).toEqual([
        "field-in-use: Move consumers to /total, then stop sending /amount from billing before removing it in 2.0.0.",
      ]);

      // Every producer sends total alone; then one record of web with an escaped key still carries amount.
      const totalOnly = () => [
        ...send("app", 1, `"total":3`),
        ...send("billing", 1, `"total":3`),
        ...send("web", 1, `"total":3`),
      ];
      await produced(totalOnly());
      await produced(send("web", 1, `"\\u0061mount":3,"total":3`));
      const escapedAt = Date.now();
      expect(progress(monitor)).toEqual([
        "app 0/0/11/0/0 done",
        `billing 10/${both}/1/0/0 switch`,
        "web 0/11/1/0/0 switch",
      ]);
      // A window after the escaped record, with total alone sent all along, every producer is done
      // and amount is drained.
      const more = await keepSending(
        totalOnly,
        () => progress(monitor).every((p) => p.endsWith(" done")) && inUseAction(monitor).length === 2,
        "every producer done and amount drained",
      );
      expect(Date.now() - escapedAt).toBeGreaterThanOrEqual(WINDOW_MS);
      expect(progress(monitor)).toEqual([
        `app 0/0/${11 + more}/0/0 done`,
        `billing 10/${both}/${1 + more}/0/0 done`,
        `web 0/11/${1 + more}/0/0 done`,
      ]);
      expect(inUseAction(monitor)).toEqual([
        "field-drained: Remove /amount in 2.0.0.",
        "field-ready: It can be added to required in 2.0.0.",
      ]);
    } finally {
      await monitor.stop();
    }
  });
});
