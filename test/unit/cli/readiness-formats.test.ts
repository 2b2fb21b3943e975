import { describe, expect, it } from "vitest";
import { zeroFailureUpperBound } from "../../../src/lifecycle/evidence.js";
import { confluentAvro } from "../../helpers/binary-capture.js";
import { runCli } from "../../helpers/cli.js";
import { writeTree } from "../../helpers/files.js";
import { confluentRecord, encode, proto } from "../../helpers/protobuf.js";

// `readiness` on an Avro and a Protobuf subject (issue 36), offline from a capture of Confluent-framed
// records, as the JSON subject's is in test/unit/lifecycle/verdicts.test.ts: the article's "make
// required in two steps" in each format's own words. Avro: 3.0 declares `currency` without a default,
// so resolution fails every record whose writer lacks the field (the writer version's, not the
// record's: `missing_default`). Protobuf (proto2): 3.0 declares `currency` `required`, so a record
// fails when its bytes carry no tag 2 (`missing_required`), whatever its writer version.

const T0 = Date.parse("2026-12-01T08:00:00Z");

interface Line {
  t: number;
  producer: string;
  value: Buffer;
}

function capture(lines: readonly Line[]): string {
  return (
    lines
      .map((l, offset) =>
        JSON.stringify({
          topic: "pay",
          partition: 0,
          offset,
          timestamp: T0 + l.t * 1000,
          key: null,
          headers: { producer: l.producer },
          value: { base64: l.value.toString("base64") },
        }),
      )
      .join("\n") + "\n"
  );
}

const CONFIG = `logLevel: silent
subjects:
  - name: pay
    topics: [pay]
    schemas: schemas/pay
    sampling: { ratio: 1 }
    versions:
      "1.0": { status: deprecated, confluentId: 11 }
      "2.0": { status: active, confluentId: 12 }
      "3.0": { status: candidate, confluentId: 13 }
    drainWindow: 60s
    readyWindow: 60s
    minSamples: 20
`;

const PAY = { type: "record", name: "Pay", namespace: "shop" };
const AVRO = {
  "1.0.avsc": { ...PAY, fields: [{ name: "id", type: "long" }] },
  "2.0.avsc": {
    ...PAY,
    fields: [
      { name: "id", type: "long" },
      { name: "currency", type: "string", default: "EUR" },
    ],
  },
  "3.0.avsc": {
    ...PAY,
    fields: [
      { name: "id", type: "long" },
      { name: "currency", type: "string" },
    ],
  },
};
const avroV1 = (t: number) => confluentAvro(11, AVRO["1.0.avsc"], { id: t });
const avroV2 = (t: number) => confluentAvro(12, AVRO["2.0.avsc"], { id: t, currency: "USD" });

const PROTO = {
  "1.0.proto": `syntax = "proto2"; package shop;\nmessage Pay { required int64 id = 1; }\n`,
  "2.0.proto": `syntax = "proto2"; package shop;\nmessage Pay { required int64 id = 1; optional string currency = 2; }\n`,
  "3.0.proto": `syntax = "proto2"; package shop;\nmessage Pay { required int64 id = 1; required string currency = 2; }\n`,
};
const protoV1 = proto(PROTO["1.0.proto"]);
const protoV2 = proto(PROTO["2.0.proto"]);
const protobufV1 = (t: number) =>
  Buffer.from(confluentRecord(11, [0], encode(protoV1, "shop.Pay", { id: t })));
/** A 2.0 record: with its currency, or (step one not taken yet) without it. */
const protobufV2 = (t: number, currency = true) =>
  Buffer.from(
    confluentRecord(
      12,
      [0],
      encode(protoV2, "shop.Pay", { id: t, ...(currency ? { currency: "USD" } : {}) }),
    ),
  );

/** `readiness` of pay 3.0 on the capture of `lines`, the catalog's files given by name. */
async function readiness(files: Record<string, unknown>, lines: readonly Line[], extra: string[] = []) {
  const tree: Record<string, unknown> = { "config.yaml": CONFIG, "capture.ndjson": capture(lines) };
  for (const [name, schema] of Object.entries(files)) tree[`schemas/pay/${name}`] = schema;
  const dir = await writeTree(tree);
  const args = ["readiness", "--subject", "pay", "--version", "3.0", "--config", `${dir}/config.yaml`];
  return runCli([...args, "--source", `file:${dir}/capture.ndjson`, ...extra]);
}

/** mobile sends 2.0 throughout; web sends 1.0 until t=30, then 2.0 (step one of the two steps). */
function moving(v1: (t: number) => Buffer, v2: (t: number) => Buffer): Line[] {
  const lines: Line[] = [];
  for (let t = 0; t <= 100; t++) {
    lines.push({ t, producer: "mobile", value: v2(t) });
    lines.push({ t, producer: "web", value: t < 30 ? v1(t) : v2(t) });
  }
  return lines;
}

const readyLine = (samples: number) =>
  `pay 3.0.0 is ready: ${samples} samples without a failure bound the failure rate below ${(zeroFailureUpperBound(samples) * 100).toFixed(2)}% (95%)\n`;

describe("readiness of a candidate that makes a field required, Avro", () => {
  it("is ready once the last producer writes the version that has the field", async () => {
    const result = await readiness(AVRO, moving(avroV1, avroV2));
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe(readyLine(142));
    expect(result.code).toBe(0);
  });

  it("is not ready while a producer writes the version without it, naming the rule and the field", async () => {
    const lines: Line[] = [];
    for (let t = 0; t <= 100; t++) {
      lines.push({ t, producer: "mobile", value: avroV2(t) });
      if (t % 10 === 0) lines.push({ t, producer: "web", value: avroV1(t) });
    }
    const result = await readiness(AVRO, lines);
    expect(result.stdout).toBe(
      "pay 3.0.0 is not ready yet:\n" +
        "  - producer web: 11 of 11 samples fail 3.0.0 (missing_default at /currency), last one just now\n" +
        "  - 0 samples without a failure; 20 needed\n",
    );
    expect(result.code).toBe(1);
  });

  it("gives the verdict's evidence as JSON, per producer", async () => {
    const result = await readiness(AVRO, moving(avroV1, avroV2), ["--format", "json"]);
    expect(result.code).toBe(0);
    const verdict = JSON.parse(result.stdout) as { evidence: Record<string, unknown> } & Record<
      string,
      unknown
    >;
    expect(verdict).toMatchObject({
      subject: "pay",
      version: "3.0.0",
      status: "candidate",
      yes: true,
      reasons: [],
    });
    expect(verdict.evidence).toMatchObject({
      samples: 202,
      failures: 30,
      samplesSinceFailure: 142,
      producers: {
        mobile: { samples: 101, failures: 0, samplesSinceFailure: 101 },
        web: { samples: 101, failures: 30, samplesSinceFailure: 71 },
      },
    });
  });
});

describe("readiness of a candidate that makes a field required, Protobuf (proto2 required)", () => {
  it("is ready once every producer sends the field, whichever version it writes", async () => {
    const result = await readiness(PROTO, moving(protobufV1, protobufV2));
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe(readyLine(142));
    expect(result.code).toBe(0);
  });

  it("is not ready while a producer writes 2.0 without the field: presence is the record's, not its version's", async () => {
    const lines: Line[] = [];
    for (let t = 0; t <= 100; t++) {
      lines.push({ t, producer: "mobile", value: protobufV2(t) });
      // web moved to 2.0 but leaves the optional currency unset in every tenth record
      lines.push({ t, producer: "web", value: protobufV2(t, t % 10 !== 0) });
    }
    const result = await readiness(PROTO, lines);
    expect(result.stdout).toBe(
      "pay 3.0.0 is not ready yet:\n" +
        "  - producer web: 11 of 101 samples fail 3.0.0 (missing_required at /currency), last one just now\n" +
        "  - 0 samples without a failure; 20 needed\n",
    );
    expect(result.code).toBe(1);
  });
});

describe("readiness of a Protobuf candidate in editions (LEGACY_REQUIRED)", () => {
  it("reads features.field_presence = LEGACY_REQUIRED as proto2's required", async () => {
    const editions = {
      ...PROTO,
      "3.0.proto": `edition = "2023"; package shop;\nmessage Pay { int64 id = 1 [features.field_presence = LEGACY_REQUIRED]; string currency = 2 [features.field_presence = LEGACY_REQUIRED]; }\n`,
    };
    const ready = await readiness(editions, moving(protobufV1, protobufV2));
    expect([ready.code, ready.stdout]).toEqual([0, readyLine(142)]);
    const lines: Line[] = [];
    for (let t = 0; t <= 100; t++) lines.push({ t, producer: "web", value: protobufV1(t) });
    const not = await readiness(editions, lines);
    expect(not.stdout).toBe(
      "pay 3.0.0 is not ready yet:\n" +
        "  - producer web: 101 of 101 samples fail 3.0.0 (missing_required at /currency), last one just now\n" +
        "  - 0 samples without a failure; 20 needed\n",
    );
  });
});
