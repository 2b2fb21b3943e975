#!/usr/bin/env node
// Codec benchmark: decompresses real Kafka record batches with schemawatch's codecs and with every
// candidate library, side by side in one run, and prints MB/s (of decompressed records) and the ratio
// to schemawatch's own decoder. The batches are the records sections of magic-2 record batches
// (~166-byte JSON events with key and headers, bench/kafka-records.js) compressed by the Kafka Java
// client's own codec classes (test/helpers/java/CompressBlobs.java), as a Java producer writes them.
//
//   npm run build && node bench/codecs.js
//
// Needs a JDK and the Kafka jars (scripts/kafka-broker.sh fetch). Candidates that are not
// dependencies are measured when installed, in this project (npm i --no-save NAME) or in the folder
// named by CODEC_CANDIDATES (e.g. CODEC_CANDIDATES=/tmp/candidates after `npm i` of them there);
// the others are listed as not installed.
// Options (environment): BENCH_CODEC_MB (decompressed MB per timed run, default 16), BENCH_CODEC_RUNS (5).
import { Buffer } from "node:buffer";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { cpus, homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { unzip, zstdDecompress } from "node:zlib";
import { promisify } from "node:util";

import { kafkaCodecs } from "../dist/kafka/patches/codecs/index.js";
import { recordsSection } from "./kafka-records.js";

const SIZES = [16 * 1024, 64 * 1024, 256 * 1024, 1024 * 1024];
const CODECS = ["gzip", "snappy", "lz4", "zstd"];
const TARGET_BYTES = Number(process.env.BENCH_CODEC_MB ?? 16) * 1024 * 1024;
const RUNS = Number(process.env.BENCH_CODEC_RUNS ?? 5);
const OURS = kafkaCodecs();

// ---- inputs, compressed by the Java client ----

/** The class path of the Kafka client, its codecs and (for ProduceRecords) Jackson, from the broker's jars. */
export function kafkaClasspath(extra = []) {
  const env = process.env;
  const cache = env.SW_CACHE || join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "schemawatch");
  const libs = join(cache, `kafka-${env.KAFKA_VERSION || "4.4.0"}`, "libs");
  const files = existsSync(libs) ? readdirSync(libs) : [];
  return ["kafka-clients-", "snappy-java-", "lz4-java-", "zstd-jni-", "slf4j-api-", ...extra]
    .map((prefix) => {
      const jar = files.find((f) => f.startsWith(prefix) && f.endsWith(".jar"));
      if (!jar) throw new Error(`no ${prefix}*.jar in ${libs}: run scripts/kafka-broker.sh fetch`);
      return join(libs, jar);
    })
    .join(":");
}

/** { size: { input, records, compressed: { codec: Buffer } } } for every batch size. */
function batches() {
  const dir = mkdtempSync(join(tmpdir(), "sw-bench-codecs-"));
  try {
    const inputs = SIZES.map((size) => recordsSection(size, size));
    inputs.forEach(({ buffer }, i) => writeFileSync(join(dir, `${i}.in`), buffer));
    const classpath = kafkaClasspath();
    for (const codec of CODECS) {
      const files = SIZES.flatMap((_, i) => [join(dir, `${i}.in`), join(dir, `${i}.${codec}`)]);
      execFileSync("java", ["-cp", classpath, "test/helpers/java/CompressBlobs.java", codec, ...files], {
        stdio: ["ignore", "ignore", "inherit"],
      });
    }
    return SIZES.map((size, i) => ({
      size,
      input: inputs[i].buffer,
      records: inputs[i].records,
      compressed: Object.fromEntries(CODECS.map((c) => [c, readFileSync(join(dir, `${i}.${c}`))])),
    }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---- framing helpers for candidates that decode only raw snappy blocks or LZ4 blocks ----

/** The raw snappy blocks of a xerial stream (the Java client's snappy framing). */
function xerialChunks(stream) {
  const chunks = [];
  for (let at = 16; at < stream.length; at += 4 + stream.readInt32BE(at)) {
    chunks.push(stream.subarray(at + 4, at + 4 + stream.readInt32BE(at)));
  }
  return chunks;
}

function snappyLength(block) {
  let length = 0;
  for (let i = 0, shift = 0; ; i++, shift += 7) {
    length += (block[i] & 0x7f) * 2 ** shift;
    if (block[i] < 0x80) return length;
  }
}

/** Kafka's LZ4 frame (independent blocks, no checksums, no content size): its blocks. */
function lz4Blocks(frame) {
  const blocks = [];
  for (let at = 7; ;) {
    const header = frame.readUInt32LE(at);
    if (header === 0) return blocks;
    const size = header & 0x7fffffff;
    blocks.push({ data: frame.subarray(at + 4, at + 4 + size), raw: header >>> 31 === 1 });
    at += 4 + size;
  }
}

// ---- candidates ----

const candidateRequire = process.env.CODEC_CANDIDATES
  ? createRequire(join(process.env.CODEC_CANDIDATES, "package.json"))
  : undefined;

/** The module when it is installed here or in CODEC_CANDIDATES; undefined otherwise. */
async function optional(name) {
  try {
    return await import(name);
  } catch {
    if (!candidateRequire) return undefined;
    try {
      return await import(pathToFileURL(candidateRequire.resolve(name)).href);
    } catch {
      return undefined;
    }
  }
}

const unzipAsync = promisify(unzip);
const zstdAsync = promisify(zstdDecompress);

/** Per codec: [name, kind, load() → decompress(compressed, batch) or undefined]. */
const CANDIDATES = {
  gzip: [
    ["schemawatch: node:zlib unzipSync", "built in", async () => (b) => OURS.gzip.decompress(b)],
    ["node:zlib unzip (async, thread pool)", "built in", async () => (b) => unzipAsync(b)],
    [
      "kafkajs 2.2.4 built-in gzip",
      "dependency",
      async () => {
        const gzip = createRequire(import.meta.url)("kafkajs/src/protocol/message/compression/gzip.js");
        return (b) => gzip.decompress(b);
      },
    ],
  ],
  snappy: [
    ["schemawatch: own TypeScript decoder", "ours", async () => (b) => OURS.snappy.decompress(b)],
    [
      "snappyjs (pure JS)",
      "npm",
      async () => {
        const m = await optional("snappyjs");
        return m && ((b) => Buffer.concat(xerialChunks(b).map((c) => m.default.uncompress(c))));
      },
    ],
    [
      "hysnappy (wasm)",
      "npm",
      async () => {
        const m = await optional("hysnappy");
        return (
          m && ((b) => Buffer.concat(xerialChunks(b).map((c) => m.snappyUncompress(c, snappyLength(c)))))
        );
      },
    ],
    [
      "snappy-wasm (wasm)",
      "npm",
      async () => {
        const m = await optional("snappy-wasm");
        const s = m && (m.default ?? m);
        return s && ((b) => Buffer.concat(xerialChunks(b).map((c) => s.decompress_raw(c))));
      },
    ],
    [
      "snappy (napi-rs native addon, reference)",
      "npm",
      async () => {
        const m = await optional("snappy");
        return (
          m && ((b) => Buffer.concat(xerialChunks(b).map((c) => m.uncompressSync(c, { asBuffer: true }))))
        );
      },
    ],
  ],
  lz4: [
    ["schemawatch: own TypeScript decoder", "ours", async () => (b) => OURS.lz4.decompress(b)],
    [
      "lz4js (pure JS)",
      "npm",
      async () => {
        const m = await optional("lz4js");
        return m && ((b) => Buffer.from(m.default.decompress(b)));
      },
    ],
    [
      "@foxglove/wasm-lz4 (wasm liblz4)",
      "npm",
      async () => {
        const m = await optional("@foxglove/wasm-lz4");
        if (!m) return undefined;
        const decompress = m.default;
        await decompress.isLoaded;
        // It needs the output size up front: Kafka's frames do not carry it, so give the bound.
        return (b) => decompress(b, lz4Blocks(b).length * 65536);
      },
    ],
    [
      "lz4-wasm-nodejs (wasm lz4_flex; told the exact block sizes)",
      "npm",
      async () => {
        const m = await optional("lz4-wasm-nodejs");
        if (!m) return undefined;
        const wasm = m.default ?? m;
        // Its block API needs each block's exact decompressed size, which a Kafka frame does not
        // carry: the bench cheats and passes it (64 KB but for the last), to show the speed alone.
        return (b, batch) => {
          const blocks = lz4Blocks(b);
          return Buffer.concat(
            blocks.map((block, i) => {
              if (block.raw) return block.data;
              const size = i < blocks.length - 1 ? 65536 : batch.input.length - 65536 * (blocks.length - 1);
              const prefixed = Buffer.allocUnsafe(4 + block.data.length);
              prefixed.writeUInt32LE(size, 0);
              block.data.copy(prefixed, 4);
              return wasm.decompress(prefixed);
            }),
          );
        };
      },
    ],
    [
      "lz4-napi (napi-rs native addon, reference)",
      "npm",
      async () => {
        const m = await optional("lz4-napi");
        return m && ((b) => m.decompressFrameSync(b));
      },
    ],
  ],
  zstd: [
    ["schemawatch: node:zlib zstdDecompressSync", "built in", async () => (b) => OURS.zstd.decompress(b)],
    ["node:zlib zstdDecompress (async, thread pool)", "built in", async () => (b) => zstdAsync(b)],
  ],
};

// ---- measurement ----

async function timeRun(decompress, batch, codec, iterations) {
  const input = batch.compressed[codec];
  globalThis.gc?.();
  const start = performance.now();
  for (let i = 0; i < iterations; i++) await decompress(input, batch);
  return performance.now() - start;
}

const fmt = (n, digits = 0) =>
  n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const kb = (bytes) => (bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MB` : `${bytes / 1024} KB`);

/** Runs the codec benchmark and prints its table; returns the rows. */
export async function codecBench() {
  const all = batches();
  const rows = [];
  const loaded = {};
  for (const codec of CODECS) {
    loaded[codec] = [];
    for (const [name, kind, load] of CANDIDATES[codec]) {
      let decompress;
      try {
        decompress = await load();
      } catch (error) {
        console.error(`${name}: cannot load (${error.message})`);
      }
      loaded[codec].push({ name, kind, decompress });
    }
  }

  for (const batch of all) {
    for (const codec of CODECS) {
      const iterations = Math.max(1, Math.round(TARGET_BYTES / batch.input.length));
      const live = [];
      for (const candidate of loaded[codec]) {
        if (!candidate.decompress) {
          rows.push({ codec, batch, candidate, status: "not installed" });
          continue;
        }
        let out;
        try {
          out = await candidate.decompress(batch.compressed[codec], batch);
        } catch (error) {
          rows.push({ codec, batch, candidate, status: `failed: ${error.message}` });
          continue;
        }
        if (!Buffer.from(out).equals(batch.input)) {
          rows.push({ codec, batch, candidate, status: "WRONG OUTPUT" });
          continue;
        }
        const row = { codec, batch, candidate, status: "ok", ms: Infinity };
        rows.push(row);
        live.push(row);
      }
      // Runs alternate between the candidates, so that a burst of noise on the shared machine hits
      // all of them rather than one; each keeps its fastest run.
      for (let r = 0; r < RUNS; r++) {
        for (const row of live) {
          row.ms = Math.min(row.ms, await timeRun(row.candidate.decompress, batch, codec, iterations));
        }
      }
      for (const row of live) row.mbs = (batch.input.length * iterations) / 1024 / 1024 / (row.ms / 1000);
    }
  }

  console.log(`codec benchmark — node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}`);
  console.log(
    `records sections of magic-2 batches (${fmt(all[0].input.length / all[0].records)} bytes a record with key and headers), compressed by the Kafka ${kafkaClasspath().match(/kafka-clients-([^:]*)\.jar/)[1]} Java client; best of ${RUNS} runs of ${TARGET_BYTES / 1024 / 1024} MB\n`,
  );
  console.log("| codec | batch | ratio | decoder | MB/s | vs schemawatch |");
  console.log("| --- | ---: | ---: | --- | ---: | ---: |");
  for (const codec of CODECS) {
    for (const batch of all) {
      const these = rows.filter((r) => r.codec === codec && r.batch === batch);
      const ours = these[0];
      const ratio = batch.input.length / batch.compressed[codec].length;
      for (const row of these) {
        const speed = row.status === "ok" ? fmt(row.mbs) : row.status;
        const versus = row.status === "ok" && ours.status === "ok" ? (row.mbs / ours.mbs).toFixed(2) : "";
        console.log(
          `| ${codec} | ${kb(batch.size)} | ${ratio.toFixed(2)} | ${row.candidate.name} | ${speed} | ${versus} |`,
        );
      }
    }
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await codecBench();
