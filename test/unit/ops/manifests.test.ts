import { readFileSync, readdirSync } from "node:fs";
import { posix } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseConfig } from "../../../src/config/load.js";
import { kustomize, unknownFields, validateManifest } from "./kubernetes.js";
import type { Manifest } from "./kubernetes.js";
import { PROMETHEUS_RULE_PATH, RULES_PATH, renderPrometheusRule } from "./prometheusrule.js";

// Renders both overlays with the real kustomize, validates every object against the Kubernetes and
// prometheus-operator schemas (kubernetes-models) and for unknown fields, and checks that the pieces
// fit: probes, security context, resources, the Service and ServiceMonitor reaching the pods, the
// config and schemas mounted where the config and the image expect them.

const OVERLAYS = ["standalone", "sidecar"] as const;
const CONFIG_PATH = "/etc/schemawatch/config.yaml";

interface Probe {
  httpGet?: { path?: string; port?: string | number };
  periodSeconds?: number;
  timeoutSeconds?: number;
  failureThreshold?: number;
}
interface Container {
  name: string;
  image?: string;
  args?: string[];
  env?: { name: string; value?: string }[];
  ports?: { name?: string; containerPort: number }[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  securityContext?: {
    allowPrivilegeEscalation?: boolean;
    readOnlyRootFilesystem?: boolean;
    runAsNonRoot?: boolean;
    capabilities?: { drop?: string[] };
  };
  volumeMounts?: { name: string; mountPath: string; subPath?: string; readOnly?: boolean }[];
}
interface PodSpec {
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
  containers: Container[];
  volumes?: { name: string; configMap?: { name: string }; emptyDir?: object }[];
  automountServiceAccountToken?: boolean;
}
interface DeploymentLike extends Manifest {
  spec: {
    selector: { matchLabels: Record<string, string> };
    template: { metadata: { labels: Record<string, string> }; spec: PodSpec };
  };
}

const rendered = new Map(
  OVERLAYS.map((overlay) => [overlay, kustomize(`deploy/kubernetes/overlays/${overlay}`)]),
);

function objects(overlay: (typeof OVERLAYS)[number]): Manifest[] {
  return rendered.get(overlay) ?? [];
}
function one<T extends Manifest>(all: Manifest[], kind: string, name?: string): T {
  const found = all.filter((o) => o.kind === kind && (name === undefined || o.metadata.name === name));
  expect(
    found.map((o) => o.metadata.name),
    `exactly one ${kind} ${name ?? ""}`,
  ).toHaveLength(1);
  return found[0] as T;
}
function workload(all: Manifest[]): { deployment: DeploymentLike; pod: PodSpec; container: Container } {
  const deployments = all.filter((o): o is DeploymentLike => o.kind === "Deployment");
  const deployment = deployments.find((d) =>
    d.spec.template.spec.containers.some((c) => c.name === "schemawatch"),
  );
  if (deployment === undefined) throw new Error("no Deployment with a schemawatch container");
  const pod = deployment.spec.template.spec;
  const container = pod.containers.find((c) => c.name === "schemawatch") as Container;
  return { deployment, pod, container };
}

describe.each(OVERLAYS)("deploy/kubernetes/overlays/%s", (overlay) => {
  it("renders only objects that the Kubernetes and prometheus-operator schemas accept", () => {
    const all = objects(overlay);
    expect(all.map((o) => o.kind).sort()).toEqual(
      [
        "ConfigMap",
        "ConfigMap",
        "Deployment",
        "PrometheusRule",
        "Service",
        "ServiceAccount",
        "ServiceMonitor",
      ].sort(),
    );
    for (const object of all)
      expect(() => validateManifest(object), `${object.kind} ${object.metadata.name}`).not.toThrow();
  });

  it("uses no field the schemas do not define", () => {
    expect(unknownFields(objects(overlay))).toEqual([]);
  });

  it("runs schemawatch non-root on a read-only root filesystem, with probes and resources", () => {
    const { pod, container } = workload(objects(overlay));
    expect(pod.securityContext?.runAsNonRoot).toBe(true);
    expect(pod.securityContext?.runAsUser).toBeGreaterThan(0);
    expect(pod.automountServiceAccountToken).toBe(false);
    for (const c of pod.containers) {
      expect(c.securityContext, c.name).toMatchObject({
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        runAsNonRoot: true,
        capabilities: { drop: ["ALL"] },
      });
      expect(c.resources?.requests?.["memory"], c.name).toBeDefined();
      expect(c.resources?.limits?.["memory"], c.name).toBeDefined();
    }
    // the figures behind them: test/unit/ops/memory.test.ts
    expect(container.resources).toEqual({
      requests: { cpu: "100m", memory: "320Mi" },
      limits: { memory: "320Mi" },
    });
    // The heap limits that kept the benchmark's peaks at 166-230 MB (BENCHMARKS.md).
    expect(container.env).toContainEqual({
      name: "NODE_OPTIONS",
      value: "--max-old-space-size=96 --max-semi-space-size=8",
    });
    // the process answers: nothing about Kafka, a registry or partitions
    expect(container.livenessProbe?.httpGet).toEqual({ path: "/healthz", port: "metrics" });
    expect(container.startupProbe?.httpGet).toEqual({ path: "/healthz", port: "metrics" });
    expect(container.image).toBe("schemawatch:0.1.0");
    expect(container.args).toEqual(["run", "--config", CONFIG_PATH]);
  });

  it("is scraped: the Service selects the pods and the ServiceMonitor the Service, as job schemawatch", () => {
    const all = objects(overlay);
    const { deployment, container } = workload(all);
    const service = one<
      Manifest & { spec: { selector: Record<string, string>; ports: { name: string; targetPort: string }[] } }
    >(all, "Service");
    // the ServiceMonitor's job label is the Service's name, and the rules ask for job="schemawatch"
    expect(service.metadata.name).toBe("schemawatch");
    expect(deployment.spec.template.metadata.labels).toMatchObject(service.spec.selector);
    expect(deployment.spec.selector.matchLabels).toMatchObject(service.spec.selector);
    const port = service.spec.ports[0];
    expect(container.ports?.map((p) => p.name)).toContain(port?.targetPort);
    const monitor = one<
      Manifest & {
        spec: { selector: { matchLabels: Record<string, string> }; endpoints: { port: string }[] };
      }
    >(all, "ServiceMonitor");
    expect(service.metadata.labels).toMatchObject(monitor.spec.selector.matchLabels);
    expect(monitor.spec.endpoints.map((e) => e.port)).toEqual([port?.name]);
  });

  it("mounts a valid config where the entry point reads it, and the schemas where the config points", () => {
    const all = objects(overlay);
    const { pod, container } = workload(all);
    const configMaps = all.filter(
      (o): o is Manifest & { data: Record<string, string> } => o.kind === "ConfigMap",
    );
    const mountOf = (path: string) => container.volumeMounts?.find((m) => m.mountPath === path);
    const mapOf = (volume: string | undefined) => {
      const name = pod.volumes?.find((v) => v.name === volume)?.configMap?.name;
      return configMaps.find((c) => c.metadata.name === name);
    };

    const configMount = mountOf(CONFIG_PATH);
    expect(configMount?.subPath).toBe("config.yaml");
    const configText = mapOf(configMount?.name)?.data[configMount?.subPath ?? ""];
    expect(configText, "config.yaml in a ConfigMap").toBeTypeOf("string");
    // the project's own loader: schema, defaults and cross-checks, exactly as `schemawatch run` does
    const config = parseConfig(configText ?? "", CONFIG_PATH);
    expect(config.http.host).toBe("0.0.0.0");
    expect(container.ports?.find((p) => p.name === "metrics")?.containerPort).toBe(config.http.port);

    for (const subject of config.subjects) {
      const schemasMount = mountOf(subject.schemas ?? "");
      expect(schemasMount, `a volume mounted at ${subject.schemas}`).toBeDefined();
      const files = mapOf(schemasMount?.name)?.data ?? {};
      const examples = `examples/catalog/${posix.basename(subject.schemas ?? "")}`;
      // the manifests ship the article's example catalog: keep them the same as examples/
      const expected = Object.fromEntries(
        readdirSync(examples).map((f) => [
          f,
          JSON.parse(readFileSync(`${examples}/${f}`, "utf8")) as unknown,
        ]),
      );
      const actual = Object.fromEntries(
        Object.entries(files).map(([f, text]) => [f, JSON.parse(text) as unknown]),
      );
      expect(actual).toEqual(expected);
    }
    // a read-only root filesystem needs somewhere to write the state file and temporary files
    expect(mountOf("/var/lib/schemawatch")).toBeDefined();
    expect(mountOf("/tmp")).toBeDefined();
  });

  it("carries the rules of deploy/prometheus in its PrometheusRule", () => {
    const rule = one<Manifest & { spec: { groups: unknown } }>(objects(overlay), "PrometheusRule");
    expect(rule.spec.groups).toEqual((parse(readFileSync(RULES_PATH, "utf8")) as { groups: unknown }).groups);
  });
});

describe("deploy/kubernetes", () => {
  it("keeps the PrometheusRule generated from the rules file (else run: node test/unit/ops/prometheusrule.ts)", () => {
    expect(readFileSync(PROMETHEUS_RULE_PATH, "utf8")).toBe(
      renderPrometheusRule(readFileSync(RULES_PATH, "utf8")),
    );
  });

  it("asks /readyz for readiness standalone only: a sidecar never makes its application's pod NotReady", () => {
    const standalone = workload(objects("standalone")).container;
    expect(standalone.readinessProbe).toEqual({
      httpGet: { path: "/readyz", port: "metrics" },
      periodSeconds: 5,
      timeoutSeconds: 3,
      failureThreshold: 2,
    });
    // In the sidecar's pod no container has a readiness probe on schemawatch's port or paths: a broker
    // or registry away, or no partition for this replica, leaves the application Ready.
    const { pod } = workload(objects("sidecar"));
    for (const c of pod.containers) {
      const probes = [c.readinessProbe, c.livenessProbe, c.startupProbe].filter((p) => p !== undefined);
      if (c.name === "schemawatch") {
        expect(c.readinessProbe, "the schemawatch sidecar's readiness probe").toBeUndefined();
        expect(probes.map((p) => p.httpGet?.path)).toEqual(["/healthz", "/healthz"]);
      } else {
        for (const probe of probes) expect(probe.httpGet?.path, c.name).not.toBe("/readyz");
      }
    }
  });

  it("runs the same schemawatch container standalone and as a sidecar, but for the readiness probe", () => {
    const { readinessProbe, ...standalone } = workload(objects("standalone")).container;
    expect(readinessProbe).toBeDefined();
    expect(workload(objects("sidecar")).container).toEqual(standalone);
    expect(workload(objects("sidecar")).pod.volumes).toEqual(workload(objects("standalone")).pod.volumes);
  });

  it("rejects an object that breaks its schema", () => {
    const { deployment } = workload(objects("standalone"));
    const broken = structuredClone(deployment) as unknown as { spec: Record<string, unknown> };
    broken.spec["replicas"] = "two";
    expect(() => validateManifest(broken as unknown as Manifest)).toThrow(/replicas/);
  });

  it("reports an unknown field that the OpenAPI schemas let through", () => {
    const { deployment } = workload(objects("standalone"));
    const typo = structuredClone(deployment);
    const container = typo.spec.template.spec.containers[0] as unknown as Record<string, unknown>;
    container["securityContext"] = { readOnlyRootFileSystem: true };
    expect(() => validateManifest(typo)).not.toThrow();
    expect(unknownFields([typo]).join("\n")).toMatch(/readOnlyRootFileSystem/);
  });
});
