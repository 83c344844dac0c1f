// Input the scheduler cannot decide on (an invalid seed selector, a malformed region config): the decision fails
// with this message, as Gardener's reconciler returns the error, and is retried.
export class SchedulingInputError extends Error {
  override readonly name = 'SchedulingInputError';
}
