// The spans domain code opens for one step of a request, as ports: the validation pipe and the media
// runner are given these at construction (null when tracing is off), so they never reach a tracer.
/** A child span of the current request, ended by the code that started it. */
export interface StepSpan {
  /** `failure`: why the step failed (an error or a short reason); omitted when it succeeded. */
  end(failure?: unknown): void;
}

/** Request validation; the validated DTO's model and parameters annotate the request's span. */
export type ValidationSpans = (dto: object) => StepSpan;

/** One ffmpeg/ffprobe run, by the binary's name. */
export type MediaSpans = (binary: string) => StepSpan;

/** `work`, ending `step` when it settles; `failureOf` names a failure a fulfilled result stands for. */
export function endStepWhenSettled<T>(step: StepSpan, work: Promise<T>, failureOf: (result: T) => string | undefined): Promise<T> {
  return work.then(
    (result) => {
      step.end(failureOf(result));
      return result;
    },
    (error: unknown) => {
      step.end(error);
      throw error;
    },
  );
}
