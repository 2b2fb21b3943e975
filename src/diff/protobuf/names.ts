import protobuf from "protobufjs";
import type { ProtoSchema } from "../../formats/protobuf/parse.js";

/** What the Protobuf diff reads of a file: its messages and enums by name, a field's type and label. */

/** A field's type as the comparison reads it: a scalar, or a message or enum by its own name (a map by its key and value). */
export function typeName(field: protobuf.Field): string {
  const resolved = field.resolvedType;
  const value =
    resolved instanceof protobuf.Type || resolved instanceof protobuf.Enum
      ? `${resolved instanceof protobuf.Enum ? "enum" : "message"} ${localName(resolved)}`
      : field.type;
  return field.map ? `map<${(field as unknown as protobuf.MapField).keyType}, ${value}>` : value;
}

export const label = (field: protobuf.Field): string =>
  field.map ? "map" : field.repeated ? "repeated" : field.required ? "required" : "singular";

/** Every message of the file (nested ones too), by name within its package. */
export function messagesOf(schema: ProtoSchema): Map<string, protobuf.Type> {
  const out = new Map<string, protobuf.Type>();
  const visit = (type: protobuf.Type) => {
    out.set(localName(type), type);
    for (const nested of type.nestedArray) if (nested instanceof protobuf.Type) visit(nested);
  };
  schema.messages.forEach(visit);
  return out;
}

export function enumsOf(schema: ProtoSchema): Map<string, protobuf.Enum> {
  const out = new Map<string, protobuf.Enum>(schema.enums.map((e) => [localName(e), e]));
  for (const type of messagesOf(schema).values())
    for (const nested of type.nestedArray)
      if (nested instanceof protobuf.Enum) out.set(localName(nested), nested);
  return out;
}

/** A type's name within its file's package (`Order.Line`). */
export function localName(object: protobuf.ReflectionObject): string {
  const parts: string[] = [];
  for (
    let at: protobuf.ReflectionObject | null = object;
    at !== null && (at instanceof protobuf.Type || at instanceof protobuf.Enum);
    at = at.parent
  )
    parts.unshift(at.name);
  return parts.join(".");
}

export const name = (type: protobuf.ReflectionObject): string => type.fullName.slice(1);
