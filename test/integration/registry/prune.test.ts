// `schemawatch prune` against the real registry (SCHEMA_REGISTRY_URL, Apicurio) and a real monitor
// started in-process from a capture: a replay judges with the records' own clock, so a version drains
// within the test, deterministically. The monitor keeps polling the registry after the replay, which
// is how its catalog follows the retirement. The test side reads the registry with plain fetch.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { createLogger } from "../../../src/log.js";
import { startMonitor, type RunningMonitor } from "../../../src/monitor/start.js";
import type { Report } from "../../../src/report/model.js";
import { runCli } from "../../helpers/cli.js";
import { writeTree } from "../../helpers/files.js";
import { waitFor } from "../../helpers/kafka.js";
import { metricValue } from "../../helpers/live.js";
import {
  freshSubject,
  register,
  registryUrl,
  setState,
  startProxy,
  type TestProxy,
} from "../../helpers/registry.js";

const url = registryUrl();
const native = url.replace(/\/apis\/ccompat\/v\d+$/, "/apis/registry/v3");
const T0 = Date.parse("2026-12-01T08:00:00Z");

const monitors: RunningMonitor[] = [];
const proxies: TestProxy[] = [];
afterEach(async () => {
  await Promise.all(monitors.splice(0).map((m) => m.stop()));
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

/** v1 has `id`; v2 adds `amount`. Apicurio wants `properties` to recognise JSON Schema. */
async function twoVersions(subject: string, registry = url): Promise<void> {
  const properties = { id: { type: "integer" } };
  await register(registry, subject, { title: subject, type: "object", properties });
  await register(registry, subject, {
    title: subject,
    type: "object",
    properties: { ...properties, amount: { type: "number" } },
  });
}

/** Version 1 from producer web at seconds 0..lastV1, version 2 from mobile from then to 100 s. */
function capture(lastV1: number): string {
  const lines: string[] = [];
  let offset = 0;
  const line = (t: number, producer: string, version: string, value: unknown) =>
    lines.push(
      JSON.stringify({
        topic: "events",
        partition: 0,
        offset: offset++,
        timestamp: T0 + t * 1000,
        headers: { producer, "schema-version": version },
        value,
      }),
    );
  for (let t = 0; t <= lastV1; t++) line(t, "web", "1", { id: t });
  for (let t = lastV1 + 1; t <= 100; t++) line(t, "mobile", "2", { id: t, amount: 5 });
  return lines.join("\n") + "\n";
}

async function monitorOf(registry: string, subject: string, lastV1: number, versions = "") {
  const dir = await writeTree({ "capture.ndjson": capture(lastV1) });
  await writeFile(
    join(dir, "config.yaml"),
    `logLevel: silent
registries:
  main: { url: "${registry}", pollInterval: 1s }
subjects:
  - name: order
    topics: [events]
    registry:
      name: main
      subject: ${subject}
${versions}    drainWindow: 60s
    readyWindow: 60s
    minSamples: 20
`,
  );
  const monitor = await startMonitor({
    configPath: join(dir, "config.yaml"),
    source: { file: join(dir, "capture.ndjson") },
    port: 0,
    host: "127.0.0.1",
    env: {},
    version: "test",
    logger: createLogger("silent"),
  });
  monitors.push(monitor);
  await monitor.replayed;
  return { monitor, config: join(dir, "config.yaml") };
}

async function report(monitor: RunningMonitor): Promise<Report> {
  return (await (await fetch(`${monitor.address}/api/report`)).json()) as Report;
}

const versionOf = (r: Report, label: string) => r.subjects[0]!.versions.find((v) => v.version === label);

async function nativeVersion(subject: string, version: number) {
  const response = await fetch(`${native}/groups/default/artifacts/${subject}/versions/${version}`);
  return (await response.json()) as { state: string; labels?: Record<string, string> };
}

async function confluentStatus(subject: string, version: number, deleted = false): Promise<number> {
  const query = deleted ? "?deleted=true" : "";
  return (await fetch(`${url}/subjects/${subject}/versions/${version}${query}`)).status;
}

function prune(config: string, subject: string, ...extra: string[]) {
  const args = ["prune", "--config", config, "--registry", "main", "--subject", subject, "--version", "1"];
  return runCli([...args, ...extra], { USER: "ci-user" });
}

describe("schemawatch prune on Apicurio", () => {
  it("refuses while the version is not drained, with the verdict's reasons, and leaves the registry as it was", async () => {
    const subject = freshSubject("prune-busy");
    await twoVersions(subject);
    await setState(url, subject, 1, "DEPRECATED");
    const { monitor, config } = await monitorOf(url, subject, 95);
    // Deprecation read from the registry's state: the YAML says nothing of version 1.
    expect(versionOf(await report(monitor), "1")!.status).toBe("deprecated");

    const result = await prune(config, subject, "--url", monitor.address, "--apply");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`The monitor at ${monitor.address} says order 1 is not drained.`);
    expect(result.stdout).toContain("  - last seen 5s ago from producer web\n");
    expect(result.stdout).toContain("Refused: order 1 is not known to be drained; nothing was changed.");
    expect((await nativeVersion(subject, 1)).state).toBe("DEPRECATED");
    expect((await nativeVersion(subject, 1)).labels ?? {}).toEqual({});
    expect(await confluentStatus(subject, 1)).toBe(200);
  });

  it("refuses without a monitor to ask (1), and fails when the monitor does not answer (3)", async () => {
    const subject = freshSubject("prune-nomon");
    await twoVersions(subject);
    await setState(url, subject, 1, "DEPRECATED");
    const dir = await writeTree({});
    const config = join(dir, "config.yaml");
    await writeFile(
      config,
      `registries:\n  main: { url: "${url}" }\nsubjects:\n  - name: order\n    topics: [events]\n    registry: { name: main, subject: ${subject} }\n`,
    );
    const none = await prune(config, subject, "--apply");
    expect(none.code).toBe(1);
    expect(none.stdout).toContain("  - no monitor to ask: give --url of the running monitor\n");
    // A monitor that does not answer is a failure (3), not a refusal: automation retries it.
    const down = await prune(config, subject, "--apply", "--url", "http://127.0.0.1:9");
    expect(down.code).toBe(3);
    expect(down.stdout).toMatch(
      / {2}- http:\/\/127\.0\.0\.1:9\/api\/report: no answer from a schemawatch monitor \([^\n]*\)\nThe monitor at http:\/\/127\.0\.0\.1:9 could not be asked; nothing was changed\.\n$/,
    );
    expect((await nativeVersion(subject, 1)).state).toBe("DEPRECATED");
  });

  it("plans, then retires a drained version (DISABLED, with who and when), and the monitor follows", async () => {
    const subject = freshSubject("prune-drained");
    await twoVersions(subject);
    await setState(url, subject, 1, "DEPRECATED");
    const { monitor, config } = await monitorOf(url, subject, 10);
    const before = versionOf(await report(monitor), "1")!;
    expect(before.status).toBe("deprecated");
    expect(before.verdict!.yes).toBe(true);

    // readiness takes the registry's label as the report shows it (`1`, meaning 1.0.0).
    const ready = await runCli([
      "readiness",
      "--subject",
      "order",
      "--version",
      "1",
      "--url",
      monitor.address,
    ]);
    expect(ready.code).toBe(0);
    expect(ready.stdout).toBe("order 1.0.0 is drained\n");

    const versionUrl = `${native}/groups/default/artifacts/${subject}/versions/1`;
    const dry = await prune(config, subject, "--url", monitor.address);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(
      new RegExp(
        `^Plan to retire ${subject} version 1 \\(order 1\\) in registry 'main' \\(.+\\):\n` +
          `  PUT ${versionUrl} \\{"labels":\\{"schemawatch.retired-by":"ci-user","schemawatch.retired-at":"[^"]+"\\}\\}\n` +
          `  PUT ${versionUrl}/state \\{"state":"DISABLED"\\}\n`,
      ),
    );
    expect(dry.stdout).toContain("Dry run: nothing was changed; add --apply to carry the plan out.");
    expect((await nativeVersion(subject, 1)).state).toBe("DEPRECATED");

    const applied = await prune(config, subject, "--url", monitor.address, "--apply", "--actor", "alice");
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain(`The monitor at ${monitor.address} says order 1 is drained.`);
    expect(applied.stdout).toContain(`  evidence: ${JSON.stringify(before.verdict!.evidence)}\n`);
    expect(applied.stdout).toMatch(new RegExp(`Retired ${subject} version 1 \\(order 1\\) by alice at 20`));
    const logged = JSON.parse(applied.stderr.trim()) as Record<string, unknown>;
    expect(logged).toMatchObject({
      msg: "registry version retired",
      registry: "main",
      subject,
      version: 1,
      actor: "alice",
      api: "apicurio",
      evidence: before.verdict!.evidence,
    });
    const after = await nativeVersion(subject, 1);
    expect(after.state).toBe("DISABLED");
    expect(after.labels).toEqual({
      "schemawatch.retired-by": "alice",
      "schemawatch.retired-at": logged["at"],
    });
    expect(await confluentStatus(subject, 1)).toBe(404);
    expect((await nativeVersion(subject, 2)).state).toBe("ENABLED");

    // The monitor's next poll: version 1 retired (no verdict), and the retirement counted.
    await waitFor(
      async () => versionOf(await report(monitor), "1")?.status === "retired",
      "the monitor's catalog to show version 1 retired",
      30_000,
      200,
    );
    expect(versionOf(await report(monitor), "1")!.verdict).toBeNull();
    const metrics = await (await fetch(`${monitor.address}/metrics`)).text();
    expect(
      metricValue(
        metrics,
        `schemawatch_registry_versions_retired_total{registry="main",subject="${subject}"}`,
      ),
    ).toBe(1);

    const again = await prune(config, subject, "--url", monitor.address, "--apply");
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/is already retired: nothing to do\.\n$/);
  });

  it("exits 2 for a subject or a version the registry does not have", async () => {
    const subject = freshSubject("prune-input");
    await twoVersions(subject);
    const dir = await writeTree({});
    const config = join(dir, "config.yaml");
    const absent = freshSubject("prune-absent");
    await writeFile(
      config,
      `registries:\n  main: { url: "${url}" }\nsubjects:\n  - name: order\n    topics: [events]\n    registry: { name: main, subject: ${subject} }\n  - name: gone\n    topics: [gone]\n    registry: { name: main, subject: ${absent} }\n`,
    );
    const version = await runCli(
      ["prune", "--config", config, "--registry", "main", "--subject", subject, "--version", "7"],
      {},
    );
    expect(version.code).toBe(2);
    expect(version.stderr).toContain(`schemawatch prune: ${subject} has no version 7 (known: 1, 2)`);
    const unknown = await prune(config, absent);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(`registry 'main' has no subject '${absent}'`);
    const unfollowed = await prune(config, "other-value");
    expect(unfollowed.code).toBe(2);
    expect(unfollowed.stderr).toContain(
      `no subject of the config follows 'other-value' of registry 'main' (followed: ${subject}, ${absent})`,
    );
  });
});

describe("schemawatch prune through the Confluent API alone", () => {
  /**
   * The registry as a Confluent Schema Registry shows it: Apicurio's native API hidden (404), and
   * version 1 carrying the Confluent metadata property that deprecates it (Apicurio's ccompat API
   * neither stores nor returns metadata, so the proxy adds it to the answer).
   */
  async function confluentLike(): Promise<TestProxy> {
    const proxy = await startProxy(url, (request, response) => {
      const path = request.url ?? "";
      if (path.startsWith("/apis/registry/")) {
        response.writeHead(404).end();
        return false;
      }
      if (request.method !== "GET" || !/\/subjects\/[^/]+\/versions\/1(\?|$)/.test(path)) return true;
      void fetch(new URL(path, url)).then(async (answer) => {
        const body = (await answer.json()) as Record<string, unknown>;
        if (answer.ok) body["metadata"] = { properties: { "schemawatch.status": "deprecated" } };
        response.writeHead(answer.status, { "content-type": "application/json" });
        response.end(JSON.stringify(body));
      });
      return false;
    });
    proxies.push(proxy);
    return proxy;
  }

  it("reads the deprecation from the version's metadata and retires with a soft delete", async () => {
    const subject = freshSubject("prune-confluent");
    await twoVersions(subject);
    const proxy = await confluentLike();
    const { monitor, config } = await monitorOf(proxy.url, subject, 10);
    expect(versionOf(await report(monitor), "1")!.status).toBe("deprecated");

    const applied = await prune(config, subject, "--url", monitor.address, "--apply");
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain(`  DELETE ${proxy.url}/subjects/${subject}/versions/1\n`);
    expect(applied.stdout).not.toContain("permanent");
    expect(proxy.requests.filter((r) => r.startsWith("DELETE"))).toEqual([
      `DELETE ${new URL(proxy.url).pathname}/subjects/${subject}/versions/1`,
    ]);
    expect(await confluentStatus(subject, 1)).toBe(404);
    expect(await confluentStatus(subject, 1, true)).toBe(200);
    await waitFor(
      async () => versionOf(await report(monitor), "1")?.status === "retired",
      "the monitor's catalog to show version 1 retired",
      30_000,
      200,
    );
  });
});
