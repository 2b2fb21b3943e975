// Reference cycles cannot be made in a real registry: a version's references must exist when it is
// registered, so nothing registered earlier can point at it. The resolver still guards against them
// (a registry with a bug, or one edited behind its API), and this test feeds it one through a stub
// client, the only way to build a cycle.
import { describe, expect, it } from "vitest";

import type { RegistryClient } from "../../../src/registry/client.js";
import { ReferenceResolver } from "../../../src/registry/references.js";
import type { RegisteredSchema } from "../../../src/registry/types.js";

function stub(schemas: RegisteredSchema[]): { client: RegistryClient; fetched: string[] } {
  const fetched: string[] = [];
  const client = {
    http: { label: "registry 'stub' (http://stub)" },
    version: async (subject: string, version: number) => {
      fetched.push(`${subject}/${version}`);
      const found = schemas.find((s) => s.subject === subject && s.version === version);
      if (!found) throw new Error(`no ${subject}/${version}`);
      return found;
    },
  } as unknown as RegistryClient;
  return { client, fetched };
}

function schema(
  subject: string,
  references: RegisteredSchema["references"],
  schemaType = "JSON",
): RegisteredSchema {
  return {
    subject,
    version: 1,
    id: subject.length,
    schemaType,
    schema: JSON.stringify({ title: subject }),
    references,
  };
}

describe("ReferenceResolver", () => {
  it("detects a cycle and names it", async () => {
    const a = schema("a", [{ name: "b.json", subject: "b", version: 1 }]);
    const b = schema("b", [{ name: "c.json", subject: "c", version: 1 }]);
    const c = schema("c", [{ name: "a.json", subject: "a", version: 1 }]);
    const { client } = stub([a, b, c]);
    await expect(new ReferenceResolver(client).resolve(a)).rejects.toMatchObject({
      code: "REGISTRY_INVALID",
      message:
        "registry 'stub' (http://stub): a version 1 (id 1): its references form a cycle: a/1 → b/1 → c/1 → a/1",
    });
  });

  it("walks a diamond once and emits the shared schema once", async () => {
    const shared = schema("shared", []);
    const left = schema("left", [{ name: "shared.json", subject: "shared", version: 1 }]);
    const right = schema("right", [{ name: "shared.json", subject: "shared", version: 1 }]);
    const root = schema("root", [
      { name: "left.json", subject: "left", version: 1 },
      { name: "right.json", subject: "right", version: 1 },
    ]);
    const { client, fetched } = stub([shared, left, right]);
    const resolved = await new ReferenceResolver(client).resolve(root);
    expect(resolved.map((r) => r.name)).toEqual(["shared.json", "left.json", "right.json"]);
    expect(fetched).toEqual(["left/1", "shared/1", "right/1"]);
  });

  it("refuses a reference to a schema of another type than the version's", async () => {
    const avro = schema("avro", [], "AVRO");
    const root = schema("root", [{ name: "x.avsc", subject: "avro", version: 1 }]);
    await expect(new ReferenceResolver(stub([avro]).client).resolve(root)).rejects.toMatchObject({
      code: "REGISTRY_INVALID",
      message:
        "registry 'stub' (http://stub): root version 1 (id 4): the reference 'x.avsc' (avro/1) is AVRO, where the version is JSON",
    });
  });

  it("resolves an Avro version's references to Avro schemas, saying their type", async () => {
    const address = schema("address", [], "AVRO");
    const root = schema("order", [{ name: "shop.Address", subject: "address", version: 1 }], "AVRO");
    const resolved = await new ReferenceResolver(stub([address]).client).resolve(root);
    expect(resolved).toEqual([
      {
        name: "shop.Address",
        subject: "address",
        version: 1,
        id: 7,
        schema: { title: "address" },
        references: [],
        schemaType: "AVRO",
        text: JSON.stringify({ title: "address" }),
      },
    ]);
  });
});
