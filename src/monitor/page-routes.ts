import type { Catalog } from "../catalog/types.js";
import type { Config } from "../config/types.js";
import type { Corpus } from "../corpus/corpus.js";
import type { PageResult, RouteParams } from "../http/server.js";
import type { Report } from "../report/model.js";
import type { SubjectCharts } from "../report/history-section.js";
import type { PageContext, TopicFlow } from "../report/page-context.js";
import type * as Pages from "../report/pages.js";
import type * as RenderHtml from "../report/render-html.js";
import type { Health } from "../health/health.js";
import type { TopicRates } from "./rates.js";

type Renderers = typeof Pages & typeof RenderHtml;
let renderers: Promise<Renderers> | undefined;
/**
 * The pages' renderers (a few dozen modules of src/report/) load at the first page asked for, not at
 * start-up, which never draws a page.
 */
function loadRenderers(): Promise<Renderers> {
  renderers ??= Promise.all([import("../report/pages.js"), import("../report/render-html.js")]).then(
    ([pages, html]) => ({ ...pages, ...html }),
  );
  return renderers;
}

export interface StatusPagesDependencies {
  readonly config: Config;
  readonly report: () => Report;
  readonly catalog: () => Catalog;
  readonly health: Health;
  readonly rates: TopicRates;
  /** Its examples are linked and served only when `corpus.serve` is set too. */
  readonly corpus: Corpus | undefined;
  /** What a subject's page draws over time. */
  readonly charts?: (subject: string) => SubjectCharts;
}

const REFRESH_SECONDS = 10;

function notFound(message: string): Error & { statusCode: number } {
  return Object.assign(new Error(message), { statusCode: 404 });
}

/**
 * The monitor's pages: the index at `/`, a page per subject, each version's schema and (when the
 * corpus is served) an example of it. Everything is built at request time from one report.
 */
export function statusPages(deps: StatusPagesDependencies): {
  pages: Record<string, (params: RouteParams) => Promise<PageResult>>;
  routes: Record<string, (params: RouteParams) => unknown>;
} {
  const served = deps.corpus !== undefined && deps.config.corpus.serve ? deps.corpus : undefined;
  const context = (root: string): PageContext => {
    const window = deps.rates.current();
    const flows = new Map<string, TopicFlow>();
    for (const topic of deps.catalog().subjectByTopic.keys()) {
      const lag = deps.health.lag.get(topic);
      const measuredAt = deps.health.lagMeasuredAt.get(topic);
      flows.set(topic, {
        topic,
        perSecond: window ? (window.perSecond.get(topic) ?? 0) : null,
        lag: lag ? [...lag.values()].reduce((a, b) => a + b, 0) : null,
        lagMeasuredAt: measuredAt === undefined ? null : new Date(measuredAt).toISOString(),
      });
    }
    const rateNote = `records/s: records counted per second ${
      window
        ? `over the last ${Math.round(window.seconds)} s (the counts are sampled every ${deps.rates.everySeconds} s)`
        : "(— until the live monitor has run a second; a replayed capture has none)"
    }; lag: records its consumer group has not read yet, summed over the topic's partitions, as last measured (— before the first measurement, and for a replayed capture).`;
    let samples: Map<string, Set<string>> | undefined;
    return {
      root,
      flows,
      rateNote,
      ...(deps.charts ? { charts: deps.charts } : {}),
      ...(served
        ? {
            samples: (subject: string) => {
              if (!samples) {
                samples = new Map();
                for (const e of served.entries()) {
                  let writers = samples.get(e.subject);
                  if (!writers) samples.set(e.subject, (writers = new Set()));
                  writers.add(e.writer);
                }
              }
              return samples.get(subject) ?? new Set();
            },
          }
        : {}),
    };
  };
  const html = (r: Renderers, document: Parameters<typeof RenderHtml.renderHtml>[0], home?: string) =>
    r.renderHtml(document, {
      refreshSeconds: REFRESH_SECONDS,
      monitorUrl: "",
      ...(home === undefined ? {} : { home }),
    });
  const version = (params: RouteParams) => {
    const subject = deps.catalog().subjects.get(params["name"]!);
    if (!subject) throw notFound(`the monitor watches no subject ${JSON.stringify(params["name"])}`);
    const found = subject.byVersion.get(params["version"]!);
    if (!found)
      throw notFound(
        `subject ${subject.name} has no version ${JSON.stringify(params["version"])}: it has ${subject.versions.map((v) => v.version.text).join(", ")}`,
      );
    return found;
  };
  return {
    pages: {
      "/": async () => {
        const r = await loadRenderers();
        return html(r, r.indexDocument(deps.report(), context("")));
      },
      "/subjects/:name": async (params) => {
        const r = await loadRenderers();
        const report = deps.report();
        const subject = report.subjects.find((s) => s.subject === params["name"]);
        const page = context("../");
        if (!subject)
          return {
            statusCode: 404,
            html: html(r, r.unknownSubjectDocument(report, params["name"]!, page), "../"),
          };
        return html(r, r.subjectDocument(report, subject, page), "../");
      },
    },
    routes: {
      // What the subject's page draws over time, as data: a subject's alone, since at 200 subjects
      // all of them would double /api/status (about 1 MB of 1.9).
      "/subjects/:name/history": (params) => {
        const subject = deps.catalog().subjects.get(params["name"]!);
        if (!subject) throw notFound(`the monitor watches no subject ${JSON.stringify(params["name"])}`);
        return deps.charts?.(subject.name) ?? {};
      },
      // As written: JSON (JSON Schema, Avro), or the text of a format whose schema is not JSON (served
      // as text/plain), never a JSON view of that text.
      "/subjects/:name/versions/:version/schema": (params) => {
        const v = version(params);
        return v.schema?.text ?? v.file.json;
      },
      // A kept example is redacted, but still a real document: served only when the corpus is.
      "/subjects/:name/versions/:version/sample": (params) => {
        const v = version(params);
        if (!deps.corpus) throw notFound("the corpus is off: set corpus.enabled in the config");
        if (!served) throw notFound("the corpus is not served: set corpus.serve in the config");
        const example = served.entries().find((e) => e.subject === v.subject && e.writer === v.version.text);
        if (!example) throw notFound(`the corpus keeps no example of ${v.subject} ${v.version.text} yet`);
        return example;
      },
    },
  };
}
