// The writer version read from Apicurio's prefixes and headers, byte for byte as its serdes write them:
// the 8-byte id of its 2.x DefaultIdHandler (Legacy8ByteIdHandler in 3.x), the 4-byte contentId of
// 3.x's Default4ByteIdHandler, and the `apicurio.value.globalId`/`contentId` headers of header mode.
import { describe, expect, it } from "vitest";

import { buildSubject } from "../../../src/catalog/load.js";
import type { IdLookups } from "../../../src/catalog/lookups.js";
import type { CatalogSubject } from "../../../src/catalog/types.js";
import type { WireConfig, WriterConfig, WriterSource } from "../../../src/config/types.js";
import type { HeaderValue } from "../../../src/pipeline/record.js";
import { WriterResolver, type WriterResult } from "../../../src/pipeline/writer.js";
import { eventPipeline, record } from "../../helpers/monitor.js";

// 1.0.0: schemaId 101, globalId 7, contentId 5; 1.1.0: schemaId 102, globalId 9, contentId 6.
const NATIVE: Record<string, { globalId: number; contentId: number }> = {
  "1.0.0": { globalId: 7, contentId: 5 },
  "1.1.0": { globalId: 9, contentId: 6 },
};

async function apicurioSubject(): Promise<{ subject: CatalogSubject; writer: WriterConfig }> {
  const { catalog, config } = await eventPipeline();
  const event = catalog.subjects.get("event")!;
  const versions = event.versions.map((v) => ({ ...v, ...NATIVE[v.version.text] }));
  return { subject: buildSubject("event", ["events"], versions), writer: config.subjects[0]!.writer };
}

function resolverWith(
  options: { wire?: WireConfig; sources?: WriterSource[] } = {},
  asked: string[] = [],
): Promise<WriterResolver> {
  const lookups: IdLookups = {
    request: (id) => (asked.push(`schemaId:${id}`), undefined),
    requestGuid: () => undefined,
    requestNative: (kind, id) => (asked.push(`${kind}:${id}`), Promise.resolve()),
  };
  return apicurioSubject().then(
    ({ subject, writer }) =>
      new WriterResolver(
        subject,
        {
          ...writer,
          ...(options.wire ? { wire: options.wire } : {}),
          // Apicurio's headers are read where they are listed, first here; the default order leaves them out.
          sources: options.sources ?? ["apicurio-header", ...writer.sources],
        },
        lookups,
      ),
  );
}

const fresh = (): WriterResult => ({
  version: undefined,
  payloadStart: 0,
  error: undefined,
  lookup: undefined,
  lookups: undefined,
});

/** What the resolver read: `version@payloadStart`, or the error. */
function read(resolver: WriterResolver, value: Buffer, headers: Record<string, HeaderValue> = {}): string {
  const out = fresh();
  resolver.resolve(record(undefined, headers, { raw: value }), out);
  if (out.error !== undefined) return `${out.error}${out.lookup ? " (looked up)" : ""}`;
  return `${out.version?.version.text ?? "none"}@${out.payloadStart}`;
}

const body = Buffer.from('{"id":"a1"}');
const hex = (text: string) => Buffer.from(text.replace(/ /g, ""), "hex");
const long = (n: number) => {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64BE(BigInt(n));
  return bytes;
};

describe("WriterResolver: Apicurio's wire prefix", () => {
  it("reads an 8-byte globalId after the magic byte (Apicurio 2.x's default) and starts the body after 9 bytes", async () => {
    const resolver = await resolverWith({ wire: { idBytes: 8, id: "globalId" } });
    expect(read(resolver, Buffer.concat([hex("00 0000000000000007"), body]))).toBe("1.0.0@9");
    expect(read(resolver, Buffer.concat([hex("00 0000000000000009"), body]))).toBe("1.1.0@9");
    // Schema id 101 is no globalId: the Confluent API's ids are not read in this mode.
    expect(read(resolver, Buffer.concat([hex("00 0000000000000065"), body]))).toBe(
      "unknown_schema_id (looked up)",
    );
  });

  it("reads an 8-byte contentId with use-id contentId", async () => {
    const resolver = await resolverWith({ wire: { idBytes: 8, id: "contentId" } });
    expect(read(resolver, Buffer.concat([hex("00 0000000000000005"), body]))).toBe("1.0.0@9");
    expect(read(resolver, Buffer.concat([hex("00 0000000000000006"), body]))).toBe("1.1.0@9");
  });

  it("reads a 4-byte contentId (Apicurio 3's Default4ByteIdHandler) through the native ids when told to", async () => {
    const resolver = await resolverWith({ wire: { idBytes: 4, id: "contentId" } });
    expect(read(resolver, Buffer.concat([hex("00 00000006"), body]))).toBe("1.1.0@5");
    const globalIds = await resolverWith({ wire: { idBytes: 4, id: "globalId" } });
    expect(read(globalIds, Buffer.concat([hex("00 00000007"), body]))).toBe("1.0.0@5");
  });

  it("keeps Confluent's 4-byte schema id by default", async () => {
    const resolver = await resolverWith();
    expect(read(resolver, Buffer.concat([hex("00 00000066"), body]))).toBe("1.1.0@5");
  });

  it("looks an unknown native id up by its kind, and never one past 2^53", async () => {
    const asked: string[] = [];
    const resolver = await resolverWith({ wire: { idBytes: 8, id: "globalId" } }, asked);
    expect(read(resolver, Buffer.concat([hex("00 0000000000000400"), body]))).toBe(
      "unknown_schema_id (looked up)",
    );
    expect(read(resolver, Buffer.concat([hex("00 ffffffffffffffff"), body]))).toBe("unknown_schema_id");
    expect(read(resolver, Buffer.concat([hex("00 0020000000000000"), body]))).toBe("unknown_schema_id");
    // 2^53 - 1 is still an id, looked up.
    expect(read(resolver, Buffer.concat([hex("00 001fffffffffffff"), body]))).toBe(
      "unknown_schema_id (looked up)",
    );
    expect(asked).toEqual(["globalId:1024", "globalId:9007199254740991"]);
  });

  it("names a prefix shorter than its id truncated_wire_prefix", async () => {
    const resolver = await resolverWith({ wire: { idBytes: 8, id: "globalId" } });
    expect(read(resolver, hex("00"))).toBe("truncated_wire_prefix");
    expect(read(resolver, hex("00 00000000000000"))).toBe("truncated_wire_prefix");
    // Nine bytes are a whole prefix with an empty body.
    expect(read(resolver, hex("00 0000000000000007"))).toBe("1.0.0@9");
    // A Confluent-width prefix is 8 bytes short of 9: truncated too, never read as a 4-byte id.
    expect(read(resolver, hex("00 00000065 7b7d"))).toBe("truncated_wire_prefix");
  });
});

describe("WriterResolver: Apicurio's headers", () => {
  it("reads apicurio.value.globalId (8 bytes, big-endian) and takes the body whole, even when it starts with 0", async () => {
    const resolver = await resolverWith();
    expect(read(resolver, body, { "apicurio.value.globalId": long(9) })).toBe("1.1.0@0");
    // An Avro body whose first byte is 0 (a null branch) is no Confluent prefix under these headers.
    expect(read(resolver, hex("00 02 0a"), { "apicurio.value.globalId": long(7) })).toBe("1.0.0@0");
  });

  it("reads apicurio.value.contentId, and the globalId when a record has both", async () => {
    const resolver = await resolverWith();
    expect(read(resolver, body, { "apicurio.value.contentId": long(5) })).toBe("1.0.0@0");
    expect(
      read(resolver, body, { "apicurio.value.contentId": long(5), "apicurio.value.globalId": long(9) }),
    ).toBe("1.1.0@0");
  });

  it("ignores the key's headers and the artifact coordinates, and counts a value without an id as today", async () => {
    const resolver = await resolverWith();
    const headers = {
      "apicurio.key.globalId": long(7),
      "apicurio.value.groupId": "default",
      "apicurio.value.artifactId": "events-value",
      "apicurio.value.version": "2",
    };
    expect(read(resolver, body, headers)).toBe("none@0");
    expect(read(resolver, body, { ...headers, "schema-version": "1.1" })).toBe("1.1.0@0");
  });

  it("names an id header that is not 8 bytes bad_id_header, and looks an unknown one up", async () => {
    const asked: string[] = [];
    const resolver = await resolverWith({}, asked);
    expect(read(resolver, body, { "apicurio.value.globalId": hex("00000000000009") })).toBe("bad_id_header");
    expect(read(resolver, body, { "apicurio.value.contentId": Buffer.alloc(0) })).toBe("bad_id_header");
    expect(read(resolver, body, { "apicurio.value.globalId": long(77) })).toBe(
      "unknown_schema_id (looked up)",
    );
    expect(read(resolver, body, { "apicurio.value.contentId": long(78) })).toBe(
      "unknown_schema_id (looked up)",
    );
    expect(asked).toEqual(["globalId:77", "contentId:78"]);
  });

  it("leaves the headers alone when apicurio-header is not among the sources, as in the default order", async () => {
    const { writer } = await apicurioSubject();
    expect(writer.sources).toEqual(["wire", "guid-header", "header", "pointer"]);
    const resolver = await resolverWith({ sources: ["wire", "header"] });
    expect(read(resolver, body, { "apicurio.value.globalId": long(9) })).toBe("none@0");
    expect(
      read(resolver, Buffer.concat([hex("00 00000065"), body]), { "apicurio.value.globalId": long(9) }),
    ).toBe("1.0.0@5");
  });
});
