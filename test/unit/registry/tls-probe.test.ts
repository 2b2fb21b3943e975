// The registry client over TLS with a client certificate, for the kept-alive requests and for the
// probe of a route a registry may lack, which goes on a connection of its own (see RegistryHttp.probe).
// The server is a local stand-in: no registry here serves TLS. The certificate is made for the test
// with openssl (Debian's, on every machine this runs on), one self-signed certificate serving as the
// CA, the server's and the client's.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TLSSocket } from "node:tls";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { RegistryHttp } from "../../../src/registry/http.js";

let dir: string;
let pem: { key: Buffer; cert: Buffer };
let server: Server;
let url: string;
const seen: { path: string; connection: string; port: number; authorized: boolean }[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "schemawatch-tls-"));
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-keyout",
      join(dir, "key.pem"),
      "-out",
      join(dir, "cert.pem"),
    ],
    { stdio: "ignore" },
  );
  pem = { key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "cert.pem")) };
  server = createServer(
    { ...pem, ca: pem.cert, requestCert: true, rejectUnauthorized: true },
    (request, response) => {
      const socket = request.socket as TLSSocket;
      seen.push({
        path: request.url ?? "",
        connection: request.headers.connection ?? "",
        port: socket.remotePort ?? 0,
        authorized: socket.authorized,
      });
      if (request.url?.includes("/schemas/guids/")) response.writeHead(404, { "content-length": "0" }).end();
      else response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(["a"]));
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/apis/ccompat/v7`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

function client(tls: boolean): RegistryHttp {
  return new RegistryHttp({
    name: "tls",
    url,
    timeout: 10_000,
    retries: 0,
    credentials: {
      authorization: undefined,
      tls: tls ? { ca: pem.cert, cert: pem.cert, key: pem.key, rejectUnauthorized: true } : undefined,
      secrets: [],
    },
  });
}

describe("RegistryHttp over TLS", () => {
  it("keeps requests on one connection and sends a probe on its own, each with the CA and the client certificate", async () => {
    seen.length = 0;
    const http = client(true);
    expect(await http.get("/subjects")).toEqual(["a"]);
    expect(await http.get("/subjects")).toEqual(["a"]);
    await expect(http.probe("/schemas/guids/x")).rejects.toMatchObject({ status: 404, errorCode: undefined });
    http.close();
    expect(seen.map(({ path, connection, authorized }) => ({ path, connection, authorized }))).toEqual([
      { path: "/apis/ccompat/v7/subjects", connection: "keep-alive", authorized: true },
      { path: "/apis/ccompat/v7/subjects", connection: "keep-alive", authorized: true },
      { path: "/apis/ccompat/v7/schemas/guids/x", connection: "close", authorized: true },
    ]);
    expect(seen[1]!.port).toBe(seen[0]!.port);
    expect(seen[2]!.port).not.toBe(seen[0]!.port);
  });

  it("refuses a server it cannot verify on the probe too: the TLS options are the whole trust", async () => {
    seen.length = 0;
    const http = client(false);
    await expect(http.probe("/schemas/guids/x")).rejects.toMatchObject({ code: "REGISTRY_UNAVAILABLE" });
    http.close();
    expect(seen).toEqual([]);
  });
});
