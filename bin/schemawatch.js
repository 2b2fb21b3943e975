#!/usr/bin/env node
import { nodeVersionProblem } from "./require-node.js";

const problem = nodeVersionProblem(process.versions.node);
if (problem) {
  process.stderr.write(problem + "\n");
  process.exitCode = 2;
} else {
  // Loaded only now: on an older Node.js the CLI's own modules may not even load.
  const { main } = await import("../dist/cli/main.js");
  process.exitCode = await main(process.argv.slice(2));
}
