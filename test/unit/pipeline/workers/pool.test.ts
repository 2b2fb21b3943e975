// The pool's watchdog, with real worker threads (the built worker module, as `npm test` builds it):
// a worker that starts no item for longer than its limit is terminated with its job, which fails as a
// timeout (so the batch's deferred commit never waits on it), and it is replaced.
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../../../src/config/load.js";
import { createLogger } from "../../../../src/log.js";
import { SampleJob, ValidationTimeoutError } from "../../../../src/pipeline/workers/job.js";
import { ValidationPool } from "../../../../src/pipeline/workers/pool.js";
import { validationThreadUrl } from "../../../../src/monitor/validation-thread-url.js";
import type { SubjectPipeline } from "../../../../src/pipeline/subject-pipeline.js";
import type { RecordSeries } from "../../../../src/pipeline/tallies.js";
import { eventConfigYaml } from "../../../helpers/monitor.js";

/** A job of one payload; what stays on the consumer's thread is not read by the pool. */
function job(payload: string): SampleJob {
  const out = new SampleJob();
  const none = undefined as unknown;
  out.add(
    Buffer.from(payload),
    0,
    none as SubjectPipeline,
    none as RecordSeries,
    "web",
    undefined,
    "events",
    0,
    0,
    0,
  );
  return out;
}

describe("the validation pool's watchdog", () => {
  it("abandons a job whose item runs past its limit as a timeout, and replaces the worker", async () => {
    const config = parseConfig(eventConfigYaml(), resolve("test/config.yaml"));
    const pool = new ValidationPool(1, createLogger("silent"), validationThreadUrl(), { stuckAfterMs: 40 });
    await pool.start(config, false, []);
    try {
      // Parsing this one payload alone (a million small objects) takes far longer than 40 ms, and the
      // event catalog's readers validate in linear time: no vm inside the worker, only the watchdog.
      const huge = `{"id":1,"event":"view","x":[${'{"a":1},'.repeat(1_000_000)}{"a":1}]}`;
      await expect(pool.validate(job(huge))).rejects.toBeInstanceOf(ValidationTimeoutError);
      // The replacement takes the next job once it has loaded the catalog.
      const result = await pool.validate(job(JSON.stringify({ id: 2, event: "view" })));
      expect([...result.status]).toEqual([0]);
      // 1.0.0 and 1.1.0 accept it; the 2.0.0 candidate does not.
      expect([...result.passed]).toEqual([1, 1, 0]);
    } finally {
      await pool.stop();
    }
  });
});
