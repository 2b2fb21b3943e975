// A retirement that stops half-way, against the real registry (SCHEMA_REGISTRY_URL, Apicurio): a
// proxy in front of it answers 500 to the second call (the state), which the registry itself cannot
// be made to do. The monitor is a stand-in that serves a drained verdict at /api/report, since what
// is tested is the command's handling of the registry; prune.test.ts asks a real monitor.
import { writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { runCli } from "../../helpers/cli.js";
import { writeTree } from "../../helpers/files.js";
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

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const EVIDENCE = { window: "60s", partitions: 1 };

/** Serves the report of a monitor that judges `subject` version 1 of registry main drained. */
async function drainedMonitor(subject: string): Promise<string> {
  const report = {
    subjects: [
      {
        subject: "order",
        registry: { name: "main", subject },
        versions: [
          {
            version: "1",
            status: "deprecated",
            verdict: { kind: "drained", yes: true, reasons: [], evidence: EVIDENCE },
          },
        ],
      },
    ],
  };
  const server: Server = createServer((request, response) => {
    response.writeHead(request.url === "/api/report" ? 200 : 404, { "content-type": "application/json" });
    response.end(JSON.stringify(report));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function nativeVersion(subject: string) {
  const response = await fetch(`${native}/groups/default/artifacts/${subject}/versions/1`);
  return (await response.json()) as { state: string; labels?: Record<string, string> };
}

describe("schemawatch prune when the registry fails between its two calls", () => {
  it("exits 3 saying what was sent, and the next run finds the half-finished retirement and finishes it", async () => {
    const subject = freshSubject("prune-half");
    const properties = { id: { type: "integer" } };
    await register(url, subject, { title: subject, type: "object", properties });
    await register(url, subject, {
      title: subject,
      type: "object",
      properties: { ...properties, n: { type: "number" } },
    });
    await setState(url, subject, 1, "DEPRECATED");
    let failing = true;
    const proxy: TestProxy = await startProxy(url, (request, response) => {
      if (!failing || request.method !== "PUT" || !request.url?.endsWith("/versions/1/state")) return true;
      response
        .writeHead(500, { "content-type": "application/json" })
        .end('{"error_code":50001,"message":"down"}');
      return false;
    });
    closers.push(() => proxy.close());
    const monitor = await drainedMonitor(subject);
    const dir = await writeTree({});
    const config = join(dir, "config.yaml");
    await writeFile(
      config,
      `registries:\n  main: { url: "${proxy.url}", retries: 0 }\nsubjects:\n  - name: order\n    topics: [events]\n    registry: { name: main, subject: ${subject} }\n`,
    );
    const prune = (...extra: string[]) =>
      runCli(
        [
          "prune",
          "--config",
          config,
          "--registry",
          "main",
          "--subject",
          subject,
          "--version",
          "1",
          "--url",
          monitor,
          ...extra,
        ],
        { USER: "ci-user" },
      );
    const versionUrl = `${new URL(proxy.url).origin}/apis/registry/v3/groups/default/artifacts/${subject}/versions/1`;

    const first = await prune("--apply", "--actor", "alice");
    expect(first.code).toBe(3);
    const labelled = await nativeVersion(subject);
    expect(labelled.state).toBe("DEPRECATED");
    const at = labelled.labels!["schemawatch.retired-at"]!;
    expect(labelled.labels).toEqual({ "schemawatch.retired-by": "alice", "schemawatch.retired-at": at });
    const lines = first.stderr.split("\n");
    expect(lines[0]).toMatch(
      new RegExp(
        `^schemawatch prune: the registry failed at PUT ${versionUrl}/state: registry 'main' .*HTTP 500`,
      ),
    );
    expect(lines.slice(1)).toEqual([
      `  sent: PUT ${versionUrl} {"labels":{"schemawatch.retired-by":"alice","schemawatch.retired-at":"${at}"}}`,
      `schemawatch prune: ${subject} version 1 is labelled retired but still DEPRECATED: run the same prune again to finish the retirement`,
      "",
    ]);

    failing = false;
    const dry = await prune();
    expect(dry.code).toBe(0);
    expect(dry.stdout.split("\n").slice(0, 3)).toEqual([
      `${subject} version 1 (order 1) in registry 'main' (${proxy.url}) is labelled retired by alice at ${at}, but its state is still DEPRECATED: a retirement that stopped half-way. The plan finishes it.`,
      `Plan to retire ${subject} version 1 (order 1) in registry 'main' (${proxy.url}):`,
      `  PUT ${versionUrl}/state {"state":"DISABLED"}`,
    ]);

    const finished = await prune("--apply");
    expect(finished.code).toBe(0);
    expect(finished.stdout).toMatch(
      new RegExp(
        `\nRetired ${subject} version 1 \\(order 1\\) by alice at ${at.replace(/\./g, "\\.")} \\(finished by ci-user at 20[^)]+\\)\\. `,
      ),
    );
    const retired = await nativeVersion(subject);
    expect(retired.state).toBe("DISABLED");
    expect(retired.labels).toEqual({ "schemawatch.retired-by": "alice", "schemawatch.retired-at": at });
    // The state call alone was sent the second time: the labels were written once.
    expect(proxy.requests.filter((r) => r.startsWith("PUT"))).toEqual([
      `PUT ${new URL(versionUrl).pathname}`,
      `PUT ${new URL(versionUrl).pathname}/state`,
      `PUT ${new URL(versionUrl).pathname}/state`,
    ]);
  });
});
