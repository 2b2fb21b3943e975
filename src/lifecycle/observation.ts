import type { Coverage } from "./coverage.js";
import type { CandidateEvidence, UnreadableEvidence } from "./evidence.js";
import type { FieldUse } from "./field-evidence.js";

/**
 * What the monitor knows of the world beyond the evidence, read when the lifecycle judges: a
 * registry that does not answer, records still waiting for their schema id, and, with several
 * replicas, what the others saw. Every part is optional: a capture has none of them.
 */
export interface World {
  /**
   * The subject's schema registry while it does not answer, and since when (epoch ms): a version
   * registered meanwhile may be what its records carry, so no deprecated version is drained.
   */
  registryDown?(subject: string): { registry: string; since: number } | undefined;
  /**
   * Records of a topic not counted yet: they wait for the registry's answer about their schema id,
   * so their version is not known yet (the pipeline's held records).
   */
  waitingForLookups?(topic: string): number;
  /** With a shared state topic: this replica's candidate evidence merged with the other replicas'. */
  candidates?(subject: string, version: string, own: CandidateEvidence): CandidateEvidence;
  /** With a shared state topic: this replica's unreadable records merged with the other replicas'. */
  unreadable?(subject: string, own: UnreadableEvidence[]): UnreadableEvidence[];
  /**
   * With a shared state topic: this replica's uses of a field merged with the other replicas'
   * (`mergeFieldUses`), and the latest time any replica began to track the field (-Infinity: all
   * along).
   */
  fieldUses?(
    subject: string,
    pointer: string,
    own: readonly FieldUse[],
  ): { readonly uses: FieldUse[]; readonly trackedSince: number };
  /**
   * With a shared state topic: from when the group's field evidence is whole, that is when a replica
   * that does not share its field evidence (a version before it did) was last heard of, or when the
   * first replica that does started; -Infinity when every replica always did.
   */
  fieldsSince?(): number;
}

/** What a verdict reads: the coverage of every partition, the partitions the brokers list, the world. */
export interface Observation {
  readonly coverage: Coverage;
  /** Partitions of each topic as the brokers report them (all of them, not only this member's). */
  readonly knownPartitions: ReadonlyMap<string, ReadonlySet<number>>;
  readonly world: World;
}
