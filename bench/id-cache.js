#!/usr/bin/env node
// What the ids an IdResolver remembers cost (issue 16: memory flat whatever the number of distinct
// ids): lookups of distinct ids through the real registry client until `lookupCache` (10 000) are
// remembered, then twice as many more, against a loopback registry that answers 404 (`missing`) and
// against a port nobody listens on (`failed`: connection refused). Prints the heap used after a full
// collection at each point, and per id. In-process, no broker; a few seconds.
//
//   npm run build && node --expose-gc bench/id-cache.js
import { execFileSync } from "node:child_process";
import { createServer as createHttpServer } from "node:http";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { RegistryClient } from "../dist/registry/client.js";
import { RegistryHttp } from "../dist/registry/http.js";
import { IdResolver } from "../dist/registry/ids.js";

if (typeof globalThis.gc !== "function") throw new Error("run with node --expose-gc bench/id-cache.js");
const CAP = 10_000;
const IN_FLIGHT = 6;

const listen = (server) =>
  new Promise((done) => server.listen(0, "127.0.0.1", () => done(server.address().port)));
const close = (server) => new Promise((done) => server.close(done));

/** A registry that knows no id: 404 with Confluent's error body, as Apicurio answers. */
async function unknownEverything() {
  const server = createHttpServer((_, response) => {
    response.writeHead(404, { "content-type": "application/json" });
    response.end('{"error_code":40403,"message":"Schema not found"}');
  });
  return { url: `http://127.0.0.1:${await listen(server)}`, close: () => close(server) };
}

/** A loopback port free a moment ago: every connection refused. */
async function nobody() {
  const server = createServer();
  const port = await listen(server);
  await close(server);
  return { url: `http://127.0.0.1:${port}`, close: async () => undefined };
}

const heapMb = () => {
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

async function measure(result, registry) {
  const http = new RegistryHttp({
    name: "main",
    url: registry.url,
    timeout: 5_000,
    retries: 0,
    credentials: { authorization: undefined, tls: undefined, secrets: [] },
  });
  // A clock of its own: the rate (1 000 a second) never refuses a lookup, so every id is remembered.
  let now = 0;
  const ids = new IdResolver({
    client: new RegistryClient(http, registry.url),
    inFlight: IN_FLIGHT,
    perSecond: 1_000,
    maxEntries: CAP,
    now: () => now,
  });
  let next = 1_500_000_000;
  const lookUp = async (count) => {
    for (let i = 0; i < count; i += IN_FLIGHT) {
      now += 10;
      await Promise.all(Array.from({ length: IN_FLIGHT }, () => ids.lookupId(next++)));
    }
  };
  const before = heapMb();
  await lookUp(CAP);
  const atCap = heapMb();
  await lookUp(2 * CAP);
  const after = heapMb();
  http.close();
  await registry.close();
  if (ids.results[result] !== next - 1_500_000_000 || ids.size.ids !== CAP)
    throw new Error(`${result}: ${JSON.stringify(ids.results)}, ${ids.size.ids} remembered`);
  const bytes = ((atCap - before) * 2 ** 20) / CAP;
  console.log(
    `| ${result} | ${before.toFixed(1)} | ${atCap.toFixed(1)} | ${after.toFixed(1)} | ${(atCap - before).toFixed(2)} | ${bytes.toFixed(0)} |`,
  );
}

// Each in a process of its own, so that one's leftovers are not in the other's figures.
const only = process.argv[2];
if (only === "missing") await measure("missing", await unknownEverything());
else if (only === "failed") await measure("failed", await nobody());
else {
  console.log(
    `| lookups ended as | heap MB before | after ${CAP} ids (the cap) | after ${3 * CAP} ids | MB at the cap | bytes an id |`,
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
  for (const result of ["missing", "failed"])
    process.stdout.write(
      execFileSync(process.execPath, ["--expose-gc", fileURLToPath(import.meta.url), result], {
        encoding: "utf8",
      }),
    );
}
