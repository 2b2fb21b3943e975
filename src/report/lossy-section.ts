import type { Section, Span } from "./document.js";
import type { ReportSubject } from "./model.js";

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const code = (text: string): Span => ({ text, code: true });
const pointerText = (pointer: string) => (pointer === "" ? "(root)" : pointer);

/**
 * Lossy reads (issue 36): per writer × reader, the sampled records a reader reads but that lose data
 * the writer sent (an Avro field dropped or defaulted, a Protobuf unknown field or enum value), with
 * the rule and where. Beside the would-fail matrix, a level below it: nothing breaks, something is
 * silently lost. Absent when no read was lossy (always, for JSON Schema).
 */
export function lossySection(s: ReportSubject, id: string): Section | undefined {
  const lossy = s.wouldFail.filter((e) => e.lossy > 0);
  if (lossy.length === 0) return undefined;
  return {
    id: `${id}-lossy`,
    title: "lossy reads: writer × reader",
    blocks: [
      {
        kind: "text",
        text: "The share of sampled records declaring each writer version that a consumer reading with each reader version reads, but without data the writer sent (dropped, or replaced by a default).",
      },
      {
        kind: "table",
        columns: [
          { title: "writer" },
          { title: "reader" },
          { title: "direction" },
          { title: "lossy", numeric: true },
          { title: "lossy / sampled", numeric: true },
          { title: "rule" },
          { title: "at" },
          { title: "producers" },
        ],
        rows: lossy.map((e) => [
          code(e.writer),
          code(e.reader),
          e.direction,
          { text: pct(e.lossy / e.validations), tone: "warn" },
          `${e.lossy} / ${e.validations}`,
          code(e.losses.map((l) => (e.losses.length > 1 ? `${l.rule} ${l.count}` : l.rule)).join(", ")),
          code(e.losses.map((l) => pointerText(l.pointer)).join(", ")),
          Object.entries(e.producers)
            .filter(([, p]) => (p.lossy ?? 0) > 0)
            .map(([name, p]) => `${name} ${p.lossy}/${p.validations}`)
            .join(", "),
        ]),
        empty: "no lossy read",
      },
    ],
  };
}
