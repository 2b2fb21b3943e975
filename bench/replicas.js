#!/usr/bin/env node
// Replicas at scale: three `schemawatch run` processes in one consumer group on a topic of
// REPLICAS_PARTITIONS partitions, sharing a state topic, scraped by a real Prometheus every 2 s, while
// a producer writes REPLICAS_RATE records/s. Every REPLICAS_KILL_EVERY_S one replica (in turn) is
// SIGKILLed and started again. At the end: production stops, the group's lag is waited to 0, and
//   - the records counter summed over every process life on Prometheus is compared with what was
//     produced (at-least-once: a kill re-reads what its process had counted but not committed, and
//     Prometheus never sees what it counted after its last scrape; both are measured, the second by
//     reading the victim's /metrics just before each kill);
//   - every scrape of schemawatch_version_removable for the deprecated version still sent is 0 (and
//     the share of scrapes that called the never-sent deprecated version drained is shown);
//   - the state topic names, for every partition, the replica that owns it now, read to its end.
//
//   npm run bench:replicas                                        # 10 min, 1 000 partitions
//   REPLICAS_MINUTES=3 REPLICAS_PARTITIONS=100 npm run bench:replicas
import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import {
  brokersFromEnv,
  freePort,
  kafkaFor,
  loadAverages,
  rssMb,
  scrape,
  startMonitorProcess,
  steadyProducer,
  total,
  waitReady,
} from "./monitor-process.js";
import { startPrometheus } from "./prometheus.js";
// The checks the integration test makes too (Node strips the file's types).
import { checkCoverage, groupLag, owners, readStateTopic, sumOverLives } from "../test/helpers/replicas.ts";

const PARTITIONS = Number(process.env.REPLICAS_PARTITIONS ?? 1000);
const MINUTES = Number(process.env.REPLICAS_MINUTES ?? 10);
const KILL_EVERY_S = Number(process.env.REPLICAS_KILL_EVERY_S ?? 60);
const RATE = Number(process.env.REPLICAS_RATE ?? 1000);
const SCRAPE_S = 2;
const REPLICAS = 3;
// One record in STILL_SENT_EVERY declares the deprecated 1.1.0: sparse, so that a replica that
// missed its evidence would soon call it drained within the 30 s window.
const STILL_SENT_EVERY = 500;

const brokers = brokersFromEnv();
const kafka = kafkaFor(brokers);
const id = randomUUID().slice(0, 8);
const topic = `bench-replicas-${id}`;
const stateTopic = `bench-replicas-state-${id}`;
const groupId = `bench-replicas-${id}`;
const dir = await mkdtemp(join(tmpdir(), "schemawatch-replicas-"));
const clientId = (slot) => `bench-replica-${slot}-${id}`;
const replicaOf = (client) => (client === undefined ? "nobody" : `replica-${client.split("-")[2]}`);

const configs = [];
for (let slot = 0; slot < REPLICAS; slot++) {
  configs.push(join(dir, `config-${slot}.yaml`));
  await writeFile(
    configs[slot],
    `kafka:
  brokers: [${brokers.join(", ")}]
  clientId: ${clientId(slot)}
  groupId: ${groupId}
  lagInterval: 5s
logLevel: warn
state:
  file: ${join(dir, `state-${slot}.json`)}
  topic: ${stateTopic}
subjects:
  - name: event
    topics: [${topic}]
    schemas: ${resolve("examples/catalog/event")}
    versions:
      "1.0.0": { status: deprecated }
      "1.1.0": { status: deprecated }
      "2.0.0": { status: active }
    drainWindow: 30s
    sampling:
      maxPerSecond: 1000
`,
  );
}

const admin = kafka.admin();
await admin.connect();
await admin.createTopics({
  topics: [{ topic, numPartitions: PARTITIONS }],
  waitForLeaders: true,
  timeout: 60_000,
});
const loadAtStart = loadAverages();
console.log(
  `Replicas: ${REPLICAS} monitors, ${PARTITIONS} partitions, ${RATE} records/s for ${MINUTES} min, one SIGKILL and restart every ${KILL_EVERY_S} s, Prometheus scraping every ${SCRAPE_S} s`,
);
console.log(`start: ${loadAtStart}`);

const ports = [];
for (let slot = 0; slot < REPLICAS; slot++) ports.push(await freePort());
const start = (slot) =>
  startMonitorProcess(configs[slot], ports[slot], { SCHEMAWATCH_REPLICA_ID: `replica-${slot}` });
const monitors = ports.map((_, slot) => start(slot));
const prometheus = await startPrometheus(
  ports.map((p) => `127.0.0.1:${p}`),
  SCRAPE_S,
);
await Promise.all(monitors.map((m) => waitReady(m, 300_000)));
const runStart = Date.now();
console.log(`all ${REPLICAS} ready`);

let lastStillSentAt = 0;
const producer = await steadyProducer(kafka, topic, RATE, (i, at) => {
  const still = i % STILL_SENT_EVERY === 0;
  if (still) lastStillSentAt = at;
  return {
    key: String(i),
    value: JSON.stringify({ id: i, event: "buy", amount: i % 100 }),
    headers: { producer: `svc-${i % 8}`, "schema-version": still ? "event/1.1" : "event/2.0" },
  };
});

/** Per kill: the victim, its count just before, and how long until every partition was owned again. */
const kills = [];
const assignedEverywhere = async () => {
  let sum = 0;
  for (const m of monitors) {
    const samples = await scrape(m.url).catch(() => undefined);
    if (!samples) return false;
    sum += total(samples, "schemawatch_assigned_partitions");
  }
  return sum === PARTITIONS;
};
while (Date.now() - runStart < MINUTES * 60_000 - 1000) {
  const next = runStart + (kills.length + 1) * KILL_EVERY_S * 1000;
  if (next > runStart + MINUTES * 60_000 - 1000) break;
  await sleep(next - Date.now());
  const slot = kills.length % REPLICAS;
  const victim = monitors[slot];
  // The victim's own count, read just before the kill: Prometheus's last scrape is up to 2 s older.
  const rss = await rssMb(victim.child.pid);
  const asked = Date.now();
  const before = total(await scrape(victim.url).catch(() => []), "schemawatch_records_total", { topic });
  victim.child.kill("SIGKILL");
  const killedAt = Date.now();
  // Records counted and committed between that read and the kill are in neither count: at most what
  // was produced meanwhile (the victim's share of it, unless it had a backlog).
  const raceMs = killedAt - asked;
  await victim.exited;
  monitors[slot] = start(slot);
  let ownedAgainS = NaN;
  while (Date.now() - killedAt < 55_000) {
    if (await assignedEverywhere()) {
      ownedAgainS = (Date.now() - killedAt) / 1000;
      break;
    }
    await sleep(1000);
  }
  kills.push({ slot, before, rss, killedAt, raceMs, ownedAgainS });
  console.log(
    `${((killedAt - runStart) / 60_000).toFixed(1)} min: SIGKILL replica-${slot} (had counted ${before} by ${raceMs} ms before, RSS ${rss.toFixed(0)} MB); every partition owned again after ${ownedAgainS.toFixed(1)} s`,
  );
}
await producer.stop();
const produced = producer.state.produced;
const stoppedAt = Date.now();

// The group reads the rest; then every replica's count stops moving and Prometheus has scraped it.
let lag = NaN;
while (Date.now() - stoppedAt < 300_000) {
  ({ lag } = await groupLag(admin, groupId, topic));
  if (lag === 0) break;
  await sleep(1000);
}
const lagZeroS = (Date.now() - stoppedAt) / 1000;
const finals = [];
for (const m of monitors) finals.push(total(await scrape(m.url), "schemawatch_records_total", { topic }));
await sleep(3 * SCRAPE_S * 1000);
const window = `${Math.ceil((Date.now() - runStart) / 1000) + 120}s`;
const counted = sumOverLives(
  await prometheus.raw(`schemawatch_records_total{topic="${topic}"}[${window}]`),
  await prometheus.raw(`process_start_time_seconds[${window}]`),
);
// What each killed life counted after Prometheus's last scrape of it.
const lost = kills.map((k) => {
  const instance = `127.0.0.1:${ports[k.slot]}`;
  const life = counted.lives.filter((l) => l.instance === instance && l.lastAt * 1000 < k.killedAt).at(-1);
  return k.before - (life?.last ?? 0);
});
const lostTotal = lost.reduce((s, v) => s + v, 0);
const excess = counted.total + lostTotal - produced;
const raceMs = kills.reduce((s, k) => s + k.raceMs, 0);
const raceRecords = Math.ceil((raceMs / 1000) * RATE);

const removable = async (version) =>
  (await prometheus.raw(`schemawatch_version_removable{version="${version}"}[${window}]`)).flatMap((s) =>
    s.values.map(([, v]) => Number(v)),
  );
const stillSent = await removable("1.1.0");
const neverSent = await removable("1.0.0");

// The state topic, once every replica has published after the lag reached 0 (every 10 s).
let coverage;
let stateAt;
const consistentBy = Date.now() + 90_000;
for (;;) {
  const owner = await owners(admin, groupId, topic);
  const { high } = await groupLag(admin, groupId, topic);
  const state = await readStateTopic(kafka, admin, stateTopic);
  coverage = checkCoverage(state, topic, high, owner, replicaOf);
  stateAt = state;
  if (coverage.problems.length === 0 || Date.now() > consistentBy) break;
  await sleep(5000);
}
const versionEvidence = (v) => stateAt.get(`version/event/${v}`);
const loadAtEnd = loadAverages();
const rssAtEnd = await Promise.all(monitors.map((m) => rssMb(m.child.pid)));

await Promise.all(monitors.map((m) => m.kill("SIGTERM")));
await prometheus.stop();
await admin.deleteTopics({ topics: [topic, stateTopic] }).catch(() => undefined);
await admin.disconnect();
await rm(dir, { recursive: true, force: true });

const n = (v) => v.toLocaleString("en-US");
const ownedAgain = kills.map((k) => k.ownedAgainS).filter(Number.isFinite);
console.log(`end: ${loadAtEnd}`);
console.log(`\n| figure | value |`);
console.log(`| --- | ---: |`);
console.log(
  `| records produced (acks all, idempotent) | ${n(produced)} (${producer.state.failed} sends failed) |`,
);
console.log(`| SIGKILLs, each followed by a restart | ${kills.length} |`);
console.log(`| group lag 0 after production stopped | ${lagZeroS.toFixed(1)} s (lag ${lag}) |`);
console.log(
  `| Σ over ${counted.lives.length} process lives of schemawatch_records_total on Prometheus | ${n(counted.total)} (${((counted.total / produced - 1) * 100).toFixed(3)} % vs produced) |`,
);
console.log(
  `| counted by killed lives after their last scrape (unseen by Prometheus) | ${n(lostTotal)} (max ${n(Math.max(0, ...lost))} per kill) |`,
);
console.log(
  `| re-read after kills (counted twice): Prometheus + unseen − produced | ${n(excess)} (${(excess / Math.max(1, kills.length)).toFixed(0)} per kill) |`,
);
console.log(
  `| time from asking each victim's count to its SIGKILL, in all / records produced meanwhile | ${raceMs} ms / ${n(raceRecords)} (what a victim counted then is in neither count: the re-read's resolution) |`,
);
const lastLives = ports.map(
  (p) => counted.lives.filter((l) => l.instance === `127.0.0.1:${p}`).at(-1)?.last ?? 0,
);
console.log(
  `| the final lives: own counts / last Prometheus samples | ${finals.map(n).join(" + ")} / ${lastLives.map(n).join(" + ")} |`,
);
console.log(
  `| scrapes of removable for 1.1.0 (still sent) / at 1 | ${stillSent.length} / ${stillSent.filter((v) => v === 1).length} |`,
);
console.log(
  `| scrapes of removable for 1.0.0 (never sent) / at 1 | ${neverSent.length} / ${neverSent.filter((v) => v === 1).length} |`,
);
console.log(
  `| every partition owned again after a kill: median / max | ${ownedAgain.sort((a, b) => a - b)[Math.floor(ownedAgain.length / 2)]?.toFixed(1)} / ${Math.max(...ownedAgain).toFixed(1)} s |`,
);
console.log(
  `| state topic: partitions whose coverage names the current owner, read to the log end | ${coverage.accounted} / ${PARTITIONS} |`,
);
console.log(
  `| state topic: version/event/1.0.0 last declared / 1.1.0 last declared vs last sent | ${versionEvidence("1.0.0")?.lastDeclaredAt} / ${(versionEvidence("1.1.0")?.lastDeclaredAt ?? 0) - lastStillSentAt} ms |`,
);
console.log(
  `| RSS of each replica before its kills (max) / at the end | ${Math.max(...kills.map((k) => k.rss)).toFixed(0)} / ${rssAtEnd.map((r) => r.toFixed(0)).join(", ")} MB |`,
);
for (const problem of coverage.problems.slice(0, 10)) console.log(`state topic problem: ${problem}`);
const failed =
  lag !== 0 ||
  excess < -raceRecords ||
  finals.some((f, i) => f !== lastLives[i]) ||
  stillSent.some((v) => v === 1) ||
  coverage.problems.length > 0 ||
  producer.state.failed > 0;
if (failed) {
  console.error("FAILED: see the table");
  process.exitCode = 1;
}
