import { describe, expect, it } from "vitest";
import { Corpus, DROPPED_MEMORY } from "../../../src/corpus/corpus.js";
import { shapeOf } from "../../../src/pipeline/shape.js";

const A = { id: 1, event: "view" };
const B = { id: 2, event: "buy", amount: 12 };
const C = { id: 3, event: "view", amount: 1.5 };
const D = { id: 4, event: "view", x: true };

function corpus(maxShapes = 10, redact: string[] = []): Corpus {
  return new Corpus({ maxShapes, redact }, () => 5000);
}

describe("Corpus.observe", () => {
  it("keeps the first document of each shape per writer and producer and counts the rest", () => {
    const c = corpus();
    expect(c.observe("event", "1.0.0", "web", A, undefined, { at: 1000 })).toBe("kept");
    expect(c.observe("event", "1.0.0", "web", { event: "click", id: 9 }, undefined, { at: 3000 })).toBe(
      "seen",
    );
    expect(c.observe("event", "1.0.0", "web", A, undefined, { at: 2000 })).toBe("seen");
    expect(c.observe("event", "1.0.0", "mobile", A)).toBe("kept");
    expect(c.observe("event", "1.1.0", "web", A)).toBe("kept");
    expect(c.observe("event", "none", "web", A)).toBe("kept");
    expect(c.entries().map((e) => `${e.writer} ${e.producer} ${e.shape} seen=${e.seen}`)).toEqual([
      `1.0.0 mobile ${shapeOf(A).key} seen=1`,
      `1.0.0 web ${shapeOf(A).key} seen=3`,
      `1.1.0 web ${shapeOf(A).key} seen=1`,
      `none web ${shapeOf(A).key} seen=1`,
    ]);
    const web = c.entries()[1]!;
    expect(web).toEqual({
      subject: "event",
      writer: "1.0.0",
      producer: "web",
      shape: "274fb235a7e5",
      conforms: null,
      seen: 3,
      firstSeen: 1000,
      lastSeen: 3000,
      redacted: [],
      document: { id: 1, event: "view" },
    });
    expect(c.entries()[0]!.firstSeen).toBe(5000);
  });

  it("bounds each subject at maxShapes, first seen wins, and counts what it dropped", () => {
    const c = corpus(2);
    expect(c.observe("event", "1.1.0", "web", A)).toBe("kept");
    expect(c.observe("event", "1.1.0", "mobile", B)).toBe("kept");
    expect(c.observe("event", "1.1.0", "billing", C)).toBe("dropped");
    expect(c.observe("event", "1.1.0", "billing", C)).toBe("dropped");
    expect(c.observe("event", "1.1.0", "web", D)).toBe("dropped");
    expect(c.observe("event", "1.1.0", "web", A)).toBe("seen");
    expect(c.observe("order", "1.0.0", "web", C)).toBe("kept");
    expect(c.stats()).toEqual([
      { subject: "event", shapes: 2, dropped: 2, droppedRecords: 3 },
      { subject: "order", shapes: 1, dropped: 0, droppedRecords: 0 },
    ]);
    expect(c.entries().map((e) => `${e.subject} ${e.producer}`)).toEqual([
      "event mobile",
      "event web",
      "order web",
    ]);
  });

  it("remembers at most DROPPED_MEMORY dropped shapes, then dropped is a lower bound", () => {
    const c = corpus(1);
    c.observe("event", "1.1.0", "web", A);
    for (let i = 0; i < DROPPED_MEMORY + 5; i++) c.observe("event", "1.1.0", "web", { [`k${i}`]: 1 });
    expect(c.stats()[0]).toEqual({
      subject: "event",
      shapes: 1,
      dropped: DROPPED_MEMORY,
      droppedRecords: 1005,
    });
  });

  it("replaces an example that failed its writer version by the first of its shape that passes", () => {
    const c = corpus();
    c.observe("event", "1.0.0", "web", { id: 1, event: "buy" }, undefined, { conforms: false });
    c.observe("event", "1.0.0", "web", { id: 2, event: "view" }, undefined, { conforms: true });
    c.observe("event", "1.0.0", "web", { id: 3, event: "buy" }, undefined, { conforms: false });
    expect(c.entries().map((e) => [e.conforms, e.seen, e.document])).toEqual([
      [true, 3, { id: 2, event: "view" }],
    ]);
  });

  it("redacts before it stores, with placeholders that fit the schema it is given", () => {
    const schema = { properties: { email: { type: "string", format: "email" } } };
    const c = corpus(10, ["/email", "/customer/name"]);
    c.observe("user", "1.0.0", "web", { email: "alice@example.org", customer: { name: "Alice" } }, schema);
    expect(c.entries()[0]!.document).toEqual({ email: "user@example.com", customer: { name: "redacted" } });
    expect(c.entries()[0]!.redacted).toEqual(["/email", "/customer/name"]);
    expect(JSON.stringify(c.toJSON())).not.toContain("alice");
    expect(JSON.stringify(c.toJSON())).not.toContain("Alice");
  });
});

describe("Corpus JSON", () => {
  function filled(): Corpus {
    const c = corpus(3);
    c.observe("event", "1.0.0", "web", A, undefined, { conforms: true, at: 1000 });
    c.observe("event", "1.0.0", "web", A, undefined, { conforms: true, at: 4000 });
    c.observe("event", "1.1.0", "partner-feed", D, undefined, { conforms: false, at: 2000 });
    c.observe("event", "none", "legacy-batch", A, undefined, { at: 3000 });
    c.observe("event", "1.1.0", "billing", C, undefined, { conforms: true, at: 5000 });
    return c;
  }

  it("has this form", () => {
    expect(filled().toJSON()).toEqual({
      format: 1,
      maxShapes: 3,
      subjects: [
        {
          subject: "event",
          droppedRecords: 1,
          dropped: [["1.1.0", "billing", "4a41c22baf98"]],
          examples: [
            {
              writer: "1.0.0",
              producer: "web",
              shape: "274fb235a7e5",
              conforms: true,
              seen: 2,
              firstSeen: 1000,
              lastSeen: 4000,
              redacted: [],
              document: A,
            },
            {
              writer: "1.1.0",
              producer: "partner-feed",
              shape: "4785fcba46f8",
              conforms: false,
              seen: 1,
              firstSeen: 2000,
              lastSeen: 2000,
              redacted: [],
              document: D,
            },
            {
              writer: "none",
              producer: "legacy-batch",
              shape: "274fb235a7e5",
              conforms: null,
              seen: 1,
              firstSeen: 3000,
              lastSeen: 3000,
              redacted: [],
              document: A,
            },
          ],
        },
      ],
    });
  });

  it("round-trips through JSON text and keeps counting where it left off", () => {
    const before = filled();
    const after = Corpus.fromJSON(JSON.parse(JSON.stringify(before)));
    expect(after.toJSON()).toEqual(before.toJSON());
    expect(after.entries()).toEqual(before.entries());
    expect(after.observe("event", "1.0.0", "web", A)).toBe("seen");
    // The dropped shape is remembered, so seeing it again does not count it twice.
    expect(after.observe("event", "1.1.0", "billing", C)).toBe("dropped");
    expect(after.stats()).toEqual([{ subject: "event", shapes: 3, dropped: 1, droppedRecords: 2 }]);
  });

  it("keeps the first-seen examples under a smaller bound and counts the rest as dropped", () => {
    const after = Corpus.fromJSON(filled().toJSON(), { maxShapes: 2 });
    expect(after.entries().map((e) => e.producer)).toEqual(["web", "partner-feed"]);
    expect(after.stats()).toEqual([{ subject: "event", shapes: 2, dropped: 2, droppedRecords: 2 }]);
  });

  it("redacts again on restore when the config now redacts more", () => {
    const c = corpus();
    c.observe("event", "1.1.0", "web", { id: 1, event: "view", email: "alice@example.org" });
    const schema = { properties: { email: { format: "email" } } };
    const after = Corpus.fromJSON(c.toJSON(), { redact: ["/email"], schemaFor: () => schema });
    expect(after.entries()[0]!.document).toEqual({ id: 1, event: "view", email: "user@example.com" });
    expect(after.entries()[0]!.redacted).toEqual(["/email"]);
  });

  it("says what is wrong with a JSON form it cannot use, never quoting a document", () => {
    const good = filled().toJSON();
    const bad = (patch: (json: Record<string, unknown>) => void) => {
      const json = JSON.parse(JSON.stringify(good)) as Record<string, unknown>;
      patch(json);
      return () => Corpus.fromJSON(json);
    };
    type Json = { subjects: { subject: string; examples: Record<string, unknown>[] }[] };
    expect(() => Corpus.fromJSON("nope")).toThrow("not a schemawatch corpus: the document must be an object");
    expect(bad((j) => (j["format"] = 2))).toThrow("not a schemawatch corpus: format must be 1");
    expect(bad((j) => ((j as unknown as Json).subjects[0]!.subject = "../etc"))).toThrow(
      "not a schemawatch corpus: subjects[0].subject must be letters, digits, '.', '_' or '-'",
    );
    expect(bad((j) => ((j as unknown as Json).subjects[0]!.examples[1]!["writer"] = "../x"))).toThrow(
      "not a schemawatch corpus: subjects[0].examples[1].writer must be a version such as 1.1.0, or none",
    );
    expect(bad((j) => ((j as unknown as Json).subjects[0]!.examples[0]!["seen"] = -1))).toThrow(
      "not a schemawatch corpus: subjects[0].examples[0].seen must be a whole number",
    );
    expect(bad((j) => delete (j as unknown as Json).subjects[0]!.examples[2]!["document"])).toThrow(
      "not a schemawatch corpus: subjects[0].examples[2] has no document",
    );
  });
});
