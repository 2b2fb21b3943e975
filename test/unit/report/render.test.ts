import { describe, expect, it } from "vitest";
import { Health } from "../../../src/health/health.js";
import { buildStatus } from "../../../src/report/status.js";
import { buildReport } from "../../../src/report/model.js";
import { REPORT_FORMATS, renderReport } from "../../../src/report/render.js";
import { runCli } from "../../helpers/cli.js";
import { writeTree } from "../../helpers/files.js";
import { eventPipeline, record } from "../../helpers/monitor.js";

const CAPTURE = ["--config", "examples/config.yaml", "--source", "file:examples/traffic/events.ndjson"];

describe("one report, several renderings", () => {
  it("shows the would-fail matrix, the verdicts, coverage and decode errors in every format", async () => {
    const outputs = Object.fromEntries(
      await Promise.all(
        REPORT_FORMATS.map(async (format) => {
          const result = await runCli(["report", ...CAPTURE, "--format", format]);
          expect([format, result.code, result.stderr]).toEqual([format, 0, ""]);
          return [format, result.stdout] as const;
        }),
      ),
    );
    for (const format of ["text", "markdown", "html"] as const) {
      const out = outputs[format]!;
      for (const seen of [
        "additionalProperties", // the keyword an old 1.0 consumer fails on 1.1 traffic
        "(root)", // ... and where
        "billing 40/40, mobile 40/40, partner-feed 20/20", // ... for whom
        "not drained",
        "last seen 3s ago from producer web",
        "producer web: 80 of 80 samples fail 2.0.0 (required at root), last one 7s ago",
        "2026-12-01T08:03:23.000Z", // events/2 observed until
        "truncated_wire_prefix",
      ])
        expect([format, out.includes(seen)]).toEqual([format, true]);
    }
    const json = JSON.parse(outputs["json"]!);
    expect(json.subjects[0].wouldFail[3]).toEqual({
      writer: "1.1.0",
      reader: "1.0.0",
      direction: "forward",
      validations: 100,
      failed: 100,
      wouldFailRate: 1,
      failures: [{ keyword: "additionalProperties", count: 100, pointer: "" }],
      lossy: 0,
      losses: [],
      producers: {
        billing: { validations: 40, failed: 40 },
        mobile: { validations: 40, failed: 40 },
        "partner-feed": { validations: 20, failed: 20 },
      },
    });
  });

  it("writes the status page to a file with --out, without a refresh or links to a monitor", async () => {
    const dir = await writeTree({});
    const result = await runCli(["report", ...CAPTURE, "--format", "html", "--out", `${dir}/report.html`]);
    expect([result.code, result.stdout, result.stderr]).toEqual([0, "", ""]);
    const { readFile } = await import("node:fs/promises");
    const page = await readFile(`${dir}/report.html`, "utf8");
    expect(page.startsWith("<!doctype html>")).toBe(true);
    expect(page).toContain("<h2>subject event</h2>");
    expect([page.includes("http-equiv"), page.includes("<nav>")]).toEqual([false, false]);
  });

  it("names a file it cannot write", async () => {
    const result = await runCli(["report", ...CAPTURE, "--out", "/nonexistent/dir/report.txt"]);
    expect([result.code, result.stderr]).toEqual([
      2,
      "schemawatch report: /nonexistent/dir/report.txt: cannot write the report: ENOENT: no such file or directory, open '/nonexistent/dir/report.txt'\n",
    ]);
  });

  it("escapes a producer name from traffic in markdown", async () => {
    const { pipeline, catalog } = await eventPipeline();
    pipeline.process(record({ id: 1, event: "view" }, { producer: "<b>|*x*_`", "schema-version": "1.0" }));
    const report = buildReport(buildStatus(catalog, pipeline, new Health()), pipeline.tallies, undefined);
    expect(renderReport(report, "markdown")).toContain(
      "| \\<b\\>\\|\\*x\\*\\_\\` | 1 | 1 | 0 | 0 | 0 | 1.0.0 100.0% |",
    );
  });
});
