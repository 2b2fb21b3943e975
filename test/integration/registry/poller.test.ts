// The poller against a real Apicurio Registry. The first test runs one of its own (scripts/registry.sh
// on free ports of its own), because it stops it mid-run: the shared one must stay up for the other tests.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { RegistryPoller, type SnapshotChange } from "../../../src/registry/poller.js";
import { SnapshotReader } from "../../../src/registry/snapshot.js";
import type { SubjectSnapshot } from "../../../src/registry/types.js";
import {
  freshSubject,
  register,
  registryUrl,
  setState,
  silentLogger,
  startOwnRegistry,
  testClient,
} from "../../helpers/registry.js";

let registry: { url: string; stop(): Promise<void> } | undefined;
let runDir = "";
let stopped = false;

beforeAll(async () => {
  runDir = await mkdtemp(join(tmpdir(), "sw-registry-poller-"));
  registry = await startOwnRegistry(runDir);
}, 180_000);

afterAll(async () => {
  if (!stopped) await registry?.stop();
  await rm(runDir, { recursive: true, force: true });
}, 90_000);

function schema(subject: string, properties: Record<string, unknown>) {
  return { title: subject, type: "object", properties };
}

describe("RegistryPoller", () => {
  it("reports new versions and state changes, and keeps the last snapshot while the registry is down", async () => {
    const url = registry!.url;
    const subject = freshSubject("polled");
    const id1 = await register(url, subject, schema(subject, { a: {} }));

    const client = testClient(url, { retries: 1, timeout: 2_000 });
    const seen: Array<{ snapshot: SubjectSnapshot; changes: readonly SnapshotChange[] }> = [];
    const statuses: Array<[boolean, string | undefined]> = [];
    const poller = new RegistryPoller({
      reader: new SnapshotReader("own", client),
      subjects: [subject],
      interval: 60_000,
      logger: silentLogger,
      onChange: (snapshot, changes) => seen.push({ snapshot, changes }),
      onStatus: (up, error) => statuses.push([up, error?.message]),
    });

    await poller.start();
    expect(poller.up).toBe(true);
    expect(seen.map((s) => s.changes)).toEqual([
      [
        { kind: "added", version: 1, id: id1 },
        { kind: "compatibility", to: "NONE" },
      ],
    ]);

    // A version registered meanwhile, and another one deprecated in Apicurio's native API.
    const id2 = await register(url, subject, schema(subject, { a: {}, b: {} }));
    await setState(url, subject, 1, "DEPRECATED");
    expect(await poller.poll()).toBe(true);
    expect(seen[1]!.changes).toEqual([
      { kind: "state", version: 1, from: "ENABLED", to: "DEPRECATED" },
      { kind: "added", version: 2, id: id2 },
    ]);

    // Nothing changed: no callback, but a fresh snapshot.
    expect(await poller.poll()).toBe(true);
    expect(seen.length).toBe(2);
    const good = poller.snapshot(subject)!;
    expect(good).not.toBe(seen[1]!.snapshot);
    expect(good.versions.map((v) => [v.version, v.state])).toEqual([
      [1, "DEPRECATED"],
      [2, "ENABLED"],
    ]);

    await registry!.stop();
    stopped = true;
    expect(await poller.poll()).toBe(false);
    expect(poller.up).toBe(false);
    expect(poller.lastError).toMatchObject({ code: "REGISTRY_UNAVAILABLE" });
    expect(poller.lastError!.message).toContain(
      `registry 'test' (${url}): GET /subjects/${subject}/versions?deleted=true`,
    );
    // The last good snapshot stays, the same object, and no change was reported.
    expect(poller.snapshot(subject)).toBe(good);
    expect(seen.length).toBe(2);
    expect(statuses).toEqual([
      [true, undefined],
      [false, poller.lastError!.message],
    ]);
    expect(poller.polls).toBe(4);
    await poller.stop();
    client.http.close();
  }, 180_000);

  it("polls on its own at the interval and picks up a version registered meanwhile", async () => {
    const url = registryUrl();
    const subject = freshSubject("interval");
    await register(url, subject, schema(subject, { a: {} }));
    const client = testClient(url);
    const added: number[] = [];
    let resolveAdded: () => void = () => undefined;
    const second = new Promise<void>((resolve) => (resolveAdded = resolve));
    const poller = new RegistryPoller({
      reader: new SnapshotReader("main", client),
      subjects: [subject],
      interval: 1_000,
      logger: silentLogger,
      onChange: (_snapshot, changes) => {
        for (const change of changes) if (change.kind === "added") added.push(change.version);
        if (added.includes(2)) resolveAdded();
      },
    });
    await poller.start();
    expect(added).toEqual([1]);
    await register(url, subject, schema(subject, { a: {}, b: {} }));
    // No poll() here: the poller's own timer must find it (the test's timeout bounds the wait).
    await second;
    expect(added).toEqual([1, 2]);
    expect(poller.polls).toBeGreaterThanOrEqual(2);
    await poller.stop();
    client.http.close();
  }, 180_000);
});
