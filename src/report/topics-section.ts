import type { Section } from "./document.js";
import type { ReportSubject } from "./model.js";
import { lagText, rateText, type PageContext } from "./page-context.js";

/** A subject's topics with their throughput and lag, as kminion shows them first: only on the live pages. */
export function topicsSection(s: ReportSubject, id: string, page: PageContext): Section {
  return {
    id: `${id}-topics`,
    title: "topics",
    blocks: [
      { kind: "text", text: { text: page.rateNote, tone: "muted" } },
      {
        kind: "table",
        columns: [
          { title: "topic" },
          { title: "records/s", numeric: true },
          { title: "lag (records behind)", numeric: true },
          { title: "lag measured" },
        ],
        rows: s.topics.map((topic) => {
          const flow = page.flows.get(topic);
          return [
            topic,
            rateText(flow?.perSecond),
            lagText(flow?.lag),
            flow?.lagMeasuredAt ?? { text: "not measured", tone: "muted" },
          ];
        }),
        empty: "no topics",
      },
    ],
  };
}
