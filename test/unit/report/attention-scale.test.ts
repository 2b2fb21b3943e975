import { mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeCluster } from "../../../bench/scale-catalog.js";
import { createLogger } from "../../../src/log.js";
import { startMonitor } from "../../../src/monitor/start.js";
import type { Report } from "../../../src/report/model.js";
import { renderReport } from "../../../src/report/render.js";
import { replayReport } from "../../helpers/replay.js";

// The attention summary at a real catalog's size (issue 28): the scale benchmark's cluster of 200
// subjects (bench/scale-catalog.js: five versions each, 300 producers that each declare one version)
// replayed whole, against the bundled single subject, which must read exactly as it did.

/** The lines of a text report's attention section, from its title to the legend. */
function attentionText(report: Report): string[] {
  const text = renderReport(report, "text");
  return text.slice(text.indexOf("what needs you"), text.indexOf("\nmonitor\n")).split("\n");
}

describe("the attention summary of 200 subjects", () => {
  let dir: string;
  let report: Report;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "schemawatch-groups-"));
    const cluster = await writeCluster(dir, 200, 16_000);
    await writeFile(join(dir, "config.yaml"), cluster.config(1));
    await rename(cluster.capture, join(dir, "capture.ndjson"));
    report = await replayReport(dir);
  }, 120_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("folds 1,760 items into 6 lines, ranked by level and then by how many items each gathers", () => {
    expect(report.attention).toHaveLength(1760);
    expect(
      report.attentionGroups!.map((g) => [
        g.level,
        g.kind,
        g.cause ?? null,
        g.subjects.length,
        g.members.length,
        g.what,
        g.action,
      ]),
    ).toEqual([
      [
        "act",
        "forward-incompatible",
        "behind-1",
        200,
        600,
        "180 producers in 200 subjects send records that consumers one version behind reject",
        "Upgrade the consumers one version behind before they read the listed producers' records, or keep each of those producers on a version its consumers accept until they are.",
      ],
      [
        "act",
        "forward-incompatible",
        "behind-2",
        200,
        400,
        "120 producers in 200 subjects send records that consumers two versions behind reject",
        "Upgrade the consumers two versions behind before they read the listed producers' records, or keep each of those producers on a version its consumers accept until they are.",
      ],
      [
        "act",
        "forward-incompatible",
        "behind-3",
        200,
        200,
        "60 producers in 200 subjects send records that consumers three versions behind reject",
        "Upgrade the consumers three versions behind before they read the listed producers' records, or keep each of those producers on a version its consumers accept until they are.",
      ],
      [
        "act",
        "non-conformant",
        null,
        160,
        160,
        "48 producers in 160 subjects send records that fail the version they declare",
        "Fix each producer listed: its records do not match the version they declare (each subject's would-fail matrix names the keyword and the path).",
      ],
      // Every candidate is 2.0.0: the members' own action is the line's.
      [
        "info",
        "not-ready",
        null,
        200,
        200,
        "200 candidates in 200 subjects are not ready",
        "Keep 2.0.0 a candidate until the producers named send what it requires.",
      ],
      [
        "info",
        "coverage-building",
        null,
        200,
        200,
        "the windows of 200 subjects are still being observed",
        "Nothing to do: the verdicts come once the windows are observed whole.",
      ],
    ]);
    // Every item is in exactly one line, the flat list unchanged beside them.
    expect(report.attentionGroups!.flatMap((g) => g.members)).toHaveLength(1760);
    expect(new Set(report.attentionGroups!.flatMap((g) => g.members))).toEqual(new Set(report.attention));
  });

  it("lists each line's members below it in text, the most urgent first, and how many more", () => {
    const lines = attentionText(report);
    // The count is of lines that need someone, with the items they gather.
    expect(lines.slice(0, 3)).toEqual([
      "what needs you: 4 things",
      "========================",
      "  4 things need you (1360 items), most urgent first:",
    ]);
    expect(
      lines.filter((l) => /^ {2}(act|watch|info) /.test(l)).map((l) => l.trim().replace(/ {2,}/g, " | ")),
    ).toEqual([
      "act | 200 subjects | 180 producers in 200 subjects send records that consumers one version behind reject | Upgrade the consumers one version behind before they read the listed producers' records, or keep each of those producers on a version its consumers accept until they are.",
      "act | 200 subjects | 120 producers in 200 subjects send records that consumers two versions behind reject | Upgrade the consumers two versions behind before they read the listed producers' records, or keep each of those producers on a version its consumers accept until they are.",
      "act | 200 subjects | 60 producers in 200 subjects send records that consumers three versions behind reject | Upgrade the consumers three versions behind before they read the listed producers' records, or keep each of those producers on a version its consumers accept until they are.",
      "act | 160 subjects | 48 producers in 160 subjects send records that fail the version they declare | Fix each producer listed: its records do not match the version they declare (each subject's would-fail matrix names the keyword and the path).",
      "info | 200 subjects | 200 candidates in 200 subjects are not ready | Keep 2.0.0 a candidate until the producers named send what it requires.",
      "info | 200 subjects | the windows of 200 subjects are still being observed | Nothing to do: the verdicts come once the windows are observed whole.",
    ]);
    const first = lines.findIndex((l) => l.startsWith("  act "));
    expect(lines.slice(first + 1, first + 5).map((l) => l.trimEnd())).toEqual([
      "      subject     what",
      "      orders-000  producer svc-001: 100% of its sampled 1.1.0 records (16 of 16) would break consumers still on 1.0.0 (additionalProperties at the root)",
      "      orders-000  producer svc-003: 50% of its sampled 1.3.0 records (8 of 16) would break consumers still on 1.2.0 (additionalProperties at the root)",
      "      orders-000  producer svc-002: 25% of its sampled 1.2.0 records (4 of 16) would break consumers still on 1.1.0 (enum at /kind)",
    ]);
    // 20 members listed, then the rest counted.
    expect(lines[first + 22]).toBe(
      "      … and 580 more: the JSON report (/api/report, report --format json) lists them all.",
    );
    expect(lines[first + 23]).toMatch(/^ {2}act {3}200 subjects {2}120 producers/);
    // Title, underline and count; the table's header and 6 rows, each with its members' header, 20
    // members and the rest counted; the legend; the blank line before the next section.
    expect(lines.length).toBe(3 + 1 + 6 * (1 + 1 + 20 + 1) + 4 + 1);
  });

  it("folds each line's members below the table in markdown, and into its row on the page", () => {
    const markdown = renderReport(report, "markdown");
    expect(markdown.match(/<summary>[^<]*<\/summary>/g)?.slice(0, 2)).toEqual([
      "<summary>180 producers in 200 subjects send records that consumers one version behind reject</summary>",
      "<summary>120 producers in 200 subjects send records that consumers two versions behind reject</summary>",
    ]);
    const html = renderReport(report, "html");
    const section = html.slice(
      html.indexOf('<section id="attention"'),
      html.indexOf('<section id="monitor"'),
    );
    expect(section.match(/<td><details><summary>[^<]*/g)).toEqual([
      "<td><details><summary>180 producers in 200 subjects send records that consumers one version behind reject",
      "<td><details><summary>120 producers in 200 subjects send records that consumers two versions behind reject",
      "<td><details><summary>60 producers in 200 subjects send records that consumers three versions behind reject",
      "<td><details><summary>48 producers in 160 subjects send records that fail the version they declare",
      "<td><details><summary>200 candidates in 200 subjects are not ready",
      "<td><details><summary>the windows of 200 subjects are still being observed",
    ]);
  });
});

describe("the attention summary of one subject", () => {
  let report: Report;
  beforeAll(async () => {
    const monitor = await startMonitor({
      configPath: "examples/config.yaml",
      source: { file: "examples/traffic/events.ndjson" },
      port: 0,
      env: {},
      version: "test",
      logger: createLogger("silent"),
    });
    await monitor.replayed;
    report = monitor.report();
    await monitor.stop();
  });

  it("reads exactly as before grouping, in text and markdown", () => {
    expect(attentionText(report)).toEqual([
      "what needs you: 5 things",
      "========================",
      "  5 things need you, most urgent first:",
      "         what                                                                                                                                                next",
      "  act    producer billing: 100% of its sampled 1.1.0 records (40 of 40) would break consumers still on 1.0.0 (additionalProperties at the root)              Upgrade the consumers still on 1.0.0 before they read billing's 1.1.0 records, or keep billing on a version they accept until they are.",
      "  act    producer mobile: 100% of its sampled 1.1.0 records (40 of 40) would break consumers still on 1.0.0 (additionalProperties at the root)               Upgrade the consumers still on 1.0.0 before they read mobile's 1.1.0 records, or keep mobile on a version they accept until they are.",
      "  act    producer partner-feed: 100% of its sampled 1.1.0 records (20 of 20) would break consumers still on 1.0.0 (additionalProperties at the root)         Upgrade the consumers still on 1.0.0 before they read partner-feed's 1.1.0 records, or keep partner-feed on a version they accept until they are.",
      "  act    producer partner-feed: 100% of its sampled 1.1.0 records (20 of 20) fail 1.1.0 itself, the version they declare (additionalProperties at the root)  Fix partner-feed: its records do not match the version they declare (the would-fail matrix names the keyword and the path).",
      "  watch  2 records of event whose version could not be read (truncated_wire_prefix, unknown_schema_id), from producer billing (2)                            Make their version readable (a version header, a registered schema id, a larger maxRecordBytes): until they stop, no deprecated version can be judged removable.",
      "  info   candidate 2.0.0 of event is not ready: producer legacy-batch: 20 of 20 samples fail 2.0.0 (required at root), last one 4s ago (and 3 more reasons)  Keep 2.0.0 a candidate until the producers named send what it requires.",
      "  info   the windows of event are still being observed; the last completes at 2026-12-08T08:00Z                                                              Nothing to do: the verdicts come once the windows are observed whole.",
      "  - red: breaks something now, or is ready to be done (act)",
      "  - amber: would break a consumer that has not moved yet, or keeps a verdict back (watch)",
      "  - green: fine",
      "  - grey: secondary, or nothing to do yet (info)",
      "",
    ]);
    const markdown = renderReport(report, "markdown");
    expect(markdown.slice(0, markdown.indexOf("\n## monitor")).split("\n").slice(2)).toEqual([
      "## what needs you (**5 things**)",
      "",
      "**5 things need you, most urgent first:**",
      "",
      "|  | what | next |",
      "| --- | --- | --- |",
      "| **act** | producer billing: 100% of its sampled 1.1.0 records (40 of 40) would break consumers still on 1.0.0 (additionalProperties at the root) | Upgrade the consumers still on 1.0.0 before they read billing's 1.1.0 records, or keep billing on a version they accept until they are. |",
      "| **act** | producer mobile: 100% of its sampled 1.1.0 records (40 of 40) would break consumers still on 1.0.0 (additionalProperties at the root) | Upgrade the consumers still on 1.0.0 before they read mobile's 1.1.0 records, or keep mobile on a version they accept until they are. |",
      "| **act** | producer partner-feed: 100% of its sampled 1.1.0 records (20 of 20) would break consumers still on 1.0.0 (additionalProperties at the root) | Upgrade the consumers still on 1.0.0 before they read partner-feed's 1.1.0 records, or keep partner-feed on a version they accept until they are. |",
      "| **act** | producer partner-feed: 100% of its sampled 1.1.0 records (20 of 20) fail 1.1.0 itself, the version they declare (additionalProperties at the root) | Fix partner-feed: its records do not match the version they declare (the would-fail matrix names the keyword and the path). |",
      "| watch | 2 records of event whose version could not be read (truncated\\_wire\\_prefix, unknown\\_schema\\_id), from producer billing (2) | Make their version readable (a version header, a registered schema id, a larger maxRecordBytes): until they stop, no deprecated version can be judged removable. |",
      "| info | candidate 2.0.0 of event is not ready: producer legacy-batch: 20 of 20 samples fail 2.0.0 (required at root), last one 4s ago (and 3 more reasons) | Keep 2.0.0 a candidate until the producers named send what it requires. |",
      "| info | the windows of event are still being observed; the last completes at 2026-12-08T08:00Z | Nothing to do: the verdicts come once the windows are observed whole. |",
      "",
      "- **red: breaks something now, or is ready to be done (act)**",
      "- amber: would break a consumer that has not moved yet, or keeps a verdict back (watch)",
      "- green: fine",
      "- grey: secondary, or nothing to do yet (info)",
      "",
    ]);
    const html = renderReport(report, "html");
    const section = html.slice(
      html.indexOf('<section id="attention"'),
      html.indexOf('<section id="monitor"'),
    );
    expect(section.match(/<tr>/g)).toHaveLength(1 + 7);
    expect(section).not.toContain("<details>");
  });

  it("gives each item a line of its own, in its own words", () => {
    expect(report.attentionGroups!.map((g) => g.members)).toEqual(report.attention.map((i) => [i]));
    expect(report.attentionGroups!.map((g) => [g.what, g.action])).toEqual(
      report.attention.map((i) => [i.what, i.action]),
    );
  });
});
