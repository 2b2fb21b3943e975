import type { SubjectConfig, SubjectRegistryConfig } from "../../config/types.js";
import { messageOf } from "../../errors.js";
import type { Verdict } from "../../lifecycle/verdicts.js";
import type { Report } from "../../report/model.js";
import { getJson } from "../http-client.js";

export type RegistrySubject = SubjectConfig & { registry: SubjectRegistryConfig };

/**
 * What the monitor said: the verdict; why there is none to act on (`refused`); or that the monitor
 * could not be asked (`failed`: no answer, an error status, an answer that is no report), which
 * automation must tell apart from a refusal.
 */
export type Judgement = { verdict: Verdict; where: string } | { refused: string[] } | { failed: string };

/** The monitor's drained verdict on the version now; refused when there is no verdict to act on. */
export async function judge(
  url: string,
  subject: RegistrySubject,
  registry: string,
  registrySubject: string,
  label: string,
): Promise<Judgement> {
  let report: Report;
  try {
    report = (await getJson(url, "/api/report")) as Report;
  } catch (error) {
    return { failed: messageOf(error) };
  }
  const entry = report.subjects.find((s) => s.subject === subject.name);
  if (!entry || entry.registry?.name !== registry || entry.registry.subject !== registrySubject) {
    return {
      refused: [
        `the monitor at ${url} does not follow '${registrySubject}' of registry '${registry}' as subject '${subject.name}': does it run with this config?`,
      ],
    };
  }
  const version = entry.versions.find((v) => v.version === label);
  if (!version) {
    return {
      refused: [
        `the monitor at ${url} has no version ${label} of ${subject.name} yet: wait for its next registry poll`,
      ],
    };
  }
  if (!version.verdict || version.verdict.kind !== "drained") {
    return {
      refused: [
        `${subject.name} ${label} is ${version.status} in the monitor: only a deprecated version can drain; deprecate it first (its registry state DEPRECATED, or status: deprecated in the config)`,
      ],
    };
  }
  return { verdict: version.verdict, where: url };
}
