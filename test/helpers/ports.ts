import { createServer } from "node:net";

/**
 * A TCP port on 127.0.0.1 that was free a moment ago (the kernel's pick for port 0), for a server a
 * test starts in another process. Never a port written in: two runs on one machine must not collide.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done, fail) => server.once("error", fail).listen(0, "127.0.0.1", done));
  const address = server.address();
  await new Promise<void>((done) => server.close(() => done()));
  if (address === null || typeof address === "string") throw new Error("no port from the kernel");
  return address.port;
}
