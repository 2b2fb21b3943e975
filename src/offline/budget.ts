import { firstFailure, type Validator } from "../catalog/compiler.js";
import { isDeferred } from "../catalog/deferred.js";
import { backtrackingPatterns } from "../catalog/regexp.js";
import { DEFAULT_VALIDATION_TIMEOUT_MS, ValidationBudget } from "../engine/budget.js";
import { SchemawatchError } from "../errors.js";

/** A schema an offline command validates with, and what names it in a message. */
export interface BudgetSchema {
  /** Its file (or registry subject and version). */
  readonly name: string;
  readonly json: unknown;
  readonly validate: Validator;
}

/** A document an offline command validates, and what names it in a message. */
export interface BudgetDocument {
  readonly name: string;
  readonly path?: string;
  readonly json: unknown;
}

/** One validation's outcome: the first failure when it failed. */
export interface Judged {
  readonly passed: boolean;
  readonly keyword: string | null;
  readonly instancePath: string | null;
}

/**
 * The live monitor's time budget (`validationTimeout`) for the offline commands: a document whose
 * validation exceeds it stops the command with a message naming the document and the schema's
 * patterns that backtrack, instead of a command that never ends.
 */
export class DocumentBudget {
  readonly #budget: ValidationBudget;

  constructor(ms: number = DEFAULT_VALIDATION_TIMEOUT_MS) {
    this.#budget = new ValidationBudget(ms);
  }

  /** Each document against its schema, in order; throws VALIDATION_TIMEOUT for the first past the budget. */
  judge(pairs: ReadonlyArray<readonly [BudgetSchema, BudgetDocument]>): Judged[] {
    // A schema compiled on its first use compiles here, outside the budget: the budget times
    // validations, and a compilation stopped by it would read as the document's timeout.
    for (const [schema] of pairs) if (isDeferred(schema.validate)) schema.validate.compile();
    const out = new Array<Judged>(pairs.length);
    this.#budget.run(
      pairs.length,
      (i) => {
        const [schema, document] = pairs[i]!;
        const passed = schema.validate(document.json);
        const failure = passed ? undefined : firstFailure(schema.validate);
        out[i] = { passed, keyword: failure?.keyword ?? null, instancePath: failure?.instancePath ?? null };
      },
      (i) => {
        const [schema, document] = pairs[i]!;
        throw timeoutError(schema, document, this.#budget.ms);
      },
    );
    return out;
  }
}

function timeoutError(schema: BudgetSchema, document: BudgetDocument, ms: number): SchemawatchError {
  const suspects = backtrackingPatterns(schema.json);
  const where =
    suspects.length > 0
      ? `the schema's patterns that backtrack (lookaround or backreferences, which the linear-time engine cannot run): ${suspects
          .map((s) => `pattern at ${schema.name}#${s.pointer} /${s.pattern}/`)
          .join(", ")}; rewrite them without lookaround and backreferences`
      : "no pattern of the schema backtracks: a very large document against uniqueItems can be this slow";
  return new SchemawatchError(
    "VALIDATION_TIMEOUT",
    `${document.path ?? document.name}: its validation against ${schema.name} did not finish within ` +
      `${ms} ms (validationTimeout) and was stopped; ${where}`,
  );
}
