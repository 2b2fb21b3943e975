// One poll reads many registry subjects at once (a bounded number), applies them in the config's
// order, and starts no further subject once the registry is known not to answer.
import pino from "pino";
import { describe, expect, it } from "vitest";
import { RegistryError } from "../../../src/registry/http.js";
import { RegistryPoller } from "../../../src/registry/poller.js";
import type { SnapshotReader } from "../../../src/registry/snapshot.js";
import type { SubjectSnapshot } from "../../../src/registry/types.js";

/** A reader whose answers take a few milliseconds, in reverse order of asking; `fail` throws. */
function slowReader(fail?: (subject: string) => Error | undefined) {
  const stats = { inFlight: 0, most: 0, read: [] as string[] };
  let asked = 0;
  const reader = {
    registry: "main",
    async read(subject: string): Promise<SubjectSnapshot> {
      stats.read.push(subject);
      stats.inFlight++;
      stats.most = Math.max(stats.most, stats.inFlight);
      await new Promise((resolve) => setTimeout(resolve, 20 - (asked++ % 8) * 2));
      stats.inFlight--;
      const error = fail?.(subject);
      if (error) throw error;
      const compatibility = { level: "BACKWARD", source: "subject" } as const;
      return { registry: "main", subject, versions: [], skipped: [], compatibility, fetchedAt: 0 };
    },
  } as unknown as SnapshotReader;
  return { reader, stats };
}

const subjects = Array.from({ length: 30 }, (_, i) => `s${String(i).padStart(2, "0")}`);

describe("a registry poll of many subjects", () => {
  it("reads eight subjects at a time and applies them in the config's order", async () => {
    const { reader, stats } = slowReader();
    const applied: string[] = [];
    const poller = new RegistryPoller({
      reader,
      subjects,
      interval: 60_000,
      logger: pino({ level: "silent" }),
      onChange: (snapshot) => applied.push(snapshot.subject),
    });
    expect(await poller.poll()).toBe(true);
    expect(stats.most).toBe(8);
    expect(applied).toEqual(subjects);
    expect(subjects.every((s) => poller.snapshot(s)?.subject === s)).toBe(true);
  });

  it("starts no further subject once the registry does not answer, and keeps what it read", async () => {
    const { reader, stats } = slowReader((subject) =>
      subject === "s03" ? new RegistryError("REGISTRY_UNAVAILABLE", "connection refused", {}) : undefined,
    );
    const poller = new RegistryPoller({
      reader,
      subjects,
      interval: 60_000,
      logger: pino({ level: "silent" }),
    });
    expect(await poller.poll()).toBe(false);
    expect(poller.lastError?.message).toBe("connection refused");
    // s03 fails among the first eight; at most the eight after it were started meanwhile.
    expect(stats.read.length).toBeLessThanOrEqual(12);
    expect(stats.read.length).toBeLessThan(subjects.length);
    expect(poller.snapshot("s00")?.subject).toBe("s00");
    expect(poller.snapshot("s03")).toBeUndefined();
  });
});
