#!/usr/bin/env node
// The image's HEALTHCHECK: asks /healthz of the `schemawatch run` in this container where it listens:
// its --host/--port flags, else its config's http.host/http.port, else the defaults. A config with
// another port therefore needs no change to the image. A container that runs another command
// (demo-produce, check) has no monitor to ask and is healthy while it runs.
//
//   node bin/healthcheck.js [--pid N]     (--pid: that process instead of the container's own)
//
// The monitor's config is read through /proc/PID/root or /proc/PID/cwd, so a relative --config
// resolves as the monitor resolved it, in a container or from the host.
/* global AbortSignal */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { parseArgs } from "node:util";

/** The pid and arguments after `run` of the monitor process, or undefined when there is none. */
function findMonitor(onlyPid) {
  const pids = onlyPid ? [onlyPid] : readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  for (const pid of pids) {
    let argv;
    try {
      argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").slice(0, -1);
    } catch {
      continue; // ended meanwhile
    }
    const at = argv.findIndex((arg) => /(^|\/)schemawatch(\.js)?$/.test(arg));
    if (at >= 0 && argv[at + 1] === "run") return { pid, args: argv.slice(at + 2) };
  }
  return undefined;
}

async function main() {
  const { values: own } = parseArgs({ options: { pid: { type: "string" } } });
  const monitor = findMonitor(own.pid);
  if (monitor === undefined) {
    if (own.pid !== undefined) return fail(`process ${own.pid} is not a running 'schemawatch run'`);
    return 0;
  }
  const { values } = parseArgs({
    args: monitor.args,
    options: { config: { type: "string" }, host: { type: "string" }, port: { type: "string" } },
    strict: false,
    allowPositionals: true,
  });
  let http = { host: "127.0.0.1", port: 9464 };
  if (typeof values.config === "string") {
    // Both links lead into the monitor's own file system, also when it runs chrooted (buildah); in
    // its own container, where a hardened profile may deny them, the plain path is the same file.
    const paths = isAbsolute(values.config)
      ? [join(`/proc/${monitor.pid}/root`, values.config), values.config]
      : [join(`/proc/${monitor.pid}/cwd`, values.config)];
    const config = paths.find((path) => existsSync(path)) ?? paths[0];
    // The monitor's own loader: the same defaults and the same validation as when it started.
    const { loadConfig } = await import("../dist/config/load.js");
    http = (await loadConfig(config)).http;
  }
  const port = Number(values.port ?? http.port);
  // Port 0 is a free port picked at start-up, which no file records.
  if (port === 0) return 0;
  let host = typeof values.host === "string" ? values.host : http.host;
  if (host === "0.0.0.0" || host === "::" || host === "") host = "127.0.0.1";
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}/healthz`;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(4_000) });
    return response.ok ? 0 : fail(`${url} answered ${response.status}`);
  } catch (error) {
    return fail(`${url}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function fail(message) {
  process.stderr.write(`schemawatch healthcheck: ${message}\n`);
  return 1;
}

process.exitCode = await main().catch((error) =>
  fail(error instanceof Error ? error.message : String(error)),
);
