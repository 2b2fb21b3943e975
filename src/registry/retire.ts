import type { RegistryClient } from "./client.js";

/** One request of a retirement, as the plan prints it and `applyRetirement` sends it. */
export interface RegistryCall {
  readonly method: "PUT" | "DELETE";
  /** The full URL, for the plan. */
  readonly url: string;
  /** The path the client sends: from the host's root (`root`) or from the Confluent API's base. */
  readonly path: string;
  readonly root: boolean;
  readonly body?: unknown;
}

export interface RetirementPlan {
  /** `apicurio`: its native API's state DISABLED; `confluent`: a soft delete through the Confluent API. */
  readonly kind: "apicurio" | "confluent";
  readonly calls: readonly RegistryCall[];
  /**
   * Who and when an earlier retirement labelled the version, when it stopped before the state call
   * (Apicurio): the plan is then that state call alone, and the labels stay as that run wrote them.
   */
  readonly resumed?: { readonly by: string; readonly at: string };
}

/** What `applyRetirement` did: every call, or the ones sent before the call that failed. */
export type Applied =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly done: readonly RegistryCall[];
      readonly failed: RegistryCall;
      readonly error: unknown;
    };

export interface Retirement {
  readonly subject: string;
  readonly version: number;
  /** Who retires it, recorded where the registry can keep it (Apicurio's version labels). */
  readonly actor: string;
  /** ISO time of the retirement. */
  readonly at: string;
}

/** The labels an Apicurio version carries once `prune` retired it. */
export const RETIRED_BY_LABEL = "schemawatch.retired-by";
export const RETIRED_AT_LABEL = "schemawatch.retired-at";

const seg = encodeURIComponent;

/**
 * The registry calls that retire a version, reversibly and never for good:
 *
 * - Apicurio Registry 3 (its native API answers beside the Confluent one): the version's labels get
 *   who and when (its other labels kept), then its state becomes `DISABLED`. The Confluent API stops
 *   serving it, its id still resolves, and setting the state back to `ENABLED` undoes it.
 * - Any other registry with the Confluent API: a soft delete, `DELETE /subjects/S/versions/N`. Never
 *   `?permanent=true`: a hard delete would make the id unresolvable for records still in the topics.
 *   Confluent fixes a version's metadata at registration, so who and when are only in prune's output.
 */
export async function planRetirement(
  client: RegistryClient,
  retirement: Retirement,
): Promise<RetirementPlan> {
  const { subject, version } = retirement;
  const native = await client.nativeApi();
  if (native === undefined) {
    const path = `/subjects/${seg(subject)}/versions/${version}`;
    return {
      kind: "confluent",
      calls: [{ method: "DELETE", path, root: false, url: client.http.urlOf(path, false) }],
    };
  }
  const versionPath = `${native}/groups/default/artifacts/${seg(subject)}/versions/${version}`;
  const meta = await client.http.getFromRoot(versionPath);
  const labels =
    typeof meta === "object" && meta !== null && typeof (meta as { labels?: unknown }).labels === "object"
      ? ((meta as { labels: Record<string, unknown> }).labels ?? {})
      : {};
  const stateCall: RegistryCall = {
    method: "PUT",
    path: `${versionPath}/state`,
    root: true,
    url: client.http.urlOf(`${versionPath}/state`, true),
    body: { state: "DISABLED" },
  };
  const by = labels[RETIRED_BY_LABEL];
  if (typeof by === "string") {
    // The labels are the first call: a version that has them and is not retired is one whose state
    // call failed. Finishing keeps the record of who decided and when.
    const at = labels[RETIRED_AT_LABEL];
    return { kind: "apicurio", calls: [stateCall], resumed: { by, at: typeof at === "string" ? at : "?" } };
  }
  return {
    kind: "apicurio",
    calls: [
      {
        method: "PUT",
        path: versionPath,
        root: true,
        url: client.http.urlOf(versionPath, true),
        body: {
          labels: { ...labels, [RETIRED_BY_LABEL]: retirement.actor, [RETIRED_AT_LABEL]: retirement.at },
        },
      },
      stateCall,
    ],
  };
}

/**
 * Sends the plan's calls in order; the first that fails stops it, and the answer says which calls
 * were sent before it, so a retirement that stopped half-way can be said and finished.
 */
export async function applyRetirement(client: RegistryClient, plan: RetirementPlan): Promise<Applied> {
  const done: RegistryCall[] = [];
  for (const call of plan.calls) {
    try {
      if (call.method === "DELETE") await client.http.delete(call.path);
      else await client.http.putToRoot(call.path, call.body);
    } catch (error) {
      return { ok: false, done, failed: call, error };
    }
    done.push(call);
  }
  return { ok: true };
}

/** A call as the plan prints it: `PUT URL BODY`. */
export function formatCall(call: RegistryCall): string {
  return `${call.method} ${call.url}${call.body !== undefined ? ` ${JSON.stringify(call.body)}` : ""}`;
}
