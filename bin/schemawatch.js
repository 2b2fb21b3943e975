#!/usr/bin/env node
import { enableCompileCache } from "./compile-cache.js";
import { nodeVersionProblem } from "./require-node.js";

const problem = nodeVersionProblem(process.versions.node);
if (problem) {
  process.stderr.write(problem + "\n");
  process.exitCode = 2;
} else {
  // Before the CLI's modules load: their compiled code comes from the cache when it is there.
  enableCompileCache();
  // Loaded only now: on an older Node.js the CLI's own modules may not even load.
  const { main } = await import("../dist/cli/main.js");
  const code = await main(process.argv.slice(2));
  process.exitCode = code;
  // A finished command ends even when a library left something running (a kafkajs timer or socket
  // after a stop that timed out): SIGTERM must end `run` within shutdown.deadline, which keeps its
  // last second for this.
  setTimeout(() => process.exit(code), 500).unref();
}
