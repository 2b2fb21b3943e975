import { describe, expect, it } from "vitest";
import { Health } from "../../../src/health/health.js";
import { buildReport } from "../../../src/report/model.js";
import { renderReport } from "../../../src/report/render.js";
import { buildStatus } from "../../../src/report/status.js";
import { confluentAvro as confluent } from "../../helpers/binary-capture.js";
import { eventPipeline, record } from "../../helpers/monitor.js";
import { payFilesPipeline } from "../../helpers/pay-files.js";

const V1 = {
  type: "record",
  name: "Pay",
  namespace: "shop",
  fields: [{ name: "id", type: "long" }],
};
const V2 = { ...V1, fields: [...V1.fields, { name: "note", type: "string", default: "" }] };
/** An Avro subject: web still writes 1.0 (read by 2.0 with /note defaulted), app writes 2.0 (1.0 drops /note). */
async function payReport() {
  const { send, report } = await payFilesPipeline("avsc", { v1: V1, v2: V2 }, { v1Status: "active" });
  send("web", confluent(11, V1, { id: 1 }));
  for (const id of [2, 3, 4]) send("app", confluent(12, V2, { id, note: "n" }));
  return report();
}

describe("lossy reads in the report (issue 36)", () => {
  it("counts them per writer, reader and producer, with their rule and location, beside the would-fail rates", async () => {
    const report = await payReport();
    expect(
      report.subjects[0]!.wouldFail.map((e) => [
        e.writer,
        e.reader,
        e.validations,
        e.failed,
        e.lossy,
        e.losses,
        e.producers,
      ]),
    ).toEqual([
      ["1.0.0", "1.0.0", 1, 0, 0, [], { web: { validations: 1, failed: 0 } }],
      [
        "1.0.0",
        "2.0.0",
        1,
        0,
        1,
        [{ rule: "field_defaulted", count: 1, pointer: "/note" }],
        { web: { validations: 1, failed: 0, lossy: 1 } },
      ],
      [
        "2.0.0",
        "1.0.0",
        3,
        0,
        3,
        [{ rule: "field_dropped", count: 3, pointer: "/note" }],
        { app: { validations: 3, failed: 0, lossy: 3 } },
      ],
      ["2.0.0", "2.0.0", 3, 0, 0, [], { app: { validations: 3, failed: 0 } }],
    ]);
  });

  it("shows them in every rendering", async () => {
    const report = await payReport();
    const text = renderReport(report, "text");
    const section = text.slice(
      text.indexOf("  lossy reads: writer × reader"),
      text.indexOf("  drained and ready"),
    );
    expect(section.split("\n")).toEqual([
      "  lossy reads: writer × reader",
      "  ----------------------------",
      "    The share of sampled records declaring each writer version that a consumer reading with each reader version reads, but without data the writer sent (dropped, or replaced by a default).",
      "    writer  reader  direction   lossy  lossy / sampled  rule             at     producers",
      "    1.0.0   2.0.0   backward   100.0%            1 / 1  field_defaulted  /note  web 1/1",
      "    2.0.0   1.0.0   forward    100.0%            3 / 3  field_dropped    /note  app 3/3",
      "",
      "",
    ]);
    const markdown = renderReport(report, "markdown");
    for (const row of [
      "| writer | reader | direction | lossy | lossy / sampled | rule | at | producers |",
      "| `1.0.0` | `2.0.0` | backward | 100.0% | 1 / 1 | `field_defaulted` | `/note` | web 1/1 |",
      "| `2.0.0` | `1.0.0` | forward | 100.0% | 3 / 3 | `field_dropped` | `/note` | app 3/3 |",
    ])
      expect([row, markdown.includes(`\n${row}\n`)]).toEqual([row, true]);
    const html = renderReport(report, "html");
    for (const row of [
      '<section id="subject-pay-lossy">\n<h3>lossy reads: writer × reader</h3>',
      '<tr><td><code>2.0.0</code></td><td><code>1.0.0</code></td><td>forward</td><td class="num"><span class="t-warn">100.0%</span></td><td class="num">3 / 3</td><td><code>field_dropped</code></td><td><code>/note</code></td><td>app 3/3</td></tr>',
    ])
      expect([row, html.includes(row)]).toEqual([row, true]);
    const json = JSON.parse(renderReport(report, "json"));
    expect(json.subjects[0].wouldFail[2]).toEqual({
      writer: "2.0.0",
      reader: "1.0.0",
      direction: "forward",
      validations: 3,
      failed: 0,
      wouldFailRate: 0,
      failures: [],
      lossy: 3,
      losses: [{ rule: "field_dropped", count: 3, pointer: "/note" }],
      producers: { app: { validations: 3, failed: 0, lossy: 3 } },
    });
  });

  it("names what a consumer of another version silently loses in the attention list, as info: nothing breaks", async () => {
    const report = await payReport();
    expect(report.attention.filter((i) => i.kind === "lossy-read")).toEqual([
      {
        level: "info",
        kind: "lossy-read",
        cause: "field_defaulted",
        subject: "pay",
        producer: "web",
        what: "producer web: consumers upgraded to 2.0.0 read 100% of its sampled 1.0.0 records (1 of 1) with data dropped or defaulted (field_defaulted at /note)",
        action:
          "Nothing breaks: check that the defaults consumers on 2.0.0 read stand for what web means, or move web to 2.0.0.",
      },
      {
        level: "info",
        kind: "lossy-read",
        cause: "field_dropped",
        subject: "pay",
        producer: "app",
        what: "producer app: consumers still on 1.0.0 read 100% of its sampled 2.0.0 records (3 of 3) with data dropped or defaulted (field_dropped at /note)",
        action:
          "Nothing breaks: check that the consumers still on 1.0.0 do not need what they drop, or upgrade them.",
      },
    ]);
  });

  it("names the subject's format in its facts, in every rendering, and in the JSON", async () => {
    const report = await payReport();
    const facts = (format: "text" | "markdown") =>
      renderReport(report, format)
        .split("\n")
        .filter((l) => /format/.test(l) && !/^#/.test(l));
    expect([report.subjects[0]!.format, facts("text"), facts("markdown")]).toEqual([
      "avro",
      ["  format           Avro"],
      ["- **format**: Avro"],
    ]);
    expect(renderReport(report, "html")).toContain("<dt>format</dt><dd>Avro</dd>");
  });

  it("leaves a JSON Schema subject's report without a lossy section or item", async () => {
    const { pipeline, catalog } = await eventPipeline();
    pipeline.process(record({ id: 1, event: "view" }, { producer: "web", "schema-version": "1.0" }));
    const report = buildReport(buildStatus(catalog, pipeline, new Health()), pipeline.tallies, undefined);
    expect([
      report.subjects[0]!.wouldFail.every((e) => e.lossy === 0 && e.losses.length === 0),
      renderReport(report, "text").includes("lossy"),
      report.attention.some((i) => i.kind === "lossy-read"),
      report.subjects[0]!.format,
    ]).toEqual([true, false, false, "json"]);
  });
});
