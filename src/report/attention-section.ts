import { needsAttention, type AttentionItem } from "./attention.js";
import type { Section, Tone } from "./document.js";

const LEVEL_TONE: Record<AttentionItem["level"], Tone> = { act: "bad", watch: "warn", info: "muted" };
const LEVEL_WORD: Record<AttentionItem["level"], string> = { act: "act", watch: "watch", info: "info" };

/** What needs an operator, first on every rendering, with what the colours mean. */
export function attentionSection(items: readonly AttentionItem[]): Section {
  const urgent = items.filter((i) => i.level !== "info").length;
  return {
    id: "attention",
    title: "what needs you",
    badge: needsAttention(items)
      ? { text: `${urgent} ${urgent === 1 ? "thing" : "things"}`, tone: "bad" }
      : { text: "nothing", tone: "good" },
    blocks: [
      needsAttention(items)
        ? {
            kind: "text",
            text: {
              text: `${urgent} ${urgent === 1 ? "thing needs" : "things need"} you, most urgent first:`,
              tone: "bad",
            },
          }
        : { kind: "text", text: { text: "Nothing needs you.", tone: "good" } },
      ...(items.length === 0
        ? []
        : [
            {
              kind: "table" as const,
              columns: [{ title: "" }, { title: "what" }, { title: "next" }],
              rows: items.map((i) => [
                { text: LEVEL_WORD[i.level], tone: LEVEL_TONE[i.level] },
                i.what,
                i.action,
              ]),
              empty: "",
            },
          ]),
      {
        kind: "list",
        items: [
          { text: "red: breaks something now, or is ready to be done (act)", tone: "bad" },
          {
            text: "amber: would break a consumer that has not moved yet, or keeps a verdict back (watch)",
            tone: "warn",
          },
          { text: "green: fine", tone: "good" },
          { text: "grey: secondary, or nothing to do yet (info)", tone: "muted" },
        ],
      },
    ],
  };
}
