/**
 * The message of anything caught, for a log line or another error's text. A thrown value need not
 * be an Error: an object with a string `message` gives that, anything else its string form.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string')
    return error.message;
  return String(error);
}
