import { ApiError } from '../../shared/api/client.ts';

/**
 * What to tell the renter about a failed sign-in call: the server's own words whenever it answered
 * with our error body (its messages are written for renters, 5xx included); otherwise a plain note.
 */
export function signInErrorMessage(err: unknown): string {
  if (err instanceof ApiError && err.code && err.message) return err.message;
  if (err instanceof ApiError) return 'Something went wrong on our side. Please try again in a moment.';
  return 'We could not reach Ampere. Check your connection and try again.';
}
