// `diff --monitor URL`: the properties NEW removes against a monitor's field verdicts, from a monitor
// that replayed a capture (real verdicts, a deterministic clock): `amount` (deprecated in 1.1) still
// sent by billing or drained, `currency` (optional) never sent, `id` (required) not tracked. And the
// failures: no monitor, an answer that is no status, a subject it does not know.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { RunningMonitor } from "../../../src/monitor/start.js";
import { runCli } from "../../helpers/cli.js";
import { writeTree } from "../../helpers/files.js";
import { payCapture, paySchema as schema } from "../../helpers/pay-topic.js";
import { freePort } from "../../helpers/ports.js";
import { replayed } from "../../helpers/replay.js";

const T0 = Date.parse("2026-12-01T08:00:00Z");

const V11 = schema(
  "1.1",
  {
    id: { type: "integer" },
    amount: { type: "number", deprecated: true },
    total: { type: "number" },
    currency: { type: "string" },
  },
  ["id"],
);
// 2.0 contracts: amount, currency and id go, total becomes required.
const V20 = schema("2.0", { total: { type: "number" } }, ["total"]);

/** Billing sends amount and total until `amountUntil` seconds, then total only; web sends total only. */
const capture = (amountUntil: number) => payCapture(T0, amountUntil);

const monitors: RunningMonitor[] = [];
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(monitors.splice(0).map((m) => m.stop()));
  await Promise.all(servers.splice(0).map((s) => new Promise((done) => s.close(done))));
});

async function setup(amountUntil: number) {
  const dir = await writeTree({
    "pay/1.0.json": schema("1.0", { id: { type: "integer" }, amount: { type: "number" } }, ["id", "amount"]),
    "pay/1.1.json": V11,
    "pay/2.0.json": V20,
    "config.yaml": `logLevel: silent
subjects:
  - name: pay
    topics: [payments]
    schemas: ./pay
    versions:
      "1.0.0": { status: deprecated }
      "1.1.0": { status: active }
      "2.0.0": { status: candidate }
    drainWindow: 60s
    readyWindow: 60s
    minSamples: 20
`,
    "capture.ndjson": capture(amountUntil),
  });
  const monitor = await replayed(dir);
  monitors.push(monitor);
  return { dir, url: monitor.address };
}

const CURRENCY =
  '                      live traffic: removes /currency, which no record carried in the ready window (1m); no version marks it "deprecated": true, so its drain is not judged: deprecate it first and wait for the verdict';
const ID =
  '                      live traffic: removes /id, which the monitor does not track (it tracks the fields a version marks "deprecated": true and the optional fields of the newest active version): no live evidence';

/** The `live traffic:` lines of a text diff, in order. */
const liveLines = (stdout: string) => stdout.split("\n").filter((l) => l.includes("live traffic: "));

describe("diff OLD NEW --monitor URL --subject S", () => {
  it("names the removal of a deprecated field that billing still sends, with its share", async () => {
    const { dir, url } = await setup(90);
    const result = await runCli([
      "diff",
      `${dir}/pay/1.1.json`,
      `${dir}/pay/2.0.json`,
      "--monitor",
      url,
      "--subject",
      "pay",
    ]);
    expect(result.stderr).toBe("");
    // The window's share is counted in buckets of a twelfth of it (5 s): here t = 34..100, 67 records.
    expect(liveLines(result.stdout)).toEqual([
      ID,
      "                      live traffic: removes /amount, which live traffic still carries: billing sent it in 85% of its records (counted over 1m5s) in the drain window (1m)",
      CURRENCY,
    ]);
    // the hints never change the release check: 1.1 -> 2.0 is a major bump
    expect(result.code).toBe(0);
  });

  it("says a drained field is safe to remove, in text and in JSON", async () => {
    const { dir, url } = await setup(30);
    const args = ["diff", `${dir}/pay/1.1.json`, `${dir}/pay/2.0.json`, "--monitor", url, "--subject", "pay"];
    const text = await runCli(args);
    expect(liveLines(text.stdout)[1]).toBe(
      "                      live traffic: removes /amount, drained since 2026-12-01T08:00Z: safe (no record carried it for the whole drain window, 1m, every partition observed)",
    );
    const json = await runCli([...args, "--format", "json"]);
    const parsed = JSON.parse(json.stdout) as { changes: { path: string; live?: unknown }[] };
    expect(parsed.changes.filter((c) => c.live !== undefined).map((c) => [c.path, c.live])).toEqual([
      ["/properties/id", { field: "/id", state: "untracked", text: ID.slice(ID.indexOf("removes")) }],
      [
        "/properties/amount",
        {
          field: "/amount",
          state: "drained",
          text: "removes /amount, drained since 2026-12-01T08:00Z: safe (no record carried it for the whole drain window, 1m, every partition observed)",
        },
      ],
      [
        "/properties/currency",
        { field: "/currency", state: "absent", text: CURRENCY.slice(CURRENCY.indexOf("removes")) },
      ],
    ]);
  });

  it("gives every pair of --config the subject's hints", async () => {
    const { dir, url } = await setup(90);
    // the candidate 2.0 beside the released versions, as a team checks it before releasing it
    const args = ["diff", "--config", `${dir}/config.yaml`, "--subject", "pay", "--format", "json"];
    const result = await runCli([...args, "--monitor", url]);
    const without = await runCli(args);
    const parsed = JSON.parse(result.stdout) as {
      subjects: {
        pairs: {
          oldVersion: string;
          newVersion: string;
          changes: { live?: { field: string; state: string } }[];
        }[];
      }[];
    };
    // 1.0 -> 1.1 removes nothing: no hint
    expect(
      parsed.subjects[0]!.pairs.map((p) => [
        p.oldVersion,
        p.newVersion,
        p.changes.flatMap((c) => (c.live ? [`${c.live.field} ${c.live.state}`] : [])),
      ]),
    ).toEqual([
      ["1.0.0", "1.1.0", []],
      ["1.0.0", "2.0.0", ["/id untracked", "/amount carried"]],
      ["1.1.0", "2.0.0", ["/id untracked", "/amount carried", "/currency absent"]],
    ]);
    // the hints are all that differs, and never the exit status
    const strip = (text: string) => text.replace(/,\n\s*"live": \{[^}]*\}/g, "");
    expect(strip(result.stdout)).toBe(without.stdout);
    expect(result.code).toBe(without.code);
  });
});

describe("diff --monitor when the monitor cannot say", () => {
  it("exits 3 and compares nothing when no monitor answers", async () => {
    const port = await freePort();
    const result = await runCli([
      "diff",
      "examples/article/schemas/v1.json",
      "examples/article/schemas/v2.json",
      "--monitor",
      `http://127.0.0.1:${port}`,
      "--subject",
      "pay",
    ]);
    expect(result.code).toBe(3);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      new RegExp(
        `^schemawatch diff: the monitor failed: http://127\\.0\\.0\\.1:${port}/api/status: no answer from a schemawatch monitor \\(.+\\); nothing was compared\\n$`,
      ),
    );
  });

  it("exits 3 when the answer is no status, and 2 for a subject the monitor does not know", async () => {
    const server = createServer((_request, response) => {
      response.setHeader("content-type", "application/json");
      response.end("{}");
    });
    servers.push(server);
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    const other = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const files = ["examples/article/schemas/v1.json", "examples/article/schemas/v2.json"];
    const notStatus = await runCli(["diff", ...files, "--monitor", other, "--subject", "pay"]);
    expect([notStatus.code, notStatus.stdout, notStatus.stderr]).toEqual([
      3,
      "",
      `schemawatch diff: the monitor failed: ${other}/api/status: the answer has no field verdicts: is it a schemawatch monitor of this version?; nothing was compared\n`,
    ]);

    const { url } = await setup(30);
    const unknown = await runCli(["diff", ...files, "--monitor", url, "--subject", "orders"]);
    expect([unknown.code, unknown.stdout, unknown.stderr]).toEqual([
      2,
      "",
      `schemawatch diff: the monitor at ${url} has no subject 'orders' (known: pay): does it run with this config?\n`,
    ]);
    const noSubject = await runCli(["diff", ...files, "--monitor", url]);
    expect(noSubject.code).toBe(2);
    expect(noSubject.stderr).toContain("--monitor with OLD NEW needs --subject S: the monitor's subject");
  });

  it("behaves exactly as before without --monitor", async () => {
    const { dir } = await setup(90);
    const result = await runCli(["diff", `${dir}/pay/1.1.json`, `${dir}/pay/2.0.json`]);
    expect(liveLines(result.stdout)).toEqual([]);
    expect(result.stdout).not.toContain("live");
  });
});
