import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, posix, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseConfig } from "../../../src/config/load.js";
import { requireTool } from "../../helpers/prometheus.js";

// deploy/compose.yaml cannot be run here (no Docker engine), so it is checked by reading: every file it
// mounts exists, schemawatch's config passes the project's own loader, Prometheus' config passes
// promtool with the rules where the container sees them, and Grafana's provisioning finds the
// dashboard and the data source where compose puts them.

const COMPOSE = "deploy/compose.yaml";
const BASE = dirname(COMPOSE);

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  volumes?: string[];
  ports?: string[];
  depends_on?: Record<string, unknown> | string[];
}
const compose = parse(readFileSync(COMPOSE, "utf8"), { merge: true }) as {
  services: Record<string, Service>;
};
const services = compose.services;
const scratch = mkdtempSync(join(tmpdir(), "schemawatch-compose-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Mount {
  host: string;
  container: string;
}
/** Bind mounts (host paths start with . or /); named volumes are left out. */
function binds(service: Service): Mount[] {
  return (service.volumes ?? []).flatMap((spec) => {
    const [host = "", container = ""] = spec.split(":");
    return host.startsWith(".") || host.startsWith("/") ? [{ host: resolve(BASE, host), container }] : [];
  });
}
/** The host file or folder that a container path is read from, through the service's bind mounts. */
function hostPath(service: Service, path: string): string | undefined {
  for (const mount of binds(service)) {
    if (path === mount.container) return mount.host;
    if (path.startsWith(`${mount.container}/`))
      return join(mount.host, path.slice(mount.container.length + 1));
  }
  return undefined;
}
function service(name: string): Service {
  const found = services[name];
  if (found === undefined) throw new Error(`${COMPOSE} has no service ${name}`);
  return found;
}
function flag(command: readonly string[] | undefined, name: string): string | undefined {
  const i = (command ?? []).indexOf(name);
  return i < 0 ? undefined : command?.[i + 1];
}

describe("deploy/compose.yaml", () => {
  it("has Kafka, two demo producers, schemawatch, Prometheus and Grafana", () => {
    expect(Object.keys(services).sort()).toEqual(
      [
        "grafana",
        "kafka",
        "kafka-init",
        "producer-v1-0",
        "producer-v1-1",
        "prometheus",
        "schemawatch",
      ].sort(),
    );
    expect(service("kafka").image).toMatch(/^apache\/kafka:4\./);
    expect(service("schemawatch").build).toEqual({ context: "..", dockerfile: "Dockerfile" });
    expect(existsSync(resolve(BASE, "..", "Dockerfile"))).toBe(true);
  });

  it("mounts only files and folders that exist", () => {
    for (const [name, s] of Object.entries(services)) {
      for (const mount of binds(s)) expect(existsSync(mount.host), `${name}: ${mount.host}`).toBe(true);
    }
  });

  it("publishes ports on 127.0.0.1 only", () => {
    for (const [name, s] of Object.entries(services)) {
      for (const port of s.ports ?? []) expect(port, name).toMatch(/^127\.0\.0\.1:/);
    }
  });

  it("gives schemawatch a valid config whose schemas are mounted and whose versions the producers send", () => {
    const watch = service("schemawatch");
    const configPath = flag(watch.command, "--config") ?? "";
    const configFile = hostPath(watch, configPath);
    expect(configFile, `${configPath} is mounted`).toBeDefined();
    const config = parseConfig(readFileSync(configFile ?? "", "utf8"), configPath);
    expect(config.http.host).toBe("0.0.0.0");
    expect(watch.ports).toContain(`127.0.0.1:${config.http.port}:${config.http.port}`);
    for (const subject of config.subjects) {
      const schemas = hostPath(watch, subject.schemas ?? "");
      expect(schemas !== undefined && existsSync(schemas), `${subject.schemas} is mounted`).toBe(true);
    }
    const versions = Object.keys(config.subjects[0]?.versions ?? {});
    const sent = ["producer-v1-0", "producer-v1-1"].map((name) => {
      const command = service(name).command;
      expect(command?.[0], name).toBe("demo-produce");
      expect(flag(command, "--brokers"), name).toBe(config.kafka.brokers[0]);
      expect(config.subjects[0]?.topics, name).toContain(flag(command, "--topic"));
      return flag(command, "--version");
    });
    expect(sent).toEqual(["1.0.0", "1.1.0"]);
    for (const version of sent) expect(versions).toContain(version);
  });

  it("gives Prometheus a config that promtool accepts, with the project's rules, scraping schemawatch", () => {
    const prometheus = service("prometheus");
    const configPath = flag(prometheus.command?.map((c) => c.split("=")).flat(), "--config.file") ?? "";
    const hostConfig = hostPath(prometheus, configPath) ?? "";
    const config = parse(readFileSync(hostConfig, "utf8")) as {
      global: { scrape_interval: string };
      rule_files: string[];
      scrape_configs: { job_name: string; static_configs: { targets: string[] }[] }[];
    };
    const job = config.scrape_configs.find((c) => c.job_name === "schemawatch");
    const watchConfig = parseConfig(
      readFileSync("deploy/compose/schemawatch.yaml", "utf8"),
      "/etc/schemawatch/config.yaml",
    );
    expect(job?.static_configs[0]?.targets).toEqual([`schemawatch:${watchConfig.http.port}`]);

    // lay the container's /etc/prometheus out in a folder, with rule_files rewritten into it
    const root = join(scratch, "prometheus");
    for (const mount of binds(prometheus)) {
      const target = join(root, mount.container);
      mkdirSync(dirname(target), { recursive: true });
      cpSync(mount.host, target);
    }
    const rewritten = { ...config, rule_files: config.rule_files.map((f) => join(root, f)) };
    const checked = join(root, "checked.yml");
    writeFileSync(checked, JSON.stringify(rewritten));
    const result = spawnSync(requireTool("promtool"), ["check", "config", checked], { encoding: "utf8" });
    expect(result.status, `${result.stdout}${result.stderr}`).toBe(0);
    // zero rule files would also pass: make sure the project's rules were among those checked
    expect(`${result.stdout}${result.stderr}`).toMatch(/schemawatch\.rules\.yaml[\s\S]*SUCCESS/);
  });

  it("provisions Grafana with the Prometheus data source and the generated dashboard", () => {
    const grafana = service("grafana");
    const datasourceFile = hostPath(grafana, "/etc/grafana/provisioning/datasources/prometheus.yaml") ?? "";
    const datasources = parse(readFileSync(datasourceFile, "utf8")) as {
      datasources: { type: string; url: string; isDefault: boolean; jsonData: { timeInterval: string } }[];
    };
    const prometheus = datasources.datasources.find((d) => d.type === "prometheus");
    expect(prometheus?.url).toBe("http://prometheus:9090");
    expect(prometheus?.isDefault).toBe(true);
    const scrape = parse(readFileSync("deploy/compose/prometheus.yml", "utf8")) as {
      global: { scrape_interval: string };
    };
    // $__rate_interval is computed from it: it must be the real scrape interval
    expect(prometheus?.jsonData.timeInterval).toBe(scrape.global.scrape_interval);

    const providersFile = hostPath(grafana, "/etc/grafana/provisioning/dashboards/schemawatch.yaml") ?? "";
    const providers = parse(readFileSync(providersFile, "utf8")) as {
      providers: { options: { path: string } }[];
    };
    const dashboards = hostPath(grafana, providers.providers[0]?.options.path ?? "") ?? "";
    expect(existsSync(join(dashboards, "schemawatch.json"))).toBe(true);
    const home = (grafana as { environment?: Record<string, string> }).environment?.[
      "GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH"
    ];
    expect(existsSync(hostPath(grafana, home ?? "") ?? ""), `home dashboard ${home}`).toBe(true);
    expect(posix.dirname(home ?? "")).toBe(providers.providers[0]?.options.path);
  });
});
