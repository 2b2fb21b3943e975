import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { requireTool } from "../../helpers/prometheus.js";

// The rules must pass promtool's own checks and unit tests (Debian's prometheus package, installed by
// scripts/prometheus.sh; missing promtool fails these tests rather than skipping them), and every alert
// must be documented, labelled and tested both firing and staying quiet.

const RULES = "deploy/prometheus/schemawatch.rules.yaml";
const TESTS_DIR = "deploy/prometheus/tests";
const RUNBOOK = "docs/runbook.md";

interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
interface RuleTestFile {
  tests: {
    alert_rule_test?: { alertname: string; exp_alerts?: unknown[] }[];
    promql_expr_test?: { expr: string }[];
  }[];
}

const rules = (parse(readFileSync(RULES, "utf8")) as { groups: { rules: Rule[] }[] }).groups.flatMap(
  (g) => g.rules,
);
const alerts = rules.filter((r) => r.alert !== undefined);
const testFiles = readdirSync(TESTS_DIR)
  .filter((f) => f.endsWith(".yaml"))
  .map((f) => join(TESTS_DIR, f));

function promtool(...args: string[]) {
  const result = spawnSync(requireTool("promtool"), args, { encoding: "utf8" });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replaceAll(" ", "-");
}

describe("deploy/prometheus rules", () => {
  it("pass promtool check rules", () => {
    const { status, output } = promtool("check", "rules", RULES);
    expect(status, output).toBe(0);
  });

  it("pass promtool test rules", () => {
    expect(testFiles.length).toBeGreaterThan(0);
    const { status, output } = promtool("test", "rules", ...testFiles);
    expect(status, output).toBe(0);
  });

  it("give every alert a for, a known severity, a summary, a description and a runbook section", () => {
    expect(alerts.length).toBeGreaterThan(0);
    const sections = new Set(
      readFileSync(RUNBOOK, "utf8")
        .split("\n")
        .filter((line) => line.startsWith("## "))
        .map((line) => anchor(line.slice(3))),
    );
    for (const rule of alerts) {
      const name = rule.alert ?? "";
      expect(rule.for, name).toMatch(/^\d+[smh]$/);
      expect(["critical", "warning", "info"], name).toContain(rule.labels?.["severity"]);
      expect(rule.annotations?.["summary"], name).toBeTruthy();
      expect(rule.annotations?.["description"], name).toBeTruthy();
      expect(rule.annotations?.["runbook_url"], name).toBe(`${RUNBOOK}#${anchor(name)}`);
      expect(sections.has(anchor(name)), `${RUNBOOK} has no section "## ${name}"`).toBe(true);
    }
  });

  it("test every alert both firing and staying quiet", () => {
    const firing = new Set<string>();
    const quiet = new Set<string>();
    for (const file of testFiles) {
      const parsed = parse(readFileSync(file, "utf8")) as RuleTestFile;
      for (const group of parsed.tests) {
        for (const test of group.alert_rule_test ?? []) {
          ((test.exp_alerts ?? []).length > 0 ? firing : quiet).add(test.alertname);
        }
      }
    }
    const names = alerts.map((r) => r.alert ?? "");
    expect(
      names.filter((n) => !firing.has(n)),
      "alerts never tested firing",
    ).toEqual([]);
    expect(
      names.filter((n) => !quiet.has(n)),
      "alerts never tested quiet",
    ).toEqual([]);
    expect(
      [...firing, ...quiet].filter((n) => !names.includes(n)),
      "tests of unknown alerts",
    ).toEqual([]);
  });

  it("exercise every recording rule in a unit test, an alert or another recording rule", () => {
    const tested = testFiles.flatMap((file) =>
      (parse(readFileSync(file, "utf8")) as RuleTestFile).tests.flatMap((g) =>
        (g.promql_expr_test ?? []).map((t) => t.expr),
      ),
    );
    const used = [...tested, ...rules.map((r) => r.expr)].join("\n");
    const unused = rules
      .map((r) => r.record)
      .filter((name): name is string => name !== undefined && !used.includes(name));
    expect(unused).toEqual([]);
  });
});
