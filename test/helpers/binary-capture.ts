import avro from "avsc";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { writeTree } from "./files.js";

/** Avro subject `pay`: 1.0 has id only; 2.0 adds /note with a default, so each reads the other lossily. */
export const PAY_V1 = {
  type: "record",
  name: "Pay",
  namespace: "shop",
  fields: [{ name: "id", type: "long" }],
};
export const PAY_V2 = {
  ...PAY_V1,
  fields: [...PAY_V1.fields, { name: "note", type: "string", default: "" }],
};

/** A record as Confluent's Avro serializer writes it: magic 0, the schema id, the binary body. */
export function confluentAvro(id: number, schema: unknown, value: unknown): Buffer {
  const prefix = Buffer.alloc(5);
  prefix.writeUInt32BE(id, 1);
  return Buffer.concat([prefix, avro.Type.forSchema(schema as avro.Schema).toBuffer(value)]);
}

/**
 * A folder with the `pay` catalog (1.0 and 2.0, both active, Confluent ids 11 and 12), `config.yaml`
 * and the capture `pay.ndjson`: web sends one 1.0 record, app three 2.0 records and one 2.0 body cut
 * two bytes short (avro_decode).
 */
export async function avroPayCapture(): Promise<{ dir: string; config: string; capture: string }> {
  const config = `subjects:
  - name: pay
    topics: [pay]
    schemas: schemas/pay
    sampling: { ratio: 1 }
    versions:
      "1.0": { status: active, confluentId: 11 }
      "2.0": { status: active, confluentId: 12 }
`;
  const cut = confluentAvro(12, PAY_V2, { id: 9, note: "cut" });
  const bodies: Array<[string, Buffer]> = [
    ["web", confluentAvro(11, PAY_V1, { id: 1 })],
    ...[2, 3, 4].map((id): [string, Buffer] => ["app", confluentAvro(12, PAY_V2, { id, note: "n" })]),
    ["app", cut.subarray(0, cut.length - 2)],
  ];
  const lines = bodies.map(([producer, raw], offset) =>
    JSON.stringify({
      topic: "pay",
      partition: 0,
      offset,
      timestamp: 1796112000000 + offset * 1000,
      key: null,
      headers: { producer },
      value: { base64: raw.toString("base64") },
    }),
  );
  const dir = await writeTree({
    "schemas/pay/1.0.avsc": PAY_V1,
    "schemas/pay/2.0.avsc": PAY_V2,
    "config.yaml": config,
  });
  await writeFile(join(dir, "pay.ndjson"), `${lines.join("\n")}\n`);
  return { dir, config: join(dir, "config.yaml"), capture: join(dir, "pay.ndjson") };
}
