#!/usr/bin/env node
// Top self time of a V8 .cpuprofile (from `node --cpu-prof` or the inspector), per function and
// source line, with no tool but this file. Used by bench/scale.js; also on its own:
//
//   node bench/scale-profile.js replay.cpuprofile [records] [top]
import { readFile } from "node:fs/promises";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";

function where(frame) {
  let file = frame.url;
  if (file.startsWith("file://")) file = relative(process.cwd(), fileURLToPath(file));
  if (file === "") return "(native)";
  return `${file}:${frame.lineNumber + 1}`;
}

/** Self time (µs) per function and place, summed over every node of the call tree that runs it. */
async function selfTimes(path) {
  const profile = JSON.parse(await readFile(path, "utf8"));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const byFunction = new Map();
  // Each sample's time is the delta to the next one; the last sample has none and counts nothing.
  for (let i = 0; i < profile.samples.length - 1; i++) {
    const frame = byId.get(profile.samples[i]).callFrame;
    const key = `${frame.functionName || "(anonymous)"} ${where(frame)}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + profile.timeDeltas[i + 1]);
  }
  return byFunction;
}

/**
 * Where a larger run's extra time goes: µs per record of each function in both profiles, the
 * functions whose difference is largest (either way) first.
 */
export async function compareProfiles(small, large, records, top = 15) {
  const [a, b] = [await selfTimes(small.path), await selfTimes(large.path)];
  const keys = new Set([...a.keys(), ...b.keys()]);
  const per = (map, key, n) => (map.get(key) ?? 0) / n;
  const rows = [...keys]
    .map((key) => [key, per(a, key, records), per(b, key, records)])
    .sort((x, y) => Math.abs(y[2] - y[1]) - Math.abs(x[2] - x[1]))
    .slice(0, top);
  const total = (map) => [...map.values()].reduce((s, v) => s + v, 0) / records;
  const lines = [
    `| function (place) | ${small.label} µs/record | ${large.label} µs/record | difference |`,
    "| --- | ---: | ---: | ---: |",
    ...rows.map(([key, x, y]) => `| ${key} | ${x.toFixed(3)} | ${y.toFixed(3)} | ${(y - x).toFixed(3)} |`),
    `| total sampled | ${total(a).toFixed(3)} | ${total(b).toFixed(3)} | ${(total(b) - total(a)).toFixed(3)} |`,
  ];
  return lines.join("\n");
}

/**
 * Self time per function (name and place), summed over every node of the call tree that runs it.
 * @returns {Promise<string>} a Markdown table: self ms, share, and µs per record when `records` is given
 */
export async function summarizeProfile(path, records, top = 15) {
  const profile = JSON.parse(await readFile(path, "utf8"));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMicros = new Map();
  // Each sample's time is the delta to the next one; the last sample has none and counts nothing.
  for (let i = 0; i < profile.samples.length - 1; i++) {
    const id = profile.samples[i];
    selfMicros.set(id, (selfMicros.get(id) ?? 0) + profile.timeDeltas[i + 1]);
  }
  const total = [...selfMicros.values()].reduce((a, b) => a + b, 0);
  const byFunction = new Map();
  for (const [id, micros] of selfMicros) {
    const frame = byId.get(id).callFrame;
    const key = `${frame.functionName || "(anonymous)"} ${where(frame)}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + micros);
  }
  const rows = [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top);
  const lines = [
    `| function (place) | self ms | share |${records ? " µs/record |" : ""}`,
    `| --- | ---: | ---: |${records ? " ---: |" : ""}`,
  ];
  for (const [key, micros] of rows) {
    lines.push(
      `| ${key} | ${(micros / 1000).toFixed(0)} | ${((micros / total) * 100).toFixed(1)}% |` +
        (records ? ` ${(micros / records).toFixed(3)} |` : ""),
    );
  }
  lines.push(
    `| total sampled | ${(total / 1000).toFixed(0)} | 100% |${records ? ` ${(total / records).toFixed(3)} |` : ""}`,
  );
  return lines.join("\n");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [path, records, top] = process.argv.slice(2);
  console.log(await summarizeProfile(path, records ? Number(records) : undefined, top ? Number(top) : 15));
}
