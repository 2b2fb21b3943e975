#!/usr/bin/env node
import { main } from "../dist/cli/main.js";

const code = await main(process.argv.slice(2));
process.exitCode = code;
// A finished command ends even when a library left something running (a kafkajs timer or socket
// after a stop that timed out): SIGTERM must end `run` within its grace period, broker up or down.
setTimeout(() => process.exit(code), 2_000).unref();
