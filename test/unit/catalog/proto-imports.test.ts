// A `.proto` version file that imports other files, read from a subject's schema folder: each import
// found from the importing file's folder, then the subject's folder, then the config's shared folders.
import { resolve } from "node:path";

import { describe, expect, it } from "vitest";

import { loadCatalog } from "../../../src/catalog/load.js";
import { parseConfig } from "../../../src/config/load.js";
import { primaryOf, type ProtoSchema } from "../../../src/formats/protobuf/parse.js";
import { writeTree } from "../../helpers/files.js";

const MONEY = 'syntax = "proto3";\npackage shop;\nmessage Money { int64 units = 1; string currency = 2; }\n';
const payment = (imports: string[], fields: string) =>
  `syntax = "proto3";\npackage shop;\n${imports.map((i) => `import "${i}";\n`).join("")}message Payment { ${fields} }\n`;

async function catalogOf(files: Record<string, string>, shared = "") {
  const dir = await writeTree(files);
  const config = parseConfig(
    `${shared ? `shared: [${shared}]\n` : ""}subjects:
  - name: pay
    topics: [payments]
    schemas: ./pay
`,
    resolve(dir, "config.yaml"),
  );
  const load = () => loadCatalog(config);
  /** The message start-up stops with, whole. */
  const refusal = () =>
    load().then(
      () => "loaded",
      (error: Error) => error.message,
    );
  return { dir, load, refusal };
}

/** Each version's first message's fields, with the full name of each message field's type. */
function fieldsOf(catalog: Awaited<ReturnType<typeof loadCatalog>>): Record<string, string[]> {
  const subject = catalog.subjects.get("pay")!;
  return Object.fromEntries(
    subject.versions.map((v) => [
      v.version.text,
      [...primaryOf(v.schema as ProtoSchema).fields.values()].map(
        (f) => `${f.name}${f.message ? `:${f.message.fullName}` : ""}`,
      ),
    ]),
  );
}

describe("a .proto version that imports files", () => {
  it("finds an import under its own folder, a sibling it imports (not a version itself), and google/protobuf without a file", async () => {
    const { load } = await catalogOf({
      "pay/common/money.proto": MONEY,
      "pay/units.proto": 'syntax = "proto3";\npackage shop;\nenum Unit { UNIT_NONE = 0; CENTS = 1; }\n',
      "pay/1.0.0.proto": payment(["common/money.proto"], "string id = 1; Money amount = 2;"),
      "pay/2.0.0.proto": payment(
        ["common/money.proto", "units.proto", "google/protobuf/timestamp.proto"],
        "string id = 1; Money amount = 2; Unit unit = 3; google.protobuf.Timestamp at = 4;",
      ),
    });
    const catalog = await load();
    expect(fieldsOf(catalog)).toEqual({
      "1.0.0": ["id", "amount:shop.Money"],
      "2.0.0": ["id", "amount:shop.Money", "unit", "at:google.protobuf.Timestamp"],
    });
  });

  it("keeps a file named as a version a version, though another version imports it", async () => {
    const { load } = await catalogOf({
      "pay/1.0.0.proto": 'syntax = "proto3";\npackage shop.v1;\nmessage Payment { string id = 1; }\n',
      "pay/2.0.0.proto":
        'syntax = "proto3";\npackage shop.v2;\nimport "1.0.0.proto";\nmessage Payment { string id = 1; shop.v1.Payment legacy = 2; }\n',
    });
    expect(fieldsOf(await load())).toEqual({
      "1.0.0": ["id"],
      "2.0.0": ["id", "legacy:shop.v1.Payment"],
    });
  });

  it("finds an import under the subject's folder from a file in a subfolder, and under a shared folder", async () => {
    const { load } = await catalogOf(
      {
        "protos/shop/money.proto": MONEY,
        "pay/common/line.proto":
          'syntax = "proto3";\npackage shop;\nimport "shop/money.proto";\nmessage Line { Money price = 1; }\n',
        "pay/1.0.0.proto": payment(["common/line.proto"], "repeated Line lines = 1;"),
      },
      "./protos",
    );
    const catalog = await load();
    expect(fieldsOf(catalog)).toEqual({ "1.0.0": ["lines:shop.Line"] });
    const line = primaryOf(catalog.subjects.get("pay")!.versions[0]!.schema as ProtoSchema).fields.get(1)!;
    expect(line.message!.fields.get(1)!.message!.fullName).toBe("shop.Money");
  });

  it("stops start-up on an import no folder holds, naming the importing file, the import and the folders", async () => {
    const { dir, refusal } = await catalogOf({
      "pay/1.0.0.proto": payment(["common/money.proto"], "string id = 1; Money amount = 2;"),
    });
    expect(await refusal()).toBe(
      `${dir}/pay/1.0.0.proto: imports "common/money.proto", which is in none of the folders it is looked for in: ${dir}/pay`,
    );
    // An imported file's own missing import names that file.
    const nested = await catalogOf({
      "pay/common/money.proto":
        'syntax = "proto3";\npackage shop;\nimport "units.proto";\nmessage Money { Unit unit = 1; }\n',
      "pay/1.0.0.proto": payment(["common/money.proto"], "Money amount = 1;"),
    });
    expect(await nested.refusal()).toBe(
      `${nested.dir}/pay/common/money.proto: imports "units.proto", which is in none of the folders it is looked for in: ${nested.dir}/pay/common, ${nested.dir}/pay`,
    );
  });

  it("refuses files that import each other, naming the chain", async () => {
    const { dir, refusal } = await catalogOf({
      "pay/common/a.proto":
        'syntax = "proto3";\npackage shop;\nimport "common/b.proto";\nmessage A { int32 x = 1; }\n',
      "pay/common/b.proto":
        'syntax = "proto3";\npackage shop;\nimport "common/a.proto";\nmessage B { int32 y = 1; }\n',
      "pay/1.0.0.proto": payment(["common/a.proto"], "A a = 1;"),
    });
    expect(await refusal()).toBe(
      `${dir}/pay/common/b.proto: imports "common/a.proto", which is ${dir}/pay/common/a.proto, already on its import chain (${dir}/pay/1.0.0.proto → ${dir}/pay/common/a.proto → ${dir}/pay/common/b.proto → ${dir}/pay/common/a.proto): imports must not form a cycle`,
    );
  });

  it("stops start-up on a version whose own file declares only enums, naming it; the same file imported is read", async () => {
    const STATUS = 'syntax = "proto3";\npackage shop;\nenum Status { UNKNOWN = 0; ON = 1; OFF = 2; }\n';
    const { dir, refusal } = await catalogOf({
      "pay/1.0.0.proto": payment([], "string id = 1;"),
      "pay/2.0.0.proto": STATUS,
    });
    expect(await refusal()).toBe(
      `${dir}/pay/2.0.0.proto: declares no message, and a subject's schema needs one to decode its records as: a .proto file of enums only can only be imported by another`,
    );
    // Imported from the subject's folder and from a shared folder, it is part of the versions.
    const shared = await catalogOf(
      {
        "protos/shop/status.proto": STATUS,
        "pay/status.proto": STATUS,
        "pay/1.0.0.proto": payment(["status.proto"], "string id = 1; Status status = 2;"),
        "pay/2.0.0.proto": payment(["shop/status.proto"], "string id = 1; Status status = 2;"),
      },
      "./protos",
    );
    const catalog = await shared.load();
    expect(fieldsOf(catalog)).toEqual({ "1.0.0": ["id", "status"], "2.0.0": ["id", "status"] });
    const status = primaryOf(catalog.subjects.get("pay")!.versions[1]!.schema as ProtoSchema).fields.get(2)!;
    expect([status.kind, [...status.enumValues!.values()]]).toEqual(["enum", ["UNKNOWN", "ON", "OFF"]]);
  });
});
