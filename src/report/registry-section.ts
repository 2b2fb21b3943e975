import type { Block, Section, Span } from "./document.js";
import type { ReportSubject } from "./model.js";

const code = (text: string): Span => ({ text, code: true });
const muted = (text: string): Span => ({ text, tone: "muted" });

/**
 * A subject's registry subject: the registry's own verdict (the compatibility level it enforces on
 * registration) beside what the traffic shows, whether it answers, and what the catalog left out.
 */
export function registrySection(s: ReportSubject, id: string): Section | undefined {
  const r = s.registry;
  if (!r) return undefined;
  const level = r.compatibility
    ? `${r.compatibility.level} (${r.compatibility.source === "subject" ? "the subject's own level" : "the registry's global level"})`
    : muted("not known");
  const blocks: Block[] = [
    {
      kind: "text",
      text: "The registry's own verdict, beside the traffic above: the compatibility level it enforces when a version is registered.",
    },
    {
      kind: "facts",
      facts: [
        ["registry", `${r.name} (${r.url})`],
        ["registry subject", code(r.subject)],
        ["compatibility", level],
        [
          "registry state",
          r.up
            ? { text: "answers", tone: "good" }
            : {
                text: `down since ${r.downSince ?? "start"}${r.lastError ? `: ${r.lastError}` : ""}; the last catalog stays in use and no deprecated version is judged drained`,
                tone: "bad",
              },
        ],
        ["last read", r.lastSuccess ?? muted("never")],
      ],
    },
  ];
  if (r.leftOut.length > 0) {
    blocks.push({ kind: "text", text: "Registered versions left out of the catalog:" });
    blocks.push({ kind: "list", items: r.leftOut.map((message) => ({ text: message, tone: "warn" })) });
  }
  return {
    id: `${id}-registry`,
    title: `registry ${r.name}: ${r.subject}`,
    ...(r.up ? {} : { badge: { text: "registry down", tone: "bad" as const } }),
    blocks,
  };
}
