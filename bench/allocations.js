#!/usr/bin/env node
// Bytes allocated per record by function (and its callers, DEPTH of them), from a sampling heap
// profile that counts collected objects too: bench/consumer.js writes one with `allocations` in its
// spec, e.g. node -e 'import("./bench/kafka.js").then(k => k.runConsumer({mode: "schemawatch",
// ratio: 1, workers: 0, brokers: ["127.0.0.1:19092"], topic: "t", records: 1000000,
// allocations: "/tmp/a.json"}))'
//
//   node bench/allocations.js /tmp/a.json 1000000 [top]
import { readFileSync } from "node:fs";
const profile = JSON.parse(readFileSync(process.argv[2], "utf8"));
const records = Number(process.argv[3]);
const by = new Map();
let total = 0;
const stack = [[profile.head, []]];
while (stack.length) {
  const [n, path] = stack.pop();
  const f = n.callFrame;
  const k = `${f.functionName || "(anon)"} ${f.url.replace(/.*\/main\//, "")}:${f.lineNumber + 1}`;
  const parentK = path.join(" <- ");
  const key = `${k}  <- ${parentK}`;
  by.set(key, (by.get(key) ?? 0) + n.selfSize);
  total += n.selfSize;
  for (const c of n.children) stack.push([c, [...path.slice(-Number(process.env.DEPTH ?? 1)), k]]);
}
console.log("bytes per record", (total / records).toFixed(0));
for (const [k, v] of [...by].sort((a, b) => b[1] - a[1]).slice(0, Number(process.argv[4] ?? 25)))
  console.log((v / records).toFixed(1).padStart(8), k);
