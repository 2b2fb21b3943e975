import { afterEach, describe, expect, it, vi } from "vitest";

describe("status pages", () => {
  afterEach(() => {
    vi.doUnmock("../../../src/report/render-html.js");
    vi.doUnmock("../../../src/report/pages.js");
    vi.resetModules();
  });

  it("load the report's renderers at the first page asked for, not when the routes are built at start-up", async () => {
    const loaded: string[] = [];
    vi.resetModules();
    vi.doMock("../../../src/report/render-html.js", () => {
      loaded.push("render-html");
      return {
        renderHtml: (document: string, options: { home?: string }) => `<html>${document}|${options.home}`,
      };
    });
    vi.doMock("../../../src/report/pages.js", () => {
      loaded.push("pages");
      return {
        indexDocument: () => "index",
        subjectDocument: () => "subject",
        unknownSubjectDocument: (_report: unknown, name: string) => `unknown ${name}`,
      };
    });
    const { statusPages } = await import("../../../src/monitor/page-routes.js");
    const { pages } = statusPages({
      config: { corpus: { serve: false } },
      report: () => ({ subjects: [] }),
      catalog: () => ({ subjectByTopic: new Map() }),
      health: { lag: new Map(), lagMeasuredAt: new Map() },
      rates: { current: () => undefined, everySeconds: 10 },
      corpus: undefined,
    } as never);
    expect(loaded).toEqual([]);
    expect(await pages["/"]!({})).toBe("<html>index|undefined");
    expect(loaded.sort()).toEqual(["pages", "render-html"]);
    expect(await pages["/subjects/:name"]!({ name: "nope" })).toEqual({
      statusCode: 404,
      html: "<html>unknown nope|../",
    });
    expect(loaded).toHaveLength(2);
  });
});
