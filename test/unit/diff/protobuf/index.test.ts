import { describe, expect, it } from "vitest";
import { diffProto } from "../../../../src/diff/protobuf/index.js";
import { proto } from "../../../helpers/protobuf.js";

const summary = (
  old: string,
  next: string,
  refs: [Record<string, string>, Record<string, string>] = [{}, {}],
) => {
  const result = diffProto(proto(old, refs[0]), proto(next, refs[1]));
  return {
    compatibility: result.compatibility,
    bump: result.bump,
    changes: result.changes.map((c) => [c.kind, c.path, c.backward, c.forward]),
  };
};

describe("diff for Protobuf pairs", () => {
  it("calls adding and removing an optional field compatible both ways, with what a reader loses", () => {
    const result = diffProto(
      proto('syntax = "proto3"; package p; message M { string a = 1; string b = 2; }'),
      proto('syntax = "proto3"; package p; message M { string a = 1; int32 c = 3; }'),
    );
    expect(result.changes.map((c) => [c.kind, c.path, c.backward, c.forward, c.reason])).toEqual([
      [
        "field-removed",
        "p.M.b(#2)",
        "ok",
        "ok",
        "field b is removed; backward: loses (unknown_field at /b); forward: loses (default_read at /b)",
      ],
      [
        "field-added",
        "p.M.c(#3)",
        "ok",
        "ok",
        "field c is added; backward: loses (default_read at /c); forward: loses (unknown_field at /c)",
      ],
    ]);
    expect([result.compatibility, result.bump]).toEqual(["FULL", "minor"]);
  });

  it("judges a type change by the values each side reads, with the record that proves a break", () => {
    const result = diffProto(
      proto('syntax = "proto3"; message M { sint32 n = 1; int64 w = 2; }'),
      proto('syntax = "proto3"; message M { int32 n = 1; int32 w = 2; }'),
    );
    expect(result.changes.map((c) => [c.kind, c.path, c.backward, c.forward])).toEqual([
      ["field-type-changed", "M.n(#1)", "breaks", "breaks"],
      ["field-type-changed", "M.w(#2)", "breaks", "ok"],
    ]);
    // sint32 -1 is zigzag 1, which int32 reads as 1.
    expect(result.changes[0]!.witness!.backward).toEqual({
      message: "M",
      record: { n: -1 },
      bytes: "0801",
      reads: { outcome: "fails", rule: "type_reinterpreted", location: "/n" },
    });
    // An int64 past 32 bits, truncated by an int32 reader.
    expect(result.changes[1]!.witness!.backward!.record).toEqual({ w: "5000000000" });
    expect(result.changes[1]!.witness!.backward!.reads.rule).toBe("value_changed");
    expect([result.compatibility, result.bump]).toEqual(["NONE", "major"]);
  });

  it("follows Protobuf's compatible groups: int32 to int64, string to bytes, enum to int32", () => {
    expect(
      summary(
        'syntax = "proto3"; message M { int32 a = 1; string s = 2; E e = 3; } enum E { Z = 0; A = 1; }',
        'syntax = "proto3"; message M { int64 a = 1; bytes s = 2; int32 e = 3; } enum E { Z = 0; A = 1; }',
      ),
    ).toEqual({
      // New readers read old records; old readers misread a long int64 and bytes that are not UTF-8.
      compatibility: "BACKWARD",
      bump: "minor",
      changes: [
        ["field-type-changed", "M.a(#1)", "ok", "breaks"],
        ["field-type-changed", "M.s(#2)", "ok", "breaks"],
        ["field-type-changed", "M.e(#3)", "ok", "ok"],
      ],
    });
  });

  it("says which direction a required field and a label change break, and a oneof that joins fields", () => {
    expect(
      summary(
        'syntax = "proto2"; message M { optional string a = 1; required string b = 2; optional int32 n = 3; optional int32 x = 4; optional int32 y = 5; }',
        'syntax = "proto2"; message M { optional string a = 1; repeated int32 n = 3 [packed = true]; oneof o { int32 x = 4; int32 y = 5; } }',
      ),
    ).toEqual({
      compatibility: "NONE",
      bump: "major",
      changes: [
        ["required-field-removed", "M.b(#2)", "ok", "breaks"],
        ["field-label-changed", "M.n(#3)", "ok", "breaks"],
        ["oneof-added", "M.o", "ok", "ok"],
        ["fields-moved-into-oneof", "M.o", "breaks", "ok"],
      ],
    });
  });

  it("compares messages by name within the package, a reference's messages too, and enum values by number", () => {
    expect(
      summary(
        'syntax = "proto3"; package a; import "dep.proto"; message M { d.Home h = 1; E e = 2; } enum E { Z = 0; ONE = 1; TWO = 2; }',
        'syntax = "proto3"; package b; import "dep.proto"; message M { d.Home h = 1; E e = 2; } enum E { Z = 0; UNO = 1; THREE = 3; }',
        [
          { "dep.proto": 'syntax = "proto3"; package d; message Home { int32 id = 1; }' },
          { "dep.proto": 'syntax = "proto3"; package d; message Home { string id = 1; }' },
        ],
      ),
    ).toEqual({
      compatibility: "NONE",
      bump: "major",
      changes: [
        ["package-changed", "b", "ok", "ok"],
        ["field-type-changed", "d.Home.id(#1)", "breaks", "breaks"],
        ["enum-value-renamed", "b.E.UNO(=1)", "ok", "ok"],
        ["enum-value-added", "b.E.THREE(=3)", "ok", "ok"],
        ["enum-value-removed", "a.E.TWO(=2)", "ok", "ok"],
      ],
    });
  });

  it("calls a removed message a break for its records, an added one for an old reader, and nothing changed none", () => {
    expect(
      summary(
        'syntax = "proto3"; message M { int32 a = 1; } message R { int32 b = 1; }',
        'syntax = "proto3"; message M { int32 a = 1; } message S { int32 b = 1; }',
      ),
    ).toEqual({
      compatibility: "NONE",
      bump: "major",
      changes: [
        ["message-removed", "R", "breaks", "ok"],
        ["message-added", "S", "ok", "breaks"],
      ],
    });
    const same = 'syntax = "proto3"; message M { int32 a = 1; }';
    expect(summary(same, same)).toEqual({ compatibility: "FULL", bump: "none", changes: [] });
  });

  describe("a message file against a file of enums only (a shared enum's file)", () => {
    const ORDER =
      'syntax = "proto3"; package shop; enum Status { UNKNOWN = 0; ON = 1; } message Order { Status status = 1; }';
    const STATUS = 'syntax = "proto3"; package shop; enum Status { UNKNOWN = 0; ON = 1; }';
    const judged = (old: string, next: string) => {
      const result = diffProto(proto(old), proto(next));
      return {
        compatibility: result.compatibility,
        bump: result.bump,
        changes: result.changes.map((c) => [c.kind, c.path, c.backward, c.forward, c.reason, c.witness]),
      };
    };
    const unknown = { outcome: "fails", rule: "message_unknown", location: "" };

    it("calls the message removed a break for its records: NEW has no message to read them as", () => {
      expect(judged(ORDER, STATUS)).toEqual({
        compatibility: "FORWARD",
        bump: "major",
        changes: [
          [
            "message-removed",
            "shop.Order",
            "breaks",
            "ok",
            "the message is removed; backward: misreads (message_unknown at the record)",
            { backward: { message: "shop.Order", record: {}, bytes: "", reads: unknown } },
          ],
        ],
      });
    });

    it("calls the message added a break for an old reader, which has no message to read NEW's records as", () => {
      expect(judged(STATUS, ORDER)).toEqual({
        compatibility: "BACKWARD",
        bump: "minor",
        changes: [
          [
            "message-added",
            "shop.Order",
            "ok",
            "breaks",
            "a message is added; forward: misreads (message_unknown at the record)",
            { forward: { message: "shop.Order", record: {}, bytes: "", reads: unknown } },
          ],
        ],
      });
    });
  });

  describe("a file's own enum on one side only (what a file importing it uses)", () => {
    const judged = (old: string, next: string) => {
      const result = diffProto(proto(old), proto(next));
      return {
        compatibility: result.compatibility,
        bump: result.bump,
        changes: result.changes.map((c) => [c.kind, c.path, c.backward, c.forward, c.reason]),
      };
    };
    const shared = (enums: string) => `syntax = "proto3"; package shop; ${enums}`;
    const STATUS = "enum Status { UNKNOWN = 0; ON = 1; }";
    const KIND = "enum Kind { NONE = 0; BIG = 1; }";
    const removed = (local: string, path: string) => [
      "enum-removed",
      path,
      "breaks",
      "ok",
      `enum ${local} is removed: a file that imports OLD and uses ${local} cannot be read with NEW`,
    ];
    const added = (local: string, path: string) => [
      "enum-added",
      path,
      "ok",
      "breaks",
      `enum ${local} is added: a file that uses ${local} cannot be read with OLD, which lacks it`,
    ];

    it("calls an enum removed from a shared file a break for its importers: major, not a schema change", () => {
      expect(judged(shared(`${STATUS} ${KIND}`), shared(KIND))).toEqual({
        compatibility: "FORWARD",
        bump: "major",
        changes: [removed("Status", "shop.Status")],
      });
    });

    it("calls an enum added a break for a file that uses it read with OLD: minor", () => {
      expect(judged(shared(KIND), shared(`${KIND} ${STATUS}`))).toEqual({
        compatibility: "BACKWARD",
        bump: "minor",
        changes: [added("Status", "shop.Status")],
      });
    });

    it("calls an enum renamed a removal and an addition, however alike their values", () => {
      expect(judged(shared(STATUS), shared("enum State { UNKNOWN = 0; ON = 1; }"))).toEqual({
        compatibility: "NONE",
        bump: "major",
        changes: [removed("Status", "shop.Status"), added("State", "shop.State")],
      });
    });

    it("finds an enum nested in a message by its name within the package (Order.Kind); in a file with messages, no record carries it: ok both ways, a minor for the removal", () => {
      expect(
        judged(
          `syntax = "proto3"; package shop; message Order { enum Kind { NONE = 0; BIG = 1; } int32 id = 1; }`,
          `syntax = "proto3"; package shop; message Order { enum Sort { NONE = 0; BIG = 1; } int32 id = 1; }`,
        ),
      ).toEqual({
        compatibility: "FULL",
        bump: "minor",
        changes: [
          [
            "enum-removed",
            "shop.Order.Kind",
            "ok",
            "ok",
            "enum Order.Kind is removed (it drops from the file's API): no record of its messages carries it, but a file that imports this one and uses Order.Kind cannot be read with NEW",
          ],
          [
            "enum-added",
            "shop.Order.Sort",
            "ok",
            "ok",
            "enum Order.Sort is added: no record of the file's messages carries it until a field holds it",
          ],
        ],
      });
    });
  });

  it("says an enum nested in a message removed or added once, with its message", () => {
    const withOrder = `syntax = "proto3"; package shop; message Order { enum Kind { NONE = 0; } Kind kind = 1; } message Item { int32 id = 1; }`;
    const without = `syntax = "proto3"; package shop; message Item { int32 id = 1; }`;
    expect(summary(withOrder, without).changes).toEqual([["message-removed", "shop.Order", "ok", "ok"]]);
    expect(summary(without, withOrder).changes).toEqual([["message-added", "shop.Order", "ok", "ok"]]);
    // Nested deeper: the inner message goes with the outer, and its enum with both.
    const deep = `syntax = "proto3"; package shop; message Order { message Line { enum Unit { NONE = 0; } Unit unit = 1; } Line line = 1; } message Item { int32 id = 1; }`;
    expect(summary(deep, without).changes.map((c) => c.slice(0, 2))).toEqual([
      ["message-removed", "shop.Order"],
      ["message-removed", "shop.Order.Line"],
    ]);
    // A kept message's own nested enum is still said when it goes.
    const kept = `syntax = "proto3"; package shop; message Item { enum Kind { NONE = 0; } int32 id = 1; }`;
    expect(summary(kept, without).changes).toEqual([["enum-removed", "shop.Item.Kind", "ok", "ok"]]);
    const line = (unit: string) =>
      `syntax = "proto3"; package shop; message Order { message Line { ${unit} int32 n = 1; } Line line = 1; }`;
    expect(summary(line("enum Unit { NONE = 0; }"), line("")).changes).toEqual([
      ["enum-removed", "shop.Order.Line.Unit", "ok", "ok"],
    ]);
  });

  describe("an enum value whose name is kept but whose number changes", () => {
    const device = (values: string) =>
      `syntax = "proto3"; package p; enum Status { UNKNOWN = 0; ${values} } message D { Status s = 1; }`;
    const judged = (old: string, next: string, refs?: [Record<string, string>, Record<string, string>]) => {
      const result = diffProto(proto(old, refs?.[0]), proto(next, refs?.[1]));
      return {
        compatibility: result.compatibility,
        bump: result.bump,
        changes: result.changes.map((c) => [c.kind, c.path, c.backward, c.forward, c.reason]),
      };
    };

    it("calls two values that swap numbers a change of meaning both ways: major, not two renames", () => {
      expect(judged(device("ON = 1; OFF = 2;"), device("ON = 2; OFF = 1;"))).toEqual({
        compatibility: "NONE",
        bump: "major",
        changes: [
          [
            "enum-value-renumbered",
            "p.Status.ON(=2)",
            "breaks",
            "breaks",
            "ON moves from 1 to 2, so the meaning changes though every record decodes: a new reader reads OLD's ON (1) as OFF, an old reader reads NEW's ON (2) as OFF",
          ],
          [
            "enum-value-renumbered",
            "p.Status.OFF(=1)",
            "breaks",
            "breaks",
            "OFF moves from 2 to 1, so the meaning changes though every record decodes: a new reader reads OLD's OFF (2) as ON, an old reader reads NEW's OFF (1) as ON",
          ],
        ],
      });
    });

    it("calls a kept name moved to a number no value had major too, said once (not an addition and a removal)", () => {
      expect(judged(device("ON = 1; OFF = 2;"), device("ON = 5; OFF = 2;"))).toEqual({
        compatibility: "NONE",
        bump: "major",
        changes: [
          [
            "enum-value-renumbered",
            "p.Status.ON(=5)",
            "breaks",
            "breaks",
            "ON moves from 1 to 5, so the meaning changes though every record decodes: a new reader reads OLD's ON (1) as a number it has no name for, an old reader reads NEW's ON (5) as a number it has no name for",
          ],
        ],
      });
      // A kept name moved onto a number another name left: OLD's ON (1) now reads as ENABLED.
      expect(judged(device("ON = 1; OFF = 2;"), device("ENABLED = 1; OFF = 2; ON = 3;")).changes).toEqual([
        [
          "enum-value-renumbered",
          "p.Status.ON(=3)",
          "breaks",
          "breaks",
          "ON moves from 1 to 3, so the meaning changes though every record decodes: a new reader reads OLD's ON (1) as ENABLED, an old reader reads NEW's ON (3) as a number it has no name for",
        ],
      ]);
    });

    it("keeps a pure rename (the old name gone, the number kept) a patch", () => {
      expect(judged(device("ON = 1; OFF = 2;"), device("ENABLED = 1; OFF = 2;"))).toEqual({
        compatibility: "FULL",
        bump: "patch",
        changes: [
          [
            "enum-value-renamed",
            "p.Status.ENABLED(=1)",
            "ok",
            "ok",
            "renamed from ON: the number is what the wire carries",
          ],
        ],
      });
    });

    it("says what an added and a removed value cost the reader that lacks it", () => {
      expect(judged(device("ON = 1; OFF = 2;"), device("ON = 1; STANDBY = 3;"))).toEqual({
        compatibility: "FULL",
        bump: "minor",
        changes: [
          [
            "enum-value-added",
            "p.Status.STANDBY(=3)",
            "ok",
            "ok",
            "an old reader gets a number it has no name for (loses its name)",
          ],
          [
            "enum-value-removed",
            "p.Status.OFF(=2)",
            "ok",
            "ok",
            "a new reader gets a number it has no name for (loses its name)",
          ],
        ],
      });
    });

    it("compares a file's own enums that no field holds, by name; one only NEW has is added, not compared", () => {
      const file = (unused: string, extra = "") =>
        `syntax = "proto3"; package p; enum Unused { Z = 0; ${unused} } ${extra} message M { int32 x = 1; }`;
      expect(
        judged(file("A = 1; B = 2;"), file("A = 2; B = 1;", "enum Extra { E0 = 0; E1 = 1; }")).changes.map(
          (c) => c.slice(0, 4),
        ),
      ).toEqual([
        ["enum-value-renumbered", "p.Unused.A(=2)", "breaks", "breaks"],
        ["enum-value-renumbered", "p.Unused.B(=1)", "breaks", "breaks"],
        // A file with a message: no record of it carries Extra until a field holds it.
        ["enum-added", "p.Extra", "ok", "ok"],
      ]);
    });

    it("compares the values of one enum with its own only: a field that now holds another enum is a type change", () => {
      const enums = "enum Color { C0 = 0; RED = 1; } enum Size { S0 = 0; BIG = 2; }";
      expect(
        judged(
          `syntax = "proto3"; package p; ${enums} message M { Color c = 1; }`,
          `syntax = "proto3"; package p; ${enums} message M { Size c = 1; }`,
        ).changes.map((c) => c[0]),
      ).toEqual(["field-type-changed"]);
    });

    it("keeps the aliases of one number as they were, whatever their order: no value changed", () => {
      const aliased = (values: string) =>
        `syntax = "proto3"; package p; enum Mode { option allow_alias = true; M0 = 0; ${values} } message D { Mode m = 1; }`;
      expect(judged(aliased("A = 1; B = 1;"), aliased("B = 1; A = 1;"))).toEqual({
        compatibility: "FULL",
        bump: "patch",
        changes: [
          [
            "schema-changed",
            "p",
            "ok",
            "ok",
            "the files differ, but no message, field or enum value a record carries does (comments, options, layout)",
          ],
        ],
      });
    });

    it("reports an imported enum's change once, however many fields hold it", () => {
      const DEVICE =
        'syntax = "proto3"; package shop; import "shop/status.proto"; message Device { Status status = 1; Status wanted = 2; }';
      const status = (values: string) =>
        `syntax = "proto3"; package shop; enum Status { UNKNOWN = 0; ${values} }`;
      expect(
        judged(DEVICE, DEVICE, [
          { "shop/status.proto": status("ON = 1; OFF = 2;") },
          { "shop/status.proto": status("OFF = 1; ON = 2;") },
        ]).changes.map((c) => c.slice(0, 2)),
      ).toEqual([
        ["enum-value-renumbered", "shop.Status.OFF(=1)"],
        ["enum-value-renumbered", "shop.Status.ON(=2)"],
      ]);
    });

    it("finds the swap in an imported file of enums only, through the field that holds the enum", () => {
      const DEVICE =
        'syntax = "proto3"; package shop; import "shop/status.proto"; message Device { Status status = 1; }';
      const status = (values: string) =>
        `syntax = "proto3"; package shop; enum Status { UNKNOWN = 0; ${values} }`;
      expect(
        judged(DEVICE, DEVICE, [
          { "shop/status.proto": status("ON = 1; OFF = 2;") },
          { "shop/status.proto": status("OFF = 1; ON = 2;") },
        ]).changes.map((c) => c.slice(0, 4)),
      ).toEqual([
        ["enum-value-renumbered", "shop.Status.OFF(=1)", "breaks", "breaks"],
        ["enum-value-renumbered", "shop.Status.ON(=2)", "breaks", "breaks"],
      ]);
    });
  });
});
