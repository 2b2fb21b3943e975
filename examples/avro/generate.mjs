// Writes pay.ndjson, the bundled Avro traffic: `web` still writes pay 1.0, `checkout` moves from 1.0
// to 2.0 halfway, `mobile` writes 2.0 and pays by IOU one time in four (which a 1.0 reader cannot
// read), and two records are broken (a body cut short, one that names an id no version has).
//   node examples/avro/generate.mjs
import { Buffer } from "node:buffer";
import { readFileSync, writeFileSync } from "node:fs";
import { URL } from "node:url";
import avro from "avsc";

const here = new URL(".", import.meta.url);
const type = (file) => avro.Type.forSchema(JSON.parse(readFileSync(new URL(file, here), "utf8")));
const v1 = type("pay/1.0.avsc");
const v2 = type("pay/2.0.avsc");
const wire = (id, body) => {
  const prefix = Buffer.alloc(5);
  prefix.writeUInt32BE(id, 1);
  return Buffer.concat([prefix, body]).toString("base64");
};
const lines = [];
const offsets = [0, 0, 0];
const add = (i, producer, base64) => {
  const partition = i % 3;
  lines.push(
    JSON.stringify({
      topic: "payments",
      partition,
      offset: offsets[partition]++,
      timestamp: 1796112000000 + i * 1000,
      key: `${producer}:${i}`,
      headers: { producer },
      value: { base64 },
    }),
  );
};
for (let i = 0; i < 120; i++) {
  const cents = 100 + ((i * 37) % 900);
  const producer = ["web", "checkout", "mobile"][i % 3];
  if (producer === "web" || (producer === "checkout" && i < 60))
    add(i, producer, wire(201, v1.toBuffer({ id: i, method: i % 2 ? "CARD" : "CASH", cents })));
  else {
    const method = producer === "mobile" && i % 4 === 2 ? "IOU" : "CARD";
    add(i, producer, wire(202, v2.toBuffer({ id: i, method, cents, currency: "USD" })));
  }
}
add(120, "mobile", wire(202, v2.toBuffer({ id: 120, method: "CARD", cents: 5, currency: "USD" })).slice(0, 12));
add(121, "web", wire(299, v1.toBuffer({ id: 121, method: "CARD", cents: 5 })));
writeFileSync(new URL("pay.ndjson", here), lines.join("\n") + "\n");
