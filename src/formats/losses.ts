/**
 * What a lossy read does to the writer's data, whatever the format (format.ts, `lossy`): the reader
 * `dropped` a value the writer sent (a field it has no field for), read a `defaulted` value where the
 * writer sent none, or got a value it has `unnamed` (an enum number without a name). The direction
 * does not say which: an upgraded reader drops a field its version removed as an old one drops a field
 * a newer writer added, so what the attention summary asks an operator to check follows this.
 * Every format's lossy rules are here, by name (the names are distinct across formats); a test holds
 * that each format's list and this table agree.
 */
export type LossKind = "dropped" | "defaulted" | "unnamed";

const KINDS: Readonly<Record<string, LossKind>> = {
  // Avro (avro/resolve.ts, AVRO_RULES)
  field_dropped: "dropped",
  field_defaulted: "defaulted",
  enum_defaulted: "defaulted",
  // Protobuf (protobuf/plan.ts, PROTO_RULES)
  unknown_field: "dropped",
  default_read: "defaulted",
  unknown_enum_value: "unnamed",
};

/** The kind of a lossy rule; undefined for a rule that is not a loss (a failure's). */
export function lossKind(rule: string): LossKind | undefined {
  return Object.hasOwn(KINDS, rule) ? KINDS[rule] : undefined;
}
