/**
 * Every error a user can act on carries a stable code, a message that names the file, key or record
 * and the problem, and the underlying `cause` when there is one. Only the CLI entry point turns these
 * into exit codes.
 */
export type ErrorCode =
  | "USAGE"
  | "FILE_UNREADABLE"
  | "FILE_UNWRITABLE"
  | "NOT_JSON"
  | "NOT_YAML"
  | "CONFIG_INVALID"
  | "SCHEMA_INVALID"
  | "SCHEMA_DUPLICATE_VERSION"
  | "VERSION_INVALID"
  | "SUBJECT_UNKNOWN"
  | "VERSION_UNKNOWN"
  | "FIELD_UNKNOWN"
  | "SOURCE_INVALID"
  | "STATE_INVALID"
  | "HTTP_FAILED"
  | "BATCH_UNDECODABLE"
  | "VALIDATION_TIMEOUT"
  | "CODEC_UNSUPPORTED"
  | "REGISTRY_UNAVAILABLE"
  | "REGISTRY_UNAUTHORIZED"
  | "REGISTRY_NOT_FOUND"
  | "REGISTRY_REJECTED"
  | "REGISTRY_INVALID"
  /** A stop was asked for while start-up still waited on the network (not a failure: exit 0). */
  | "STOPPED";

export class SchemawatchError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "SchemawatchError";
    this.code = code;
  }
}

export function isSchemawatchError(error: unknown): error is SchemawatchError {
  return error instanceof SchemawatchError;
}

/** The message of an unknown thrown value, for wrapping it as a `cause`. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
