// Snapshots of registry subjects against a real Apicurio Registry (SCHEMA_REGISTRY_URL): every
// version with its references resolved, soft-deleted versions, Apicurio's own states, the
// compatibility level, and versions the catalog cannot use. Request counts come from a counting
// proxy in front of the registry, because Apicurio exposes no per-path request count of its own.
import { afterEach, describe, expect, it } from "vitest";

import { SnapshotReader } from "../../../src/registry/snapshot.js";
import {
  freshSubject,
  register,
  registryUrl,
  setCompatibility,
  setState,
  softDelete,
  startProxy,
  testClient,
  type TestProxy,
} from "../../helpers/registry.js";

const url = registryUrl();
let proxy: TestProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

/** A JSON schema Apicurio recognises (it needs `properties` or `$schema`), unique per subject. */
function schema(subject: string, properties: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { title: subject, type: "object", properties, ...extra };
}

describe("SnapshotReader against Apicurio", () => {
  it("reads every version with its references resolved recursively, each fetched once", async () => {
    const street = freshSubject("street");
    const address = freshSubject("address");
    const event = freshSubject("event");
    const streetSchema = schema(street, { name: { type: "string" } });
    const streetId = await register(url, street, streetSchema);
    const addressSchema = schema(address, { street: { $ref: "street.json" } });
    const streetRef = { name: "street.json", subject: street, version: 1 };
    const addressId = await register(url, address, addressSchema, [streetRef]);
    const addressRef = { name: "address.json", subject: address, version: 1 };
    const v1 = schema(event, { home: { $ref: "address.json" } });
    const v2 = schema(event, { home: { $ref: "address.json" }, work: { $ref: "address.json" } });
    const id1 = await register(url, event, v1, [addressRef]);
    const id2 = await register(url, event, v2, [addressRef]);

    proxy = await startProxy(url);
    const client = testClient(proxy.url);
    const reader = new SnapshotReader("main", client, () => 1_000);
    const snapshot = await reader.read(event);

    const references = [
      {
        name: "street.json",
        subject: street,
        version: 1,
        id: streetId,
        schema: streetSchema,
        references: [],
      },
      {
        name: "address.json",
        subject: address,
        version: 1,
        id: addressId,
        schema: addressSchema,
        references: [streetRef],
      },
    ];
    // Apicurio's own ids of each version come with its states, from the native API.
    const nativeIds = async (version: number) => {
      const base = url.replace(/\/apis\/ccompat\/v\d+$/, "/apis/registry/v3");
      const body = (await (
        await fetch(`${base}/groups/default/artifacts/${event}/versions/${version}`)
      ).json()) as {
        globalId: number;
        contentId: number;
      };
      return { globalId: body.globalId, contentId: body.contentId };
    };
    const [ids1, ids2] = [await nativeIds(1), await nativeIds(2)];
    expect([ids1.contentId, ids2.contentId]).toEqual([id1, id2]);
    expect(snapshot).toEqual({
      registry: "main",
      subject: event,
      versions: [
        {
          subject: event,
          version: 1,
          id: id1,
          ...ids1,
          schema: v1,
          references,
          referenceEntries: [addressRef],
          state: "ENABLED",
          deleted: false,
        },
        {
          subject: event,
          version: 2,
          id: id2,
          ...ids2,
          schema: v2,
          references,
          referenceEntries: [addressRef],
          state: "ENABLED",
          deleted: false,
        },
      ],
      skipped: [],
      compatibility: { level: "NONE", source: "subject" },
      fetchedAt: 1_000,
    });
    // Two versions reference address/1, which references street/1: each is fetched once.
    expect(proxy.count(`/subjects/${address}/versions/1`)).toBe(1);
    expect(proxy.count(`/subjects/${street}/versions/1`)).toBe(1);
    expect(proxy.requests.length).toBe(9);

    // Registered versions never change: a second read costs the two version lists, Apicurio's
    // states and the compatibility level, nothing per version.
    const before = proxy.requests.length;
    await reader.read(event);
    const again = proxy.requests.slice(before).map((r) => r.replace(event, "S"));
    // The states and the compatibility level are asked in parallel: compare without order.
    expect(again.sort()).toEqual([
      "GET /apis/ccompat/v7/config/S",
      "GET /apis/ccompat/v7/subjects/S/versions",
      "GET /apis/ccompat/v7/subjects/S/versions?deleted=true",
      "GET /apis/registry/v3/groups/default/artifacts/S/versions?offset=0&limit=500",
    ]);
    client.http.close();
  });

  it("marks soft-deleted versions, carries Apicurio's states, and follows the compatibility level", async () => {
    const subject = freshSubject("states");
    await register(url, subject, schema(subject, { a: {} }));
    await register(url, subject, schema(subject, { b: {} }));
    await register(url, subject, schema(subject, { c: {} }));
    await softDelete(url, subject, 1);
    await setState(url, subject, 2, "DEPRECATED");
    await setCompatibility(url, subject, "FORWARD");

    const client = testClient(url);
    const snapshot = await new SnapshotReader("main", client).read(subject);
    // Apicurio turns a version deleted through the Confluent API into DISABLED.
    expect(snapshot.versions.map((v) => [v.version, v.state, v.deleted])).toEqual([
      [1, "DISABLED", true],
      [2, "DEPRECATED", false],
      [3, "ENABLED", false],
    ]);
    expect(snapshot.compatibility).toEqual({ level: "FORWARD", source: "subject" });
    client.http.close();
  });

  it("reports a version whose references clash, and keeps the rest", async () => {
    const subject = freshSubject("mixed");
    const a = freshSubject("a");
    const b = freshSubject("b");
    const idJson = await register(url, subject, schema(subject, { ok: {} }));
    // b/1 names a/1 "common.json"; a version that also names b/1 "common.json" makes one name mean
    // two schemas, which no $ref can resolve.
    await register(url, a, schema(a, { x: {} }));
    await register(url, b, schema(b, { y: { $ref: "common.json" } }), [
      { name: "common.json", subject: a, version: 1 },
    ]);
    const idClash = await register(url, subject, schema(subject, { z: { $ref: "common.json" } }), [
      { name: "common.json", subject: b, version: 1 },
    ]);

    const client = testClient(url);
    const snapshot = await new SnapshotReader("main", client).read(subject);
    expect(snapshot.versions.map((v) => [v.version, v.id])).toEqual([[1, idJson]]);
    expect(snapshot.skipped).toEqual([
      {
        subject,
        version: 2,
        id: idClash,
        reason: "reference_failed",
        message: `registry 'test' (${url}): ${subject} version 2 (id ${idClash}): the reference name 'common.json' means both ${b}/1 and ${a}/1`,
      },
    ]);
    client.http.close();
  });

  it("reads an Avro and a Protobuf version, each with its type and its registered text", async () => {
    // Apicurio fixes a subject's type with its first version, so each type gets a subject of its own.
    const subject = freshSubject("avro");
    const avro = { type: "record", name: "R", doc: subject, fields: [] };
    const id = await register(url, subject, JSON.stringify(avro), [], "AVRO");
    const proto = freshSubject("proto");
    const protoText = 'syntax = "proto3";\nmessage M { string a = 1; }\n';
    const protoId = await register(url, proto, protoText, [], "PROTOBUF");
    const client = testClient(url);
    const snapshot = await new SnapshotReader("main", client).read(subject);
    expect(snapshot.versions).toMatchObject([{ subject, version: 1, id, schema: avro, schemaType: "AVRO" }]);
    expect(snapshot.skipped).toEqual([]);
    // Protobuf is read too (it was left out as "not_json_schema" before the format seam).
    const read = await new SnapshotReader("main", client).read(proto);
    expect(read.skipped).toEqual([]);
    expect(read.versions.map((v) => ({ version: v.version, id: v.id, schemaType: v.schemaType }))).toEqual([
      { version: 1, id: protoId, schemaType: "PROTOBUF" },
    ]);
    client.http.close();
  });

  it("reads a subject the registry does not know as one without versions", async () => {
    const client = testClient(url);
    const subject = freshSubject("absent");
    const snapshot = await new SnapshotReader("main", client, () => 5).read(subject);
    expect(snapshot).toEqual({
      registry: "main",
      subject,
      versions: [],
      skipped: [],
      compatibility: { level: "NONE", source: "global" },
      fetchedAt: 5,
    });
    client.http.close();
  });
});
