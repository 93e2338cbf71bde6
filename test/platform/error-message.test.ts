import { describe, expect, it } from 'vitest';
import { errorMessage } from '../../src/platform/error-message';

describe('errorMessage', () => {
  it('is the message of an Error, or of anything thrown that carries a string message', () => {
    expect(errorMessage(new TypeError('bad input'))).toBe('bad input');
    expect(errorMessage({ message: 'socket hang up', code: 'ECONNRESET' })).toBe('socket hang up');
  });

  it('is the string form of anything else, never a crash', () => {
    expect(errorMessage('boom')).toBe('boom');
    expect(errorMessage(undefined)).toBe('undefined');
    expect(errorMessage(null)).toBe('null');
    expect(errorMessage({ message: 42 })).toBe('[object Object]');
  });
});
