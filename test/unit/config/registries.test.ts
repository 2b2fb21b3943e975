import { describe, expect, it } from "vitest";

import { parseConfig } from "../../../src/config/load.js";

const REGISTRY = `registries:
  main:
    url: https://psrc-abc.europe-west1.gcp.confluent.cloud/
    auth:
      type: basic
      usernameEnv: SR_API_KEY
      passwordFile: secrets/sr-secret
`;

const SUBJECT = `subjects:
  - name: event
    topics: [events, events-eu]
    schemas: ./schemas
    registry:
      name: main
`;

describe("config: registries", () => {
  it("applies defaults, resolves secret files, and names the subject after the first topic", () => {
    const config = parseConfig(REGISTRY + SUBJECT, "/etc/sw/config.yaml");
    expect(config.registries).toEqual({
      main: {
        name: "main",
        url: "https://psrc-abc.europe-west1.gcp.confluent.cloud",
        auth: {
          type: "basic",
          usernameEnv: "SR_API_KEY",
          passwordFile: "/etc/sw/secrets/sr-secret",
          configFile: "/etc/sw/config.yaml",
        },
        pollInterval: 30_000,
        timeout: 10_000,
        retries: 2,
        lookupsInFlight: 4,
        lookupsPerSecond: 10,
        lookupCache: 10_000,
        lookupWait: 5_000,
        lookupWaitRecords: 1_000,
      },
    });
    expect(config.subjects[0]!.registry).toEqual({
      name: "main",
      subject: "events-value",
      labels: "number",
      versions: {},
    });
    expect(Object.isFrozen(config.registries["main"]!.auth)).toBe(true);
  });

  it("keeps a folder-only config as it was: no registries, no registry on the subject", () => {
    const config = parseConfig("subjects:\n  - name: e\n    topics: [t]\n    schemas: s\n", "/c.yaml");
    expect(config.registries).toEqual({});
    expect(config.subjects[0]!.registry).toBeUndefined();
  });

  it("takes every key: TLS, bearer token, intervals, subject, labels and per-version config", () => {
    const text = `registries:
  apicurio:
    url: https://registry.internal:8443/apis/ccompat/v7
    auth: { type: bearer, tokenFile: /run/secrets/token }
    tls: { ca: ca.pem, cert: client.pem, key: client.key, rejectUnauthorized: false }
    pollInterval: 5m
    timeout: 2500ms
    retries: 0
    lookupsInFlight: 2
    lookupsPerSecond: 50
    lookupCache: 500
    lookupWait: 0s
    lookupWaitRecords: 20
subjects:
  - name: event
    topics: [events]
    schemas: ./schemas
    registry:
      name: apicurio
      subject: com.example.Event
      labels: semver
      versions:
        "1": { status: deprecated, deprecatedSince: "2026-11-01", label: "1.0.0" }
        "3": { label: "1.1" }
`;
    const config = parseConfig(text, "/etc/sw/config.yaml");
    expect(config.registries["apicurio"]).toEqual({
      name: "apicurio",
      url: "https://registry.internal:8443/apis/ccompat/v7",
      auth: { type: "bearer", tokenFile: "/run/secrets/token", configFile: "/etc/sw/config.yaml" },
      tls: {
        ca: "/etc/sw/ca.pem",
        cert: "/etc/sw/client.pem",
        key: "/etc/sw/client.key",
        rejectUnauthorized: false,
      },
      pollInterval: 300_000,
      timeout: 2_500,
      retries: 0,
      lookupsInFlight: 2,
      lookupsPerSecond: 50,
      lookupCache: 500,
      lookupWait: 0,
      lookupWaitRecords: 20,
    });
    expect(config.subjects[0]!.registry).toEqual({
      name: "apicurio",
      subject: "com.example.Event",
      labels: "semver",
      versions: {
        "1": { status: "deprecated", deprecatedSince: "2026-11-01", label: "1.0.0" },
        "3": { label: "1.1" },
      },
    });
  });

  it.each([
    [
      "a registry that is not defined",
      REGISTRY + SUBJECT.replace("name: main", "name: other"),
      "c.yaml:13: subjects[0].registry.name: no registry 'other' under registries (known: main)",
    ],
    [
      "an unknown key under a registry",
      REGISTRY.replace("    auth:", "    pollintervall: 1m\n    auth:") + SUBJECT,
      "c.yaml:4: registries.main.pollintervall: unknown key 'pollintervall'",
    ],
    [
      "a version key that is not a registry version number",
      REGISTRY + SUBJECT + '      versions:\n        "1.0.0": { status: retired }\n',
      "c.yaml:15: subjects[0].registry.versions.1.0.0: registry version keys are the registry's version numbers, such as 3",
    ],
    [
      "a label without labels: semver",
      REGISTRY + SUBJECT + '      versions:\n        "2": { label: "1.1.0" }\n',
      "c.yaml:15: subjects[0].registry.versions.2.label: a label needs labels: semver (labels is number)",
    ],
    [
      "labels that do not rise with the version numbers",
      REGISTRY +
        SUBJECT +
        '      labels: semver\n      versions:\n        "2": { label: "1.1.0" }\n        "5": { label: "1.0.9" }\n',
      "c.yaml:17: subjects[0].registry.versions.5.label: 1.0.9 must be higher than the label of version 2 (1.1.0): labels rise with the registry's version numbers",
    ],
    [
      "basic auth without a password",
      REGISTRY.replace("      passwordFile: secrets/sr-secret\n", "") + SUBJECT,
      "c.yaml:4: registries.main.auth: passwordEnv or passwordFile is required with type basic",
    ],
    [
      "both a password variable and file",
      REGISTRY.replace("      passwordFile:", "      passwordEnv: SR_SECRET\n      passwordFile:") + SUBJECT,
      "c.yaml:8: registries.main.auth.passwordFile: set only one of passwordEnv and passwordFile",
    ],
    [
      "a token key with basic auth",
      REGISTRY.replace("      passwordFile:", "      tokenEnv: T\n      passwordFile:") + SUBJECT,
      "c.yaml:7: registries.main.auth.tokenEnv: not used with type basic",
    ],
    [
      "an auth type that does not exist",
      REGISTRY.replace("type: basic", "type: oauth") + SUBJECT,
      'c.yaml:5: registries.main.auth.type: must be one of "basic", "bearer"',
    ],
    [
      "TLS settings on an http:// registry",
      "registries:\n  local:\n    url: http://127.0.0.1:8081\n    tls: { ca: ca.pem }\n" +
        SUBJECT.replace("name: main", "name: local"),
      "c.yaml:4: registries.local.tls: TLS settings need an https:// url, and the url is http://",
    ],
    [
      "a URL that is not http(s)",
      "registries:\n  main:\n    url: ftp://registry\n" + SUBJECT,
      "c.yaml:3: registries.main.url: must match ^https?://",
    ],
    [
      "a poll interval below a second",
      "registries:\n  main:\n    url: http://r:8081\n    pollInterval: 200ms\n" + SUBJECT,
      "c.yaml:4: registries.main.pollInterval: at least 1s (every poll costs a few requests per subject)",
    ],
    [
      "records waiting for a lookup longer than a consumer may stay silent",
      "registries:\n  main:\n    url: http://r:8081\n    lookupWait: 30s\n" + SUBJECT,
      "c.yaml:4: registries.main.lookupWait: at most 20s (a record waiting for a lookup holds back its partition for that long)",
    ],
    [
      "more ids remembered than the image's heap holds (about 270 bytes each)",
      "registries:\n  main:\n    url: http://r:8081\n    lookupCache: 1000000\n" + SUBJECT,
      "c.yaml:4: registries.main.lookupCache: must be <= 100000",
    ],
    [
      "more lookups in flight than leave a connection for the polls",
      "registries:\n  main:\n    url: http://r:8081\n    lookupsInFlight: 7\n" + SUBJECT,
      "registries.main.lookupsInFlight",
    ],
    [
      "one registry subject read by two subjects",
      REGISTRY +
        SUBJECT +
        "  - name: copy\n    topics: [other]\n    schemas: s\n    registry: { name: main, subject: events-value }\n",
      "c.yaml:17: subjects[1].registry.subject: registry subject 'events-value' of 'main' is already read by subject 'event'",
    ],
  ])("refuses %s, naming the key and its line", (_what, text, message) => {
    expect(() => parseConfig(text, "c.yaml")).toThrow(message);
  });

  it("refuses credentials in the URL without repeating them", () => {
    const text = "registries:\n  main:\n    url: https://KEY:hunter22@registry.example.com\n" + SUBJECT;
    let message = "";
    try {
      parseConfig(text, "c.yaml");
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(
      "c.yaml:3: registries.main.url: put credentials under auth (usernameEnv, passwordFile …), not in the URL",
    );
    expect(message).not.toContain("hunter22");
  });
});
