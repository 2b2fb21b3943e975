import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer, type Socket } from "node:net";

/** A line of the process's output, and when the test received it. */
export interface OutputLine {
  readonly at: number;
  readonly text: string;
}

/** A `schemawatch` process as an operator runs it: the built CLI, its real output streams and signals. */
export interface CliProcess {
  readonly lines: OutputLine[];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  kill(signal: NodeJS.Signals): void;
  /** The JSON log lines whose `msg` is `msg`. */
  logged(msg: string): Record<string, unknown>[];
}

/** Spawns `node bin/schemawatch.js ARGS` (with `env` added); needs dist/ (`npm run build`). */
export function spawnCli(args: readonly string[], env: Readonly<Record<string, string>> = {}): CliProcess {
  if (!existsSync("dist/cli/main.js")) throw new Error("dist/ is missing: run `npm run build` first");
  const child = spawn(process.execPath, ["bin/schemawatch.js", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  const lines: OutputLine[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    let buffered = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      const parts = (buffered + chunk).split("\n");
      buffered = parts.pop()!;
      const at = Date.now();
      lines.push(...parts.filter((text) => text !== "").map((text) => ({ at, text })));
    });
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  return {
    lines,
    exited,
    kill: (signal) => child.kill(signal),
    logged: (msg) =>
      lines.flatMap(({ text }) => {
        try {
          const line = JSON.parse(text) as Record<string, unknown>;
          return line["msg"] === msg ? [line] : [];
        } catch {
          return [];
        }
      }),
  };
}

/** A loopback port that nothing listens on: connections are refused (a broker that is down). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A loopback listener that accepts connections and never answers: a black-holed broker or registry. */
export interface BlackHole {
  readonly port: number;
  /** Connections accepted so far. */
  readonly accepted: () => number;
  close(): Promise<void>;
}

export async function blackHole(): Promise<BlackHole> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on("error", () => undefined);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as { port: number }).port,
    accepted: () => accepted,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
