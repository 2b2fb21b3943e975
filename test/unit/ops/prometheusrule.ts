// Keeps deploy/kubernetes/base/prometheusrule.yaml in step with deploy/prometheus/schemawatch.rules.yaml,
// the file promtool checks and tests: the PrometheusRule's spec.groups is that file's groups, as they are;
// and the Helm chart's copy of the rules file (CHART_RULES_PATH) the same bytes.
//   node test/unit/ops/prometheusrule.ts            (write)
//   node test/unit/ops/prometheusrule.ts --check    (exit 1 when stale)
// test/unit/ops/manifests.test.ts fails when the committed file differs from what this renders.
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { parse, stringify } from "yaml";

export const RULES_PATH = "deploy/prometheus/schemawatch.rules.yaml";
export const PROMETHEUS_RULE_PATH = "deploy/kubernetes/base/prometheusrule.yaml";
/** The Helm chart's copy of the rules file, as it is (a chart reads files inside its own folder only). */
export const CHART_RULES_PATH = "deploy/helm/schemawatch/files/schemawatch.rules.yaml";

const HEADER = `# Generated from ${RULES_PATH} by \`node test/unit/ops/prometheusrule.ts\`:
# edit that file, not this one. A Prometheus whose ruleSelector asks for a label (often
# \`release: <name>\`) needs it added in the kustomization, not here.
`;

/** The PrometheusRule manifest for the rules file's text. */
export function renderPrometheusRule(rulesYaml: string): string {
  const rules = parse(rulesYaml) as { groups: unknown[] };
  const manifest = {
    apiVersion: "monitoring.coreos.com/v1",
    kind: "PrometheusRule",
    metadata: { name: "schemawatch", labels: { "app.kubernetes.io/name": "schemawatch" } },
    spec: { groups: rules.groups },
  };
  return HEADER + stringify(manifest, { lineWidth: 0 });
}

if (import.meta.main) {
  const root = fileURLToPath(new URL("../../../", import.meta.url));
  const rules = await readFile(root + RULES_PATH, "utf8");
  const outputs: [string, string][] = [
    [PROMETHEUS_RULE_PATH, renderPrometheusRule(rules)],
    [CHART_RULES_PATH, rules],
  ];
  for (const [path, fresh] of outputs) {
    if (process.argv.includes("--check")) {
      const committed = await readFile(root + path, "utf8").catch(() => "");
      if (committed !== fresh) {
        console.error(`${path} is stale: run 'node test/unit/ops/prometheusrule.ts'`);
        process.exitCode = 1;
      }
    } else {
      await writeFile(root + path, fresh);
      console.log(`wrote ${path}`);
    }
  }
}
