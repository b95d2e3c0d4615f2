// Runs the transcription and diarization calls side by side: a failure of either cancels the
// other (no point finishing work whose result will be thrown away) and is the error reported.

/** Both calls run at once; the first failure cancels the other and is the one reported. */
export async function settleTogether<A, B>(signal: AbortSignal, run: (signal: AbortSignal) => [Promise<A>, Promise<B>]): Promise<[A, B]> {
  const cancel = new AbortController();
  let firstFailure: { error: unknown } | undefined;
  const fail = (error: unknown): never => {
    firstFailure ??= { error };
    cancel.abort();
    throw error;
  };
  const [a, b] = run(AbortSignal.any([signal, cancel.signal]));
  const results = await Promise.allSettled([a.catch(fail), b.catch(fail)]);
  if (firstFailure) throw firstFailure.error;
  return results.map((result) => (result as PromiseFulfilledResult<unknown>).value) as [A, B];
}
