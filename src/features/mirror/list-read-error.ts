/**
 * A list the mirror read could not be made whole: what it read and what the service counts kept
 * disagreeing, or two reads of it never agreed. The read fails and what the mirror holds stays.
 */
export class ListReadError extends Error {
  override readonly name = 'ListReadError';
}
