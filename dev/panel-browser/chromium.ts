import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** Debian's `chromium` (or CHROMIUM_PATH); throws a message that says how to install it. */
export function chromiumPath(): string {
  const found = [process.env.CHROMIUM_PATH ?? '', ...CANDIDATES].find((p) => p !== '' && existsSync(p));
  if (!found) {
    throw new Error(
      'no Chromium found (looked at CHROMIUM_PATH and /usr/bin/chromium): install it with `apt-get install -y chromium`',
    );
  }
  return found;
}

export function launchChromium(): Promise<Browser> {
  // --no-sandbox: CI containers run as root, where Chromium's sandbox refuses to start.
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: ['--no-sandbox'] });
}
