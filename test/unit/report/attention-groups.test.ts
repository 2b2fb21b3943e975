import { describe, expect, it } from "vitest";
import type { AttentionItem } from "../../../src/report/attention.js";
import { groupAttention, LOOSE_IN_ONE_SUBJECT } from "../../../src/report/attention-groups.js";
import { attentionSection, FOLD_LISTED } from "../../../src/report/attention-section.js";
import type { ReportDocument } from "../../../src/report/document.js";
import { renderHtml } from "../../../src/report/render-html.js";
import { renderMarkdown } from "../../../src/report/render-markdown.js";
import { renderText } from "../../../src/report/render-text.js";

/** A producer's records that consumers one version behind reject, as attention.ts words it. */
const forward = (subject: string, producer: string, cause = "behind-1"): AttentionItem => ({
  level: "act",
  kind: "forward-incompatible",
  cause,
  subject,
  producer,
  what: `producer ${producer}: 100% of its sampled 1.1.0 records (4 of 4) would break consumers still on 1.0.0`,
  action: `Upgrade the consumers still on 1.0.0 before they read ${producer}'s 1.1.0 records, or keep ${producer} on a version they accept until they are.`,
});
const drained = (subject: string, version: string): AttentionItem => ({
  level: "act",
  kind: "drained",
  subject,
  what: `${version} of ${subject} is drained: nothing declared or needed it for the whole drain window, with every partition observed`,
  action: `Remove ${version}: retire it in the registry or the catalog.`,
});
const lines = (items: AttentionItem[]) => groupAttention(items).map((g) => [g.members.length, g.what]);

describe("grouping the attention summary", () => {
  it("keeps up to 5 items of one subject a line each, and folds one more", () => {
    const producers = ["a", "b", "c", "d", "e", "f"];
    expect(LOOSE_IN_ONE_SUBJECT).toBe(5);
    const five = producers.slice(0, 5).map((p) => forward("event", p));
    expect(groupAttention(five).map((g) => g.members)).toEqual(five.map((i) => [i]));
    expect(groupAttention(five).map((g) => [g.what, g.action])).toEqual(five.map((i) => [i.what, i.action]));
    const six = groupAttention(producers.map((p) => forward("event", p)));
    expect(six.map((g) => [g.subjects, g.members.length, g.what, g.action])).toEqual([
      [
        ["event"],
        6,
        "6 producers in event send records that consumers one version behind reject",
        "Upgrade the consumers one version behind before they read the listed producers' records, or keep each of those producers on a version its consumers accept until they are.",
      ],
    ]);
  });

  it("folds what repeats across subjects, counting a producer once however many subjects it writes", () => {
    const groups = groupAttention([forward("orders", "web"), forward("payments", "web")]);
    expect(groups.map((g) => [g.level, g.kind, g.cause, g.subjects, g.what])).toEqual([
      [
        "act",
        "forward-incompatible",
        "behind-1",
        ["orders", "payments"],
        "1 producer in 2 subjects sends records that consumers one version behind reject",
      ],
    ]);
  });

  it("folds only items of one level, kind and cause; a kind it has no words for never", () => {
    const other: AttentionItem = { ...forward("b", "web"), level: "watch" };
    const unknown = (subject: string): AttentionItem => ({ ...drained(subject, "1.0.0"), kind: "new-kind" });
    expect(
      lines([
        forward("a", "web"),
        forward("b", "web", "behind-2"),
        other,
        forward("c", "mobile", "behind-2"),
        unknown("a"),
        unknown("b"),
      ]),
    ).toEqual([
      [2, "2 producers in 2 subjects send records that consumers two versions behind reject"],
      [1, forward("a", "web").what],
      [
        1,
        "1.0.0 of a is drained: nothing declared or needed it for the whole drain window, with every partition observed",
      ],
      [
        1,
        "1.0.0 of b is drained: nothing declared or needed it for the whole drain window, with every partition observed",
      ],
      [1, other.what],
    ]);
  });

  it("keeps the members' own action when they all say the same, else names the step they share", () => {
    const same = groupAttention([drained("a", "1.0.0"), drained("b", "1.0.0")]);
    expect(same.map((g) => [g.what, g.action])).toEqual([
      [
        "2 deprecated versions in 2 subjects are drained: nothing declared or needed them for the whole drain window, with every partition observed",
        "Remove 1.0.0: retire it in the registry or the catalog.",
      ],
    ]);
    expect(groupAttention([drained("a", "1.0.0"), drained("b", "2.0.0")])[0]!.action).toBe(
      "Remove each version listed: retire it in the registry or the catalog.",
    );
  });

  it("ranks by level, a retired version still sent first, then the lines that gather the most items", () => {
    const retired: AttentionItem = {
      level: "act",
      kind: "retired-traffic",
      subject: "z",
      producer: "web",
      what: "producer web still sends z 1.0.0, which is retired",
      action: "Stop web sending 1.0.0.",
    };
    const info: AttentionItem = {
      level: "info",
      kind: "coverage-building",
      subject: "a",
      what: "the windows of a are still being observed",
      action: "Nothing to do.",
    };
    expect(
      lines([
        info,
        drained("a", "1.0.0"),
        forward("a", "web"),
        forward("b", "web"),
        forward("c", "web"),
        retired,
      ]),
    ).toEqual([
      [1, retired.what],
      [3, "1 producer in 3 subjects sends records that consumers one version behind reject"],
      [1, drained("a", "1.0.0").what],
      [1, info.what],
    ]);
  });
});

describe("a folded line", () => {
  const items = Array.from({ length: FOLD_LISTED + 2 }, (_, i) =>
    forward(`s${String(i).padStart(2, "0")}`, "web"),
  );
  const document = (href?: (subject: string) => string): ReportDocument => ({
    title: "t",
    generatedAt: "g",
    notices: [],
    sections: [
      attentionSection([...items, drained("s00", "1.0.0")], { subjects: true, ...(href ? { href } : {}) }),
    ],
  });

  it("counts lines and the items they gather, and lists its members below its row in text", () => {
    const text = renderText(document()).split("\n");
    expect(text.slice(2, 12).map((l) => l.trimEnd())).toEqual([
      "what needs you: 2 things",
      "========================",
      "  2 things need you (23 items), most urgent first:",
      "       subject      what                                                                                                              next",
      // One producer, one pair of versions: the members' own action, the same in every subject.
      "  act  22 subjects  1 producer in 22 subjects sends records that consumers one version behind reject                                  Upgrade the consumers still on 1.0.0 before they read web's 1.1.0 records, or keep web on a version they accept until they are.",
      "      subject  what",
      "      s00      producer web: 100% of its sampled 1.1.0 records (4 of 4) would break consumers still on 1.0.0",
      "      s01      producer web: 100% of its sampled 1.1.0 records (4 of 4) would break consumers still on 1.0.0",
      "      s02      producer web: 100% of its sampled 1.1.0 records (4 of 4) would break consumers still on 1.0.0",
      "      s03      producer web: 100% of its sampled 1.1.0 records (4 of 4) would break consumers still on 1.0.0",
    ]);
    expect(text.slice(27, 30).map((l) => l.trimEnd())).toEqual([
      "      s19      producer web: 100% of its sampled 1.1.0 records (4 of 4) would break consumers still on 1.0.0",
      "      … and 2 more: the JSON report (/api/report, report --format json) lists them all.",
      "  act  s00          1.0.0 of s00 is drained: nothing declared or needed it for the whole drain window, with every partition observed  Remove 1.0.0: retire it in the registry or the catalog.",
    ]);
  });

  it("folds its members below the table in markdown", () => {
    const markdown = renderMarkdown(document()).split("\n");
    const start = markdown.indexOf("<details>");
    expect(markdown.slice(start - 4, start + 6)).toEqual([
      "| --- | --- | --- | --- |",
      "| **act** | 22 subjects | 1 producer in 22 subjects sends records that consumers one version behind reject | Upgrade the consumers still on 1.0.0 before they read web's 1.1.0 records, or keep web on a version they accept until they are. |",
      "| **act** | s00 | 1.0.0 of s00 is drained: nothing declared or needed it for the whole drain window, with every partition observed | Remove 1.0.0: retire it in the registry or the catalog. |",
      "",
      "<details>",
      "<summary>1 producer in 22 subjects sends records that consumers one version behind reject</summary>",
      "",
      "| subject | what |",
      "| --- | --- |",
      "| s00 | producer web: 100% of its sampled 1.1.0 records (4 of 4) would break consumers still on 1.0.0 |",
    ]);
  });

  it("is a <details> in its row on the page, each member linked to its subject's page", () => {
    const html = renderHtml(document((subject) => `subjects/${subject}`));
    expect(html).toContain(
      '<td>22 subjects</td><td><details><summary>1 producer in 22 subjects sends records that consumers one version behind reject</summary>\n<div class="scroll"><table><thead><tr><th>subject</th><th>what</th></tr></thead><tbody>\n<tr><td><a href="subjects/s00">s00</a></td><td>producer web: 100% of its sampled 1.1.0 records (4 of 4) would break consumers still on 1.0.0</td></tr>',
    );
    expect(html.match(/<a href="subjects\/s\d\d">/g)).toHaveLength(FOLD_LISTED + 1);
  });
});

describe("every kind's folded words", () => {
  /** Two items of a kind in two subjects, each with an action of its own (so the shared step shows). */
  const pair = (kind: string, cause?: string, producers = ["web", "app"]): AttentionItem[] =>
    ["s1", "s2"].map((subject, i) => ({
      level: "act",
      kind,
      ...(cause === undefined ? {} : { cause }),
      subject,
      producer: producers[i]!,
      what: `${kind} ${subject}`,
      action: `own action ${i}`,
    }));
  const fold = (items: AttentionItem[]) => {
    const groups = groupAttention(items);
    expect(groups).toHaveLength(1);
    return [groups[0]!.what, groups[0]!.action];
  };
  const CHECK =
    "a schema cannot see this, consumers that compute with it can (the subject's field statistics show the values).";

  it("says what the members share and the step that resolves them all", () => {
    expect(fold(pair("retired-traffic"))).toEqual([
      "2 producers in 2 subjects send versions that were retired",
      "Stop each producer listed sending its retired version: consumers may no longer read it. If some still need one, make it deprecated again (the registry's state, or the catalog) until its producers have moved; see the runbook (SchemawatchRetiredVersionTraffic).",
    ]);
    expect(fold(pair("backward-incompatible", "ahead-1"))).toEqual([
      "2 producers in 2 subjects send records that consumers upgraded one version ahead reject",
      "Move each producer listed to the version its consumers upgrade to (or one that version accepts) before they upgrade.",
    ]);
    expect(fold(pair("non-conformant", undefined, ["web", "web"]))).toEqual([
      "1 producer in 2 subjects sends records that fail the version they declare",
      "Fix each producer listed: its records do not match the version they declare (each subject's would-fail matrix names the keyword and the path).",
    ]);
    expect(fold(pair("unreadable"))).toEqual([
      "2 subjects have records whose version could not be read",
      "own action 0",
    ]);
    expect(fold(pair("ready"))).toEqual([
      "2 candidates in 2 subjects are ready: every sampled record passed them for the whole window",
      "Release each candidate listed: make it active.",
    ]);
    expect(fold(pair("not-ready"))).toEqual([
      "2 candidates in 2 subjects are not ready",
      "Keep each a candidate until the producers its line names send what it requires.",
    ]);
    expect(fold(pair("coverage-building"))).toEqual([
      "the windows of 2 subjects are still being observed",
      "own action 0",
    ]);
    expect(fold(pair("field-drained"))).toEqual([
      "2 deprecated fields in 2 subjects are drained: no record carried them for the whole drain window, with every partition observed",
      "Remove each field listed in the next major version of its subject.",
    ]);
    expect(fold(pair("field-in-use"))).toEqual([
      "2 deprecated fields in 2 subjects are still sent",
      "Stop sending each field listed from the producers its line names before removing it in the next major version of its subject.",
    ]);
    expect(fold(pair("field-ready"))).toEqual([
      "every producer sends 2 optional fields in 2 subjects in every record",
      "Each field listed can be added to required in the next major version of its subject.",
    ]);
    expect(fold(pair("field-scale-changed"))).toEqual([
      "2 producers' fields in 2 subjects changed scale while their schemas did not",
      `Check the unit of each field listed, or what it carries, in its producer's records: ${CHECK}`,
    ]);
    expect(fold(pair("field-differs-from-peers"))).toEqual([
      "2 producers' fields in 2 subjects differ from the other producers' of the same version",
      `Check the unit of each field listed, or what it carries, in its producer's records: ${CHECK}`,
    ]);
    expect(fold(pair("field-new-value"))).toEqual([
      "2 producers' fields in 2 subjects sent values never seen before",
      "Check that the consumers of each subject listed handle the new values.",
    ]);
    expect(fold(pair("field-share-jumped"))).toEqual([
      "2 producers' fields in 2 subjects carry one value far more often than before",
      "Check why each producer listed sends its value so much more often.",
    ]);
  });

  it("the monitor's own items fold only past five, with no subjects", () => {
    const own = (kind: string, n: number): AttentionItem[] =>
      Array.from({ length: n }, (_, i) => ({
        level: "watch",
        kind,
        subject: null,
        what: `${kind} ${i}`,
        action: `own action ${i}`,
      }));
    expect(groupAttention(own("registry-down", 5))).toHaveLength(5);
    const registries = groupAttention(own("registry-down", 6));
    expect(registries.map((g) => [g.subjects, g.members.length, g.what, g.action])).toEqual([
      [[], 6, "6 registries do not answer", "own action 0"],
    ]);
    expect(groupAttention(own("problem", 6)).map((g) => [g.what, g.action])).toEqual([
      ["the monitor has 6 problems", "own action 0"],
    ]);
    expect(groupAttention(own("problem", 1))[0]).toEqual({
      level: "watch",
      kind: "problem",
      what: "problem 0",
      action: "own action 0",
      subjects: [],
      members: own("problem", 1),
    });
  });

  it("names how far apart the versions are from the cause, and only the direction without one", () => {
    const behind = (cause?: string) => fold(pair("forward-incompatible", cause))[0];
    expect([
      behind("behind-2"),
      behind("behind-12"),
      behind(undefined),
      behind("behind-0"),
      behind("behind-2x"),
    ]).toEqual([
      "2 producers in 2 subjects send records that consumers two versions behind reject",
      "2 producers in 2 subjects send records that consumers 12 versions behind reject",
      "2 producers in 2 subjects send records that consumers on an older version reject",
      "2 producers in 2 subjects send records that consumers on an older version reject",
      "2 producers in 2 subjects send records that consumers on an older version reject",
    ]);
    expect([4, 5, 6, 7, 8, 9].map((n) => behind(`behind-${n}`))).toEqual(
      ["four", "five", "six", "seven", "eight", "nine"].map(
        (n) => `2 producers in 2 subjects send records that consumers ${n} versions behind reject`,
      ),
    );
    expect(fold(pair("forward-incompatible", "behind-3"))[1]).toBe(
      "Upgrade the consumers three versions behind before they read the listed producers' records, or keep each of those producers on a version its consumers accept until they are.",
    );
    expect(fold(pair("backward-incompatible"))[0]).toBe(
      "2 producers in 2 subjects send records that consumers upgraded on a newer version reject",
    );
    expect(fold(pair("backward-incompatible", "xahead-2"))[0]).toBe(
      "2 producers in 2 subjects send records that consumers upgraded on a newer version reject",
    );
  });

  it("a folded line keeps its cause, a single one its own fields; one subject's items stay apart up to five", () => {
    const [group] = groupAttention(pair("forward-incompatible", "behind-1"));
    expect([group!.level, group!.kind, group!.cause, group!.subjects]).toEqual([
      "act",
      "forward-incompatible",
      "behind-1",
      ["s1", "s2"],
    ]);
    expect("cause" in groupAttention(pair("drained"))[0]!).toBe(false);
    const [alone] = groupAttention([{ ...pair("forward-incompatible", "behind-1")[0]!, level: "watch" }]);
    expect(alone).toEqual({
      level: "watch",
      kind: "forward-incompatible",
      cause: "behind-1",
      what: "forward-incompatible s1",
      action: "own action 0",
      subjects: ["s1"],
      members: [{ ...pair("forward-incompatible", "behind-1")[0]!, level: "watch" }],
    });
    expect("cause" in groupAttention([pair("drained")[0]!])[0]!).toBe(false);
  });

  it("ranks watch before info, and lines of equal size by their first item", () => {
    const item = (level: "act" | "watch" | "info", kind: string, subject: string): AttentionItem => ({
      level,
      kind,
      subject,
      what: `${level} ${kind} ${subject}`,
      action: "a",
    });
    expect(
      groupAttention([
        item("info", "x", "a"),
        item("watch", "y", "b"),
        item("watch", "z", "c"),
        item("act", "w", "d"),
      ]).map((g) => g.what),
    ).toEqual(["act w d", "watch y b", "watch z c", "info x a"]);
    // Two items of one kind kept apart in one subject, another between them: in the items' order.
    expect(
      groupAttention([
        item("act", "drained", "a"),
        item("act", "ready", "a"),
        { ...item("act", "drained", "a"), what: "2" },
      ]).map((g) => g.what),
    ).toEqual(["act drained a", "act ready a", "2"]);
  });
});
