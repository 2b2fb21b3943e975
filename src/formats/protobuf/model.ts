import protobuf from "protobufjs";
import { I32, I64, LEN, SGROUP, VARINT } from "./wire.js";

/**
 * A message as the readers here need it, built once per version from protobufjs's reflection: its
 * fields by number, each with the wire type it is written with. A map field is a repeated message
 * field of a synthesized entry (key 1, value 2), as it is on the wire.
 */
export interface Msg {
  readonly name: string;
  readonly fullName: string;
  readonly fields: ReadonlyMap<number, FieldInfo>;
  /** A map field's synthesized entry: its key and value are named by the map's own path. */
  readonly mapEntry?: true;
}

export interface FieldInfo {
  /** The name the version gives the field, as written. */
  readonly name: string;
  readonly number: number;
  /** A scalar's type name, `enum`, or `message`. */
  readonly kind: string;
  /** The wire type one value is written with. */
  readonly wire: number;
  readonly repeated: boolean;
  readonly map: boolean;
  /** Numbers, bools and enums in a repeated field, which may come packed. */
  readonly packable: boolean;
  /** A proto2 `required` field. */
  readonly required: boolean;
  readonly deprecated: boolean;
  /** The oneof the field belongs to, or null. */
  readonly oneof: string | null;
  /** An explicit `[default = …]` (proto2), or undefined. */
  readonly explicitDefault: unknown;
  /** The message type, for `message` fields (a map's entry). */
  readonly message: Msg | undefined;
  /** An enum's values by number, for `enum` fields. */
  readonly enumValues: ReadonlyMap<number, string> | undefined;
  /** A closed enum (proto2): a value it does not know goes to the unknown fields. */
  readonly closedEnum: boolean;
}

const SCALAR_WIRE: Readonly<Record<string, number>> = {
  int32: VARINT,
  int64: VARINT,
  uint32: VARINT,
  uint64: VARINT,
  sint32: VARINT,
  sint64: VARINT,
  bool: VARINT,
  enum: VARINT,
  fixed64: I64,
  sfixed64: I64,
  double: I64,
  fixed32: I32,
  sfixed32: I32,
  float: I32,
  string: LEN,
  bytes: LEN,
  message: LEN,
};

/** The scalar types a JSON view writes as decimal strings, as Protobuf's JSON mapping does. */
export const LONG: ReadonlySet<string> = new Set(["int64", "uint64", "sint64", "fixed64", "sfixed64"]);

/** A version's messages modelled once: recursive types end on the memo. */
export class Models {
  readonly #memo = new Map<protobuf.Type, Msg>();

  of(type: protobuf.Type): Msg {
    const known = this.#memo.get(type);
    if (known !== undefined) return known;
    const fields = new Map<number, FieldInfo>();
    const msg: Msg = { name: type.name, fullName: type.fullName.replace(/^\./, ""), fields };
    this.#memo.set(type, msg);
    for (const field of type.fieldsArray) fields.set(field.id, this.#field(field));
    return msg;
  }

  #field(field: protobuf.Field): FieldInfo {
    const resolved = field.resolvedType;
    const kind =
      resolved instanceof protobuf.Enum ? "enum" : resolved instanceof protobuf.Type ? "message" : field.type;
    const options = field.options ?? {};
    const base = {
      name: field.name,
      number: field.id,
      required: field.required,
      deprecated: options["deprecated"] === true,
      oneof: field.partOf?.name ?? null,
      explicitDefault: options["default"],
    };
    if (field.map) {
      const key = scalarField("key", 1, (field as unknown as protobuf.MapField).keyType);
      const value: FieldInfo = {
        ...scalarField("value", 2, kind),
        message: resolved instanceof protobuf.Type ? this.of(resolved) : undefined,
        enumValues: resolved instanceof protobuf.Enum ? enumValues(resolved) : undefined,
        closedEnum: resolved instanceof protobuf.Enum && isClosed(resolved),
      };
      const entry: Msg = {
        name: `${field.name}Entry`,
        fullName: `${field.fullName.replace(/^\./, "")}Entry`,
        mapEntry: true,
        fields: new Map([
          [1, key],
          [2, value],
        ]),
      };
      return {
        ...base,
        kind: "message",
        wire: LEN,
        repeated: true,
        map: true,
        packable: false,
        message: entry,
        enumValues: undefined,
        closedEnum: false,
      };
    }
    const wire = kind === "message" && field.delimited ? SGROUP : (SCALAR_WIRE[kind] ?? LEN);
    return {
      ...base,
      kind,
      wire,
      repeated: field.repeated,
      map: false,
      packable: field.repeated && wire !== LEN && wire !== SGROUP,
      message: resolved instanceof protobuf.Type ? this.of(resolved) : undefined,
      enumValues: resolved instanceof protobuf.Enum ? enumValues(resolved) : undefined,
      closedEnum: resolved instanceof protobuf.Enum && isClosed(resolved),
    };
  }
}

function scalarField(name: string, number: number, type: string): FieldInfo {
  return {
    name,
    number,
    kind: type,
    wire: SCALAR_WIRE[type] ?? LEN,
    repeated: false,
    map: false,
    packable: false,
    required: false,
    deprecated: false,
    oneof: null,
    explicitDefault: undefined,
    message: undefined,
    enumValues: undefined,
    closedEnum: false,
  };
}

function enumValues(type: protobuf.Enum): Map<number, string> {
  const out = new Map<number, string>();
  for (const [name, number] of Object.entries(type.values)) if (!out.has(number)) out.set(number, name);
  return out;
}

function isClosed(type: protobuf.Enum): boolean {
  const features = (type as unknown as { _features?: { enum_type?: string } })._features;
  return features?.enum_type === "CLOSED";
}
