import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

const SYSTEM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** Which Chromium drives the panel, and where it came from. */
export interface ChromiumBinary {
  path: string;
  from: 'CHROMIUM_PATH' | 'system' | '@sparticuz/chromium';
}

/**
 * CHROMIUM_PATH, else a system Chromium, else the one `@sparticuz/chromium` ships inside its npm
 * package (unpacked to the temp folder on first use), so `npm ci && npm test` needs no system browser.
 */
export async function findChromium(): Promise<ChromiumBinary> {
  const fromEnv = process.env.CHROMIUM_PATH ?? '';
  if (fromEnv !== '' && existsSync(fromEnv)) return { path: fromEnv, from: 'CHROMIUM_PATH' };
  const system = SYSTEM_CANDIDATES.find((p) => existsSync(p));
  if (system) return { path: system, from: 'system' };
  const packaged = (await import('@sparticuz/chromium')).default;
  return { path: await packaged.executablePath(), from: '@sparticuz/chromium' };
}

export async function launchChromium(): Promise<{ browser: Browser; binary: ChromiumBinary }> {
  const binary = await findChromium();
  // Our own flags, not the packaged browser's Lambda set (which turns web security off and would
  // hide the CSP violations the panel test looks for). --no-sandbox: CI runs as root, where
  // Chromium's sandbox refuses to start; the rest keep it off a network this machine does not have.
  const browser = await chromium.launch({
    executablePath: binary.path,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return { browser, binary };
}
