import { createLogger } from "../../src/log.js";
import { startMonitor, type RunningMonitor } from "../../src/monitor/start.js";
import type { Report } from "../../src/report/model.js";

/** The monitor replaying `dir`'s capture.ndjson with its config.yaml, once the replay is done. */
export async function replayed(dir: string): Promise<RunningMonitor> {
  const monitor = await startMonitor({
    configPath: `${dir}/config.yaml`,
    source: { file: `${dir}/capture.ndjson` },
    port: 0,
    env: {},
    version: "test",
    logger: createLogger("silent"),
  });
  await monitor.replayed;
  return monitor;
}

/** The report of `dir`'s capture.ndjson replayed with its config.yaml, the monitor stopped. */
export async function replayReport(dir: string): Promise<Report> {
  const monitor = await replayed(dir);
  try {
    return monitor.report();
  } finally {
    await monitor.stop();
  }
}
