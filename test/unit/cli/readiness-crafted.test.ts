import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { writeTree } from "../../helpers/files.js";
import { paySchema as schema } from "../../helpers/pay-topic.js";

// `readiness --field` on captures a hostile producer could write (issue 42): records that look like
// JSON but are not, a key that ends in an escaped quote and the field's name, and the field's name at
// another place. `amount` is deprecated in 1.1, `total` and `currency` optional.

const T0 = Date.parse("2026-12-01T08:00:00Z");

const CATALOG = {
  "pay/1.0.json": schema("1.0", { id: { type: "integer" }, amount: { type: "number" } }, ["id", "amount"]),
  "pay/1.1.json": schema(
    "1.1",
    {
      id: { type: "integer" },
      amount: { type: "number", deprecated: true },
      total: { type: "number" },
      currency: { type: "string" },
    },
    ["id"],
  ),
};

/**
 * 101 s of billing and web, one record each a second, each `{"id":t,"total":3,<body>}`; at 95 s web's
 * record is `odd` instead, as raw bytes.
 */
function capture(body: string, odd?: Buffer): string {
  const lines: string[] = [];
  for (let t = 0; t <= 100; t++)
    for (const producer of ["billing", "web"]) {
      const text = `{"id":${t},"total":3${body === "" ? "" : `,${body}`}}`;
      const bytes = producer === "web" && t === 95 && odd !== undefined ? odd : Buffer.from(text);
      lines.push(
        JSON.stringify({
          topic: "payments",
          partition: 0,
          offset: lines.length,
          timestamp: T0 + t * 1000,
          headers: { producer, "schema-version": "1.1" },
          value: { base64: bytes.toString("base64") },
        }),
      );
    }
  return lines.join("\n") + "\n";
}

async function readiness(pointer: string, lines: string) {
  const dir = await writeTree({
    ...CATALOG,
    "config.yaml": `logLevel: silent
subjects:
  - name: pay
    topics: [payments]
    schemas: ./pay
    versions:
      "1.0.0": { status: deprecated }
      "1.1.0": { status: active }
    drainWindow: 60s
    readyWindow: 60s
    minSamples: 20
`,
    "capture.ndjson": lines,
  });
  const args = ["readiness", "--subject", "pay", "--field", pointer, "--config", `${dir}/config.yaml`];
  return runCli([...args, "--source", `file:${dir}/capture.ndjson`]);
}

const NOT_JSON = [
  "{'id':95,'amount':3,'total':3}",
  "{id:95,amount:3,total:3}",
  '{"id":95,"amount":3,"total":3,}',
  '{"id":95,"amount":,"total":3}',
  '{"id":95,"total":3}{"amount":3}',
  '{"id":95,"amount":3,"total":3,"note":"\xff"}',
];

describe("readiness --field on a crafted capture", () => {
  it("holds both verdicts on a record that is not JSON, in every dialect: unknown use, never a byte verdict", async () => {
    for (const odd of NOT_JSON) {
      // The invalid UTF-8 byte is written as the one byte 0xff.
      const bytes = Buffer.from(odd, odd.includes("\xff") ? "latin1" : "utf8");
      const amount = await readiness("/amount", capture("", bytes));
      expect(amount.stdout, odd).toBe(
        "pay /amount is not drained yet:\n  - 1 record of web could not be read in the last 1m5s, the last one 5s ago: they may carry /amount\n",
      );
      expect(amount.code, odd).toBe(1);
      const total = await readiness("/total", capture("", bytes));
      expect(total.stdout, odd).toBe(
        "pay /total is not ready to require yet:\n  - 1 record of web could not be read in the last 1m5s, the last one 5s ago: they may lack /total\n  - 10 records carried /total since the last that lacked it; 20 needed\n",
      );
      expect(total.code, odd).toBe(1);
    }
  });

  it("does not count a key that ends in an escaped quote and the field's name as the field", async () => {
    const result = await readiness("/currency", capture(String.raw`"x\"currency":"EUR"`));
    expect(result.stdout).toBe(
      [
        "pay /currency is not ready to require yet:",
        "  - billing still omits /currency in 100% of its records (67 of 67 in the last 1m5s; writer 1.1.0), the last one just now",
        "  - web still omits /currency in 100% of its records (67 of 67 in the last 1m5s; writer 1.1.0), the last one just now",
        "  - 0 records carried /currency since the last that lacked it; 20 needed",
        "",
      ].join("\n"),
    );
    expect(result.code).toBe(1);
  });

  it("does not call a field ready on its name at another place: a nested object, an array item, a top-level array", async () => {
    for (const body of [`"meta":{"currency":"EUR"}`, `"lines":[{"currency":"EUR"}]`]) {
      const result = await readiness("/currency", capture(body));
      expect(result.stdout.split("\n").slice(0, 2), body).toEqual([
        "pay /currency is not ready to require yet:",
        "  - billing still omits /currency in 100% of its records (67 of 67 in the last 1m5s; writer 1.1.0), the last one just now",
      ]);
      expect(result.code, body).toBe(1);
    }
    const array = await readiness(
      "/currency",
      capture(`"currency":"EUR"`, Buffer.from('[{"currency":"EUR"}]')),
    );
    expect(array.stdout.split("\n").slice(0, 2)).toEqual([
      "pay /currency is not ready to require yet:",
      "  - web still omits /currency in 1% of its records (1 of 67 in the last 1m5s; writer 1.1.0), the last one 5s ago",
    ]);
    // The same records with the key in place: ready.
    const ready = await readiness("/currency", capture(`"currency":"EUR"`));
    expect(ready.code).toBe(0);
  });
});
