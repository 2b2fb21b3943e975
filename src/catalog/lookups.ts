/**
 * Where a wire id or GUID the catalog does not know is looked up (the subject's registry). Called for
 * every such record, so it must cost nothing while a lookup is in flight or backing off. Each returns
 * the lookup in flight for the id, settled once its answer took effect (a version the registry knows
 * is in the catalog), or undefined when none is (answered, backing off, or skipped at a bound).
 */
export interface IdLookups {
  request(id: number): PromiseLike<unknown> | undefined;
  /** `guid` as 32 lower-case hex digits. */
  requestGuid(guid: string): PromiseLike<unknown> | undefined;
  /** An Apicurio globalId or contentId; absent where the registry cannot look one up. */
  requestNative?(kind: "globalId" | "contentId", id: number): PromiseLike<unknown> | undefined;
  /** Milliseconds a record may wait for the lookup of its id (default 0: it never waits). */
  readonly wait?: number;
  /** Records waiting for lookups at most; those past it are counted at once. */
  readonly waitRecords?: number;
}
