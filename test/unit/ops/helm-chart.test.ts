import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseConfig } from "../../../src/config/load.js";
import { CHART_DASHBOARD_PATH, DASHBOARD_PATH } from "../../../grafana/src/dashboard.js";
import { CHART, helm, helmTemplate } from "./helm.js";
import { kustomize, unknownFields, validateManifest, type Manifest } from "./kubernetes.js";
import { CHART_RULES_PATH, RULES_PATH } from "./prometheusrule.js";

// The Helm chart, rendered by the real helm (nothing is installed): every object passes the same
// checks the kustomize manifests get (the Kubernetes and prometheus-operator schemas, no unknown field),
// and the chart's defaults render the same schemawatch container, pod volumes and config as
// deploy/kubernetes, so the two ways to install cannot drift apart.

type Container = Record<string, unknown> & { name: string; readinessProbe?: unknown };
type Deployment = Manifest & {
  spec: {
    replicas: number;
    selector: { matchLabels: Record<string, string> };
    template: {
      metadata: { labels: Record<string, string>; annotations: Record<string, string> };
      spec: { containers: Container[]; volumes: unknown[] };
    };
  };
};
type ConfigMap = Manifest & {
  data: Record<string, string>;
  metadata: { annotations?: Record<string, string> };
};

const CONFIG_PATH = "/etc/schemawatch/config.yaml";
const ALL_ON = ["serviceMonitor.enabled=true", "prometheusRule.enabled=true", "dashboard.enabled=true"];
const SIDECAR = ["mode=sidecar", ...ALL_ON];

const kinds = (all: Manifest[]) => all.map((o) => `${o.kind} ${o.metadata.name}`).sort();
const one = <T extends Manifest>(all: Manifest[], kind: string, name?: string): T => {
  const found = all.filter((o) => o.kind === kind && (name === undefined || o.metadata.name === name));
  expect(found, `exactly one ${kind} ${name ?? ""}`).toHaveLength(1);
  return found[0] as T;
};
const schemawatchOf = (d: Deployment) =>
  d.spec.template.spec.containers.find((c) => c.name === "schemawatch")!;

const kustomized = kustomize("deploy/kubernetes/overlays/standalone");
// kustomize names the config's ConfigMap by its content's hash; the chart by the release (and rolls
// the pods by a checksum annotation instead)
const kustomizedDeployment = JSON.parse(
  JSON.stringify(one<Deployment>(kustomized, "Deployment")).replace(
    /"schemawatch-config-[a-z0-9]{10}"/g,
    '"schemawatch-config"',
  ),
) as Deployment;

describe(`helm lint ${CHART}`, () => {
  it.each([[[]], [ALL_ON], [SIDECAR]])("passes --strict with %j", (set) => {
    const run = helm(["lint", CHART, "--strict", ...set.flatMap((s) => ["--set", s])]);
    expect(run.stdout + run.stderr).toContain("1 chart(s) linted, 0 chart(s) failed");
    expect(run.status).toBe(0);
  });
});

describe.each([
  ["standalone, defaults", "schemawatch", [] as string[]],
  ["standalone, all on", "prod", ALL_ON],
  ["sidecar, all on", "prod", SIDECAR],
])("helm template (%s)", (_, release, set) => {
  const all = helmTemplate(release, set);

  it("renders only objects that the Kubernetes and prometheus-operator schemas accept, with no unknown field", () => {
    expect(all.length).toBeGreaterThan(0);
    for (const object of all)
      expect(() => validateManifest(object), `${object.kind} ${object.metadata.name}`).not.toThrow();
    expect(unknownFields(all)).toEqual([]);
  });

  it("labels every object with the release, and keeps app.kubernetes.io/name schemawatch", () => {
    for (const object of all)
      expect(object.metadata.labels, `${object.kind} ${object.metadata.name}`).toMatchObject({
        "app.kubernetes.io/name": "schemawatch",
        "app.kubernetes.io/instance": release,
        "app.kubernetes.io/managed-by": "Helm",
        "helm.sh/chart": "schemawatch-0.1.0",
      });
  });

  it("mounts a config that the project's loader accepts, and the catalog it names", () => {
    const deployment = one<Deployment>(all, "Deployment");
    const config = one<ConfigMap>(
      all,
      "ConfigMap",
      release === "schemawatch" ? "schemawatch-config" : `${release}-schemawatch-config`,
    );
    const parsed = parseConfig(config.data["config.yaml"]!, CONFIG_PATH);
    // resolved against the config's folder, where the catalog's ConfigMap is mounted
    expect(parsed.subjects.map((s) => s.schemas)).toEqual(["/etc/schemawatch/schemas/event"]);
    const mounts = (schemawatchOf(deployment)["volumeMounts"] as { mountPath: string }[]).map(
      (m) => m.mountPath,
    );
    expect(mounts).toEqual([CONFIG_PATH, "/etc/schemawatch/schemas/event", "/var/lib/schemawatch", "/tmp"]);
    // a change of config rolls the pods: the pod template carries the ConfigMap's checksum
    const checksum = deployment.spec.template.metadata.annotations["checksum/config"];
    expect(checksum).toMatch(/^[0-9a-f]{64}$/);
    const schemas = one<ConfigMap>(
      all,
      "ConfigMap",
      release === "schemawatch" ? "schemawatch-schemas-event" : `${release}-schemawatch-schemas-event`,
    );
    const example = "examples/catalog/event";
    expect(
      Object.fromEntries(Object.entries(schemas.data).map(([f, t]) => [f, JSON.parse(t) as unknown])),
    ).toEqual(
      Object.fromEntries(
        readdirSync(example).map((f) => [f, JSON.parse(readFileSync(`${example}/${f}`, "utf8")) as unknown]),
      ),
    );
  });
});

describe("the chart's defaults", () => {
  const all = helmTemplate("schemawatch");

  it("render exactly the standalone workload, its config and catalog, Service and ServiceAccount", () => {
    expect(kinds(all)).toEqual([
      "ConfigMap schemawatch-config",
      "ConfigMap schemawatch-schemas-event",
      "Deployment schemawatch",
      "Service schemawatch",
      "ServiceAccount schemawatch",
    ]);
  });

  it("run the same container, pod and config as deploy/kubernetes/overlays/standalone", () => {
    const deployment = one<Deployment>(all, "Deployment");
    // the chart says its pull policy; kustomize leaves Kubernetes' default
    expect({ ...schemawatchOf(deployment), imagePullPolicy: undefined }).toEqual(
      schemawatchOf(kustomizedDeployment),
    );
    expect(schemawatchOf(deployment)["imagePullPolicy"]).toBe("IfNotPresent");
    expect(deployment.spec.template.spec.volumes).toEqual(kustomizedDeployment.spec.template.spec.volumes);
    const { containers: _c, ...pod } = deployment.spec.template.spec;
    const { containers: _k, ...kustomizedPod } = kustomizedDeployment.spec.template.spec;
    expect(pod).toEqual(kustomizedPod);
    expect(deployment.spec.replicas).toBe(1);
    const config = one<ConfigMap>(all, "ConfigMap", "schemawatch-config");
    expect(parse(config.data["config.yaml"]!)).toEqual(
      parse(readFileSync("deploy/kubernetes/base/config/config.yaml", "utf8")),
    );
  });

  it("select the pods by release: the Service and the Deployment agree", () => {
    const deployment = one<Deployment>(all, "Deployment");
    const service = one<Manifest & { spec: { selector: Record<string, string>; ports: unknown[] } }>(
      all,
      "Service",
    );
    const selector = { "app.kubernetes.io/name": "schemawatch", "app.kubernetes.io/instance": "schemawatch" };
    expect(service.spec.selector).toEqual(selector);
    expect(deployment.spec.selector.matchLabels).toEqual(selector);
    expect(deployment.spec.template.metadata.labels).toEqual(selector);
    expect(service.spec.ports).toEqual([
      { name: "metrics", port: 9464, targetPort: "metrics", protocol: "TCP" },
    ]);
  });

  it("roll the pods when the config changes, and only then", () => {
    const checksum = (set: string[]) =>
      one<Deployment>(helmTemplate("schemawatch", set), "Deployment").spec.template.metadata.annotations[
        "checksum/config"
      ];
    const before = checksum([]);
    expect(checksum(["replicaCount=3"])).toBe(before);
    expect(checksum(["config.kafka.groupId=other"])).not.toBe(before);
  });

  it("refuse a mode that is neither standalone nor sidecar", () => {
    const run = helm(["template", "schemawatch", CHART, "--set", "mode=daemonset"]);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('mode must be standalone or sidecar, not "daemonset"');
  });
});

describe("the chart with the ServiceMonitor, PrometheusRule and dashboard on", () => {
  const all = helmTemplate("prod", [
    ...ALL_ON,
    "serviceMonitor.labels.release=kps",
    "prometheusRule.labels.release=kps",
  ]);

  it("renders exactly those objects more", () => {
    expect(kinds(all)).toEqual([
      "ConfigMap prod-schemawatch-config",
      "ConfigMap prod-schemawatch-dashboard",
      "ConfigMap prod-schemawatch-schemas-event",
      "Deployment prod-schemawatch",
      "PrometheusRule prod-schemawatch",
      "Service prod-schemawatch",
      "ServiceAccount prod-schemawatch",
      "ServiceMonitor prod-schemawatch",
    ]);
  });

  it("scrapes the Service as job schemawatch whatever the release is called", () => {
    const service = one<Manifest>(all, "Service");
    const monitor = one<
      Manifest & {
        spec: { jobLabel: string; selector: { matchLabels: Record<string, string> }; endpoints: unknown[] };
      }
    >(all, "ServiceMonitor");
    expect(monitor.metadata.labels?.["release"]).toBe("kps");
    expect(monitor.spec.jobLabel).toBe("app.kubernetes.io/name");
    expect(service.metadata.labels?.[monitor.spec.jobLabel]).toBe("schemawatch");
    expect(service.metadata.labels).toMatchObject(monitor.spec.selector.matchLabels);
    expect(monitor.spec.endpoints).toEqual([
      { port: "metrics", path: "/metrics", interval: "30s", scrapeTimeout: "10s" },
    ]);
  });

  it("carries the rules of deploy/prometheus in its PrometheusRule", () => {
    const rule = one<Manifest & { spec: unknown }>(all, "PrometheusRule");
    expect(rule.metadata.labels?.["release"]).toBe("kps");
    expect(rule.spec).toEqual(parse(readFileSync(RULES_PATH, "utf8")));
  });

  it("hands Grafana's sidecar the dashboard of grafana/dashboards, by its label", () => {
    const dashboard = one<ConfigMap>(all, "ConfigMap", "prod-schemawatch-dashboard");
    expect(dashboard.metadata.labels?.["grafana_dashboard"]).toBe("1");
    expect(dashboard.metadata.annotations).toEqual({ grafana_folder: "schemawatch" });
    expect(Object.keys(dashboard.data)).toEqual(["schemawatch.json"]);
    expect(dashboard.data["schemawatch.json"]).toBe(readFileSync(DASHBOARD_PATH, "utf8").trimEnd());
  });
});

describe("the chart as a sidecar", () => {
  const all = helmTemplate("prod", SIDECAR);
  const deployment = one<Deployment>(all, "Deployment");

  it("renders the application's Deployment with schemawatch beside its container", () => {
    expect(deployment.metadata.name).toBe("checkout-consumer");
    expect(deployment.spec.replicas).toBe(2);
    expect(deployment.spec.template.spec.containers.map((c) => c.name)).toEqual([
      "checkout-consumer",
      "schemawatch",
    ]);
  });

  it("runs the standalone container but for the readiness probe: a sidecar never makes its pod NotReady", () => {
    const standalone = schemawatchOf(one<Deployment>(helmTemplate("prod", ALL_ON), "Deployment"));
    const { readinessProbe, ...rest } = standalone;
    expect(readinessProbe).toEqual({
      httpGet: { path: "/readyz", port: "metrics" },
      periodSeconds: 5,
      timeoutSeconds: 3,
      failureThreshold: 2,
    });
    expect(schemawatchOf(deployment)).toEqual(rest);
    for (const c of deployment.spec.template.spec.containers)
      expect(c.readinessProbe, c.name).toBeUndefined();
  });

  it("scrapes the application's pods, where the sidecar runs", () => {
    const service = one<Manifest & { spec: { selector: Record<string, string> } }>(all, "Service");
    const selector = { "app.kubernetes.io/name": "checkout-consumer", "app.kubernetes.io/instance": "prod" };
    expect(service.spec.selector).toEqual(selector);
    expect(deployment.spec.template.metadata.labels).toEqual(selector);
    expect(deployment.spec.selector.matchLabels).toEqual(selector);
    expect(service.metadata.labels?.["app.kubernetes.io/name"]).toBe("schemawatch");
  });
});

describe("the chart's files", () => {
  it("hold the rules and the dashboard as they are (else: node test/unit/ops/prometheusrule.ts; node grafana/src/build.ts)", () => {
    expect(readFileSync(CHART_RULES_PATH, "utf8")).toBe(readFileSync(RULES_PATH, "utf8"));
    expect(readFileSync(CHART_DASHBOARD_PATH, "utf8")).toBe(readFileSync(DASHBOARD_PATH, "utf8"));
  });
});
