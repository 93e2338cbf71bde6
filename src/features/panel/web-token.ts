import { createHash, timingSafeEqual } from 'node:crypto';

/** The shortest `roster_web_token` accepted: shorter ones are guessable through the lock-out. */
export const MIN_WEB_TOKEN_LENGTH = 16;

export type WebTokenSetting =
  | { state: 'off' }
  | { state: 'on'; token: string }
  | { state: 'invalid'; problem: string };

/** Reads the convar's value: empty turns the panel off, a short one is refused with a reason. */
export function webTokenSetting(raw: string): WebTokenSetting {
  const token = raw.trim();
  if (token === '') return { state: 'off' };
  if (token.length < MIN_WEB_TOKEN_LENGTH) {
    return {
      state: 'invalid',
      problem: `roster_web_token must be at least ${MIN_WEB_TOKEN_LENGTH} characters (it has ${token.length}); the owner's panel stays off.`,
    };
  }
  return { state: 'on', token };
}

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * A comparison whose time does not depend on where the candidate differs, nor on its length:
 * both sides are hashed to 32 bytes first, then compared with `timingSafeEqual`.
 */
export function tokenMatcher(token: string): (candidate: string) => boolean {
  const expected = digest(token);
  return (candidate) => timingSafeEqual(digest(candidate), expected);
}
