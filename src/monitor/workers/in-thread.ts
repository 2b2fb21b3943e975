import type { CatalogSubject } from "../../catalog/types.js";
import type { ValidationBudget } from "../../engine/budget.js";
import type { ResultMessage, SampleJob } from "./job.js";
import { JobValidator } from "./validate.js";

/**
 * Validation on the consumer's thread (`workers: 0`) with the workers' own code: the sampled records of
 * a batch are validated when the batch is flushed, all within one or a few `node:vm` runs whose timeout
 * stops a validation that exceeds the budget. Per record, a vm run would cost more than the validation
 * itself (it starts a watchdog thread); per batch it costs a few microseconds a record at most.
 */
export class InThreadValidation {
  readonly #subjects: () => ReadonlyArray<CatalogSubject | undefined>;
  readonly #shapes: boolean;
  readonly #budget: ValidationBudget;
  #validator: JobValidator | undefined;
  #ids = 0;

  /** `subjects`: the pipeline's current subjects by config index (they change with reloads). */
  constructor(
    subjects: () => ReadonlyArray<CatalogSubject | undefined>,
    shapes: boolean,
    budget: ValidationBudget,
  ) {
    this.#subjects = subjects;
    this.#shapes = shapes;
    this.#budget = budget;
  }

  async validate(job: SampleJob): Promise<ResultMessage> {
    const subjects = this.#subjects();
    if (!this.#validator?.judges(subjects))
      this.#validator = new JobValidator(subjects, 0, this.#shapes, this.#budget);
    // The event loop turns between vm runs: /healthz and /metrics answer while a batch is judged.
    return this.#validator.validateYielding(job.message(++this.#ids), job.documents);
  }
}
