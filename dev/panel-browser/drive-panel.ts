import type { Browser, Page } from 'playwright-core';
import type { PanelAccess } from '../sandbox';

export interface PanelVisit {
  /** Rows in the online players table once loaded. */
  playerRows: number;
  /** Rows left after searching for `searched`. */
  searched: { query: string; rows: number };
  /** Non-background pixels drawn on the chart's canvas. */
  chartPixels: number;
  doctorLines: string;
  /** Every URL the page asked for. */
  requests: string[];
  /** Console errors and CSP violations. */
  errors: string[];
  /** At phone width, the outermost elements wider than the screen (none when the page fits). */
  widerThanPhone: string[];
}

/** Logs in with the token, waits for the data, searches players, runs doctor, takes a screenshot. */
export async function drivePanel(
  browser: Browser,
  access: PanelAccess,
  screenshotPath: string,
): Promise<PanelVisit> {
  // A locale as an owner's browser has one (this machine's C locale reaches Chromium as `en-US@posix`).
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    deviceScaleFactor: 1,
    locale: 'en-US',
  });
  const page = await context.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  try {
    await page.goto(access.url);
    await page.fill('#token', access.token);
    await Promise.all([page.waitForURL(access.url), page.click('button[type=submit]')]);
    // The login page itself answers 401; from here on, any error counts.
    errors.length = 0;
    await page.waitForSelector('body[data-loaded="true"]', { timeout: 15_000 }).catch((error: Error) => {
      throw new Error(
        `the page never showed its data: ${error.message}; page errors: ${errors.join(' | ') || 'none'}`,
      );
    });
    await page.waitForSelector('#players tbody tr');
    const playerRows = await page.locator('#players tbody tr').count();
    const chartPixels = await inkOnChart(page);

    const query = (await page.locator('#players tbody tr td:nth-child(2)').first().textContent()) ?? '';
    await page.fill('#player-search', query);
    const searchedRows = await page.locator('#players tbody tr').count();
    await page.fill('#player-search', '');

    await page.click('#run-doctor');
    await page.waitForSelector('#doctor-lines', { timeout: 20_000 });
    const doctorLines = (await page.textContent('#doctor-lines')) ?? '';
    // One more refresh so the doctor's requests show in the chart and the screenshot is current.
    await page.waitForTimeout(4500);
    await page.screenshot({ path: screenshotPath, fullPage: true });

    await page.setViewportSize({ width: 390, height: 844 });
    // Evaluated in the page (as text: this file is compiled without the DOM's types).
    // The chart follows its container's width on the next resize callback, not at once: give the
    // page a moment to lay out at the new width before judging.
    const fits = 'document.documentElement.scrollWidth <= window.innerWidth + 1';
    await page.waitForFunction(fits, undefined, { timeout: 15_000 }).catch(() => {});
    const wider = await page.evaluate(`(() => {
      if (${fits}) return [];
      const all = [...document.querySelectorAll('body *')];
      return all
        .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
        .filter((e) => !all.some((p) => p !== e && p.contains(e) && p.getBoundingClientRect().right > window.innerWidth + 1 && getComputedStyle(p).overflowX !== 'visible'))
        .slice(0, 5)
        .map((e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + ' ' + Math.round(e.getBoundingClientRect().right) + 'px');
    })()`);
    return {
      playerRows,
      searched: { query, rows: searchedRows },
      chartPixels,
      doctorLines,
      requests,
      errors,
      widerThanPhone: wider as string[],
    };
  } finally {
    await context.close();
  }
}

/** Counts pixels on the chart's canvas that are not transparent: proof it drew something. */
async function inkOnChart(page: Page): Promise<number> {
  const ink = await page.evaluate(`(() => {
    const canvas = document.querySelector('#rate-chart canvas');
    const context = canvas && canvas.getContext('2d');
    if (!canvas || !context || canvas.width === 0) return 0;
    const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
    let ink = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) ink++;
    return ink;
  })()`);
  return Number(ink);
}
