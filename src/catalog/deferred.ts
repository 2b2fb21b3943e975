import type { Validator } from "./compiler.js";

/** A validator whose schema is compiled on its first call (or on `compile`), once. */
export interface DeferredValidator extends Validator {
  /** Compiles now if not yet; the compiled validator. */
  readonly compile: () => Validator;
}

/**
 * A validator that compiles on first need. Called as a method of an object that holds it as
 * `validate` (a catalog version), it puts the compiled validator there, so that later calls run the
 * compiled code directly; called otherwise, it forwards each call and copies the errors.
 */
export function deferredValidator(compile: () => Validator): DeferredValidator {
  let compiled: Validator | undefined;
  const now = (): Validator => (compiled ??= warm(compile()));
  const deferred = function (this: unknown, document: unknown): boolean {
    const validator = now();
    const holder = this as { validate?: Validator } | undefined;
    if (typeof holder === "object" && holder !== null && holder.validate === deferred)
      holder.validate = validator;
    const passed = validator(document);
    deferred.errors = validator.errors;
    return passed;
  } as Validator;
  Object.defineProperty(deferred, "compile", { value: now });
  return deferred as DeferredValidator;
}

/**
 * Runs a validator once on nothing: V8 compiles a function's body on its first call, which for a
 * large schema's validator takes milliseconds that belong to the compilation, not to the first
 * record's validation (and its time budget).
 */
function warm(validator: Validator): Validator {
  try {
    validator(undefined);
  } catch {
    // Whatever a validator throws, it throws on a record as it always did.
  }
  validator.errors = null;
  return validator;
}

export function isDeferred(validator: Validator): validator is DeferredValidator {
  return typeof (validator as Partial<DeferredValidator>).compile === "function";
}

/**
 * Compiles what `holder.validate` defers, and puts the compiled validator in its place; true when
 * that happened now. A schema that was proven to compile at load time cannot fail here; if it did,
 * the error (SCHEMA_INVALID, naming the version) is thrown.
 */
export function compileDeferred(holder: { readonly validate: Validator }): boolean {
  const validate = holder.validate;
  if (!isDeferred(validate)) return false;
  (holder as { validate: Validator }).validate = validate.compile();
  return true;
}
