/** An error a mock's API answers with: one of its codes, the status it gives that code, and details. */
export class MockApiError<Code extends string = string> extends Error {
  constructor(
    readonly code: Code,
    readonly status: number,
    message: string,
    readonly details?: object,
  ) {
    super(message);
  }
}

/** `{ code, message, details? }`: what every mock's failure body says of its error. */
export function errorFields(error: MockApiError): { code: string; message: string; details?: object } {
  return {
    code: error.code,
    message: error.message,
    ...(error.details ? { details: error.details } : {}),
  };
}
