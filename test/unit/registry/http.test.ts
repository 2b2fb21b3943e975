// Unit tests of the registry HTTP layer's timeouts and retries. The servers here are local stand-ins
// that hang, fail once or answer garbage on purpose: a real registry cannot be made to do that on
// demand. Everything else about requests is tested against a real registry in the other files here.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

import { afterEach, describe, expect, it } from "vitest";

import { RegistryHttp } from "../../../src/registry/http.js";

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

async function serve(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/apis/ccompat/v7`;
}

function http(url: string, retries: number, timeout = 1_000): RegistryHttp {
  return new RegistryHttp({
    name: "stub",
    url,
    timeout,
    retries,
    backoff: 1,
    credentials: { authorization: undefined, tls: undefined, secrets: [] },
  });
}

describe("RegistryHttp", () => {
  it("gives up on a registry that accepts and never answers, after its retries", async () => {
    const url = await serve(() => undefined);
    const client = http(url, 1, 200);
    await expect(client.get("/subjects")).rejects.toMatchObject({
      code: "REGISTRY_UNAVAILABLE",
      message: `registry 'stub' (${url}): GET /subjects: no answer within 200ms (2 attempts); is the registry up and the url right?`,
    });
    expect(client.requests).toBe(2);
    client.close();
  });

  it("retries a 503 and takes the answer that follows", async () => {
    let calls = 0;
    const url = await serve((request, response) => {
      calls++;
      if (calls === 1) response.writeHead(503).end();
      else response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify([request.url]));
    });
    const client = http(url, 2);
    expect(await client.get("/subjects?deleted=true")).toEqual(["/apis/ccompat/v7/subjects?deleted=true"]);
    expect(client.requests).toBe(2);
    client.close();
  });

  it("does not retry what a retry cannot fix, and names a body that is not JSON", async () => {
    const url = await serve((request, response) => {
      if (request.url!.endsWith("/bad"))
        response.writeHead(422).end(JSON.stringify({ error_code: 42201, message: "Invalid schema" }));
      else response.writeHead(200).end("<html>proxy login</html>");
    });
    const client = http(url, 3);
    await expect(client.post("/bad", {})).rejects.toMatchObject({
      code: "REGISTRY_REJECTED",
      status: 422,
      errorCode: 42201,
      message: `registry 'stub' (${url}): POST /bad: HTTP 422: Invalid schema`,
    });
    expect(client.requests).toBe(1);
    await expect(client.get("/subjects")).rejects.toMatchObject({
      code: "REGISTRY_INVALID",
      message: `registry 'stub' (${url}): GET /subjects: the answer is not JSON`,
    });
    expect(client.requests).toBe(2);
    client.close();
  });
});
