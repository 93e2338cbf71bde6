import type { IncomingMessage } from 'node:http';
import { readJsonBody as readBody } from '../mock-http/json-body';
import { validationError } from './api-error';

const BODY_LIMIT = 1_000_000;

/** Reads the body as JSON; validation_error naming `Content-Type` or `body` when it is not usable JSON. */
export function readJsonBody(req: IncomingMessage): Promise<unknown> {
  return readBody(req, BODY_LIMIT, validationError);
}
