// The monitor's registry follower against a real Apicurio Registry (SCHEMA_REGISTRY_URL): what it
// keeps of versions deleted for good, and how snapshots kept from an earlier run give way.
import { describe, expect, it } from "vitest";

import { parseConfig } from "../../../src/config/load.js";
import { RegistryFollower } from "../../../src/registry/follower.js";
import type { SubjectSnapshot } from "../../../src/registry/types.js";
import { waitFor } from "../../helpers/kafka.js";
import { freshSubject, hardDelete, register, registryUrl, silentLogger } from "../../helpers/registry.js";

const url = registryUrl();

async function follow(subject: string, onPolled?: () => void): Promise<RegistryFollower> {
  const config = parseConfig(
    `registries:\n  main: { url: "${url}", pollInterval: 1s }\nsubjects:\n  - name: order\n    topics: [orders]\n    registry: { name: main, subject: ${subject} }\n`,
    "/tmp/follower.yaml",
  );
  return (await RegistryFollower.connect({
    config,
    env: {},
    logger: silentLogger,
    ...(onPolled ? { onPolled } : {}),
  }))!;
}

const versions = (snapshots: readonly SubjectSnapshot[]) =>
  snapshots.flatMap((s) => s.versions.map((v) => [v.version, v.deleted]));

describe("RegistryFollower", () => {
  it("keeps a version deleted for good as deleted until restart; a kept snapshot gives way to the first read", async () => {
    const subject = freshSubject("follow");
    const schema = (key: string) => ({ title: subject, type: "object", properties: { [key]: {} } });
    await register(url, subject, schema("a"));
    await register(url, subject, schema("b"));
    let polls = 0;
    const first = await follow(subject, () => polls++);
    await first.start();
    expect(versions(first.snapshots())).toEqual([
      [1, false],
      [2, false],
    ]);
    await hardDelete(url, subject, 1);
    // Two polls end after the delete: the second one started after it.
    polls = 0;
    await waitFor(() => polls >= 2, "a poll that sees version 1 gone");
    // Its id still names it: records written with it count as that version, retired.
    expect(versions(first.snapshots())).toEqual([
      [1, true],
      [2, false],
    ]);
    const kept = first.snapshots();
    await first.stop();

    // A restart with the snapshots of the state file: the registry's answer replaces them whole.
    const second = await follow(subject);
    await second.start(kept);
    expect(versions(second.snapshots())).toEqual([[2, false]]);
    expect(second.missing()).toEqual([]);
    await second.stop();
  });
});
