import { mayRunLong } from "../../catalog/cost.js";
import type { CatalogSubject } from "../../catalog/types.js";
import type { ValidationBudget } from "../../engine/budget.js";
import type { ResultMessage, SampleJob } from "./job.js";
import { JobValidator } from "./validate.js";

/**
 * Validation on the consumer's thread (`workers: 0`) within the time budget. A subject whose readers
 * all validate in linear time (`mayRunLong`: no backtracking pattern, no `uniqueItems`, no asserted
 * format, no unseen `$ref`) is validated at once, as without a budget: its time is bounded by the
 * record's size. Records of other subjects are validated with the workers' own code when the batch is
 * flushed, within one or a few `node:vm` runs whose timeout stops a validation past the budget. A vm
 * run starts and joins a watchdog thread (tens of microseconds of CPU, more on a loaded machine), so
 * it covers a batch, never a single record.
 */
export class InThreadValidation {
  readonly #shapes: boolean;
  readonly #budget: ValidationBudget;
  readonly #assertFormats: boolean;
  readonly #here = new WeakMap<CatalogSubject, boolean>();
  #validator: JobValidator | undefined;
  #ids = 0;

  constructor(shapes: boolean, budget: ValidationBudget, assertFormats: boolean) {
    this.#assertFormats = assertFormats;
    this.#shapes = shapes;
    this.#budget = budget;
  }

  /** Subjects whose readers all validate in linear time: their records need neither job nor watchdog. */
  validatesHere(subject: CatalogSubject): boolean {
    let here = this.#here.get(subject);
    if (here === undefined) {
      here = !subject.readers.some((reader) => mayRunLong(reader, this.#assertFormats));
      this.#here.set(subject, here);
    }
    return here;
  }

  /** `subjects`: the pipeline's current subjects by config index (they change with reloads). */
  async validate(
    job: SampleJob,
    subjects: ReadonlyArray<CatalogSubject | undefined>,
  ): Promise<ResultMessage> {
    if (!this.#validator?.judges(subjects))
      this.#validator = new JobValidator(subjects, 0, this.#shapes, this.#budget, this.#assertFormats);
    // The event loop turns between vm runs: /healthz and /metrics answer while a batch is judged.
    return this.#validator.validateYielding(job.message(++this.#ids), job.documents);
  }
}
