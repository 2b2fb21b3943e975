import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { writeTree } from "../../helpers/files.js";

const RUN = ["run", "--config", "examples/config.yaml", "--port", "0"];

describe("schemawatch run with a file source", () => {
  it("replays the bundled traffic and prints the article's story as JSON", async () => {
    const result = await runCli(
      [...RUN, "--source", "file:examples/traffic/events.ndjson", "--exit-at-end", "--format", "json"],
      {},
    );
    expect(result.code).toBe(0);
    const status = JSON.parse(result.stdout);
    const subject = status.subjects[0];
    // The record with an unknown schema id and the one with a truncated wire prefix count as unknown.
    expect(subject.records).toBe(204);
    expect(subject.unreadable).toBe(2);
    expect(
      subject.versions.map(
        (v: { version: string; status: string; records: number }) => `${v.version} ${v.status} ${v.records}`,
      ),
    ).toEqual(["1.0.0 deprecated 81", "1.1.0 active 100", "2.0.0 candidate 0"]);
    const byProducer = Object.fromEntries(
      subject.producers.map((p: { producer: string; byWriter: Record<string, number> }) => [
        p.producer,
        p.byWriter,
      ]),
    );
    expect(byProducer).toEqual({
      billing: { "1.1.0": 40, unknown: 2 },
      "legacy-batch": { none: 21 },
      mobile: { "1.1.0": 40 },
      "partner-feed": { "1.1.0": 20 },
      web: { "1.0.0": 81 },
    });
    // An old consumer on 1.0 rejects every 1.1 record: amount, buy and the unknown key are all closed out.
    expect(subject.versions[0].wouldFail.forward).toEqual({
      validations: 100,
      failed: 100,
      wouldFailRate: 1,
    });
    // partner-feed fails its own declared version.
    expect(subject.versions[1].wouldFail.conformance).toEqual({
      validations: 100,
      failed: 20,
      wouldFailRate: 0.2,
    });
    expect(status.decodeErrors).toEqual({
      events: { not_json: 1, not_utf8: 1, unknown_schema_id: 1, truncated_wire_prefix: 1 },
    });
  });

  it("prints the text report", async () => {
    const result = await runCli([...RUN, "--source", "file:examples/traffic/events.ndjson", "--exit-at-end"]);
    expect(result.code).toBe(0);
    // The same report as 'schemawatch report' and the status page: the would-fail matrix among it.
    expect(result.stdout).toContain(
      [
        "    writer  reader  direction    would fail  failed / sampled  failing keyword       at (JSON Pointer)  producers failing",
        "    1.0.0   1.0.0   conformance        0.0%            0 / 80",
        "    1.0.0   1.1.0   backward           0.0%            0 / 80",
        "    1.0.0   2.0.0   backward         100.0%           80 / 80  required              (root)             web 80/80",
        "    1.1.0   1.0.0   forward          100.0%         100 / 100  additionalProperties  (root)             billing 40/40, mobile 40/40, partner-feed 20/20",
      ].join("\n"),
    );
    expect(result.stdout).toContain(
      "    version  status             records  share  last seen                 verdict\n    1.0.0    deprecated              81  39.7%  2026-12-01T08:03:20.000Z  not drained\n",
    );
  });

  it("counts malformed capture lines as unknown use: of every topic when their topic cannot be read", async () => {
    const dir = await writeTree({
      "capture.ndjson":
        'not json at all\n{"topic":"events","headers":{"producer":"web","schema-version":"1.0"},"value":{"id":1,"event":"view"}}\n{"value":1}\n',
    });
    const result = await runCli([
      ...RUN,
      "--source",
      `file:${dir}/capture.ndjson`,
      "--exit-at-end",
      "--format",
      "json",
    ]);
    const status = JSON.parse(result.stdout);
    expect(status.subjects[0].records).toBe(3);
    expect(status.subjects[0].unreadable).toBe(2);
    expect(status.decodeErrors).toEqual({ events: { invalid_capture_line: 2 } });
  });

  it("exits 2 naming a capture that cannot be read", async () => {
    const result = await runCli([...RUN, "--source", "file:/nonexistent.ndjson", "--exit-at-end"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("/nonexistent.ndjson: cannot read capture");
  });

  it("exits 2 for a bad config, naming the file and key", async () => {
    const dir = await writeTree({
      "c.yaml": "subjects:\n  - name: event\n    topics: [e]\n    schemas: s\n    sampel: 1\n",
    });
    const result = await runCli(["run", "--config", `${dir}/c.yaml`]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${dir}/c.yaml:5: subjects[0].sampel: unknown key 'sampel'`);
  });

  it("refuses --exit-at-end without a file source", async () => {
    const result = await runCli(["run", "--config", "examples/config.yaml", "--exit-at-end"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--exit-at-end needs a file source");
  });
});
