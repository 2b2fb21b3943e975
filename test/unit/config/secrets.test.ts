// A secret's environment variable is set where the process starts, far from the config file that
// names it: the message names both, read from a real config as the monitor and the commands read it.
import { pino } from "pino";
import { describe, expect, it } from "vitest";

import { parseConfig } from "../../../src/config/load.js";
import { secretFromEnv } from "../../../src/config/secrets.js";
import { buildKafkaConfig } from "../../../src/kafka/connection.js";
import { registryCredentials } from "../../../src/registry/secrets.js";

const SUBJECT = `subjects:
  - name: event
    topics: [events]
    schemas: ./schemas
`;

async function refusal(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("no error");
}

describe("a missing secret variable", () => {
  it("of Kafka's SASL names the config file, the key and the variable", async () => {
    const text = `kafka:\n  sasl:\n    mechanism: plain\n    username: bob\n    passwordEnv: KAFKA_PASSWORD\n${SUBJECT}`;
    const config = parseConfig(text, "/etc/sw/config.yaml");
    expect(await refusal(buildKafkaConfig(config.kafka, {}, pino({ level: "silent" })))).toBe(
      "/etc/sw/config.yaml: kafka.sasl.passwordEnv: the environment variable KAFKA_PASSWORD (the SASL password) is not set or empty",
    );
  });

  it("of a registry's auth names the config file, the key and the variable", async () => {
    const text = `registries:\n  main:\n    url: https://sr.example.com\n    auth: { type: bearer, tokenEnv: SR_TOKEN }\n${SUBJECT}`;
    const config = parseConfig(text, "/etc/sw/config.yaml");
    expect(await refusal(registryCredentials(config.registries["main"]!, { SR_TOKEN: "" }))).toBe(
      "/etc/sw/config.yaml: registries.main.auth.tokenEnv: the environment variable SR_TOKEN (the registry token) is not set or empty",
    );
  });

  it("without a config file (settings built in code) names the key alone", () => {
    expect(() => secretFromEnv({}, "X", "kafka.sasl.usernameEnv", "SASL user name", undefined)).toThrow(
      "kafka.sasl.usernameEnv: the environment variable X (the SASL user name) is not set or empty",
    );
  });
});
