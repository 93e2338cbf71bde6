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
  /** True when, at phone width, nothing is wider than the screen. */
  fitsPhone: boolean;
}

/** Logs in with the token, waits for the data, searches players, runs doctor, takes a screenshot. */
export async function drivePanel(
  browser: Browser,
  access: PanelAccess,
  screenshotPath: string,
): Promise<PanelVisit> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
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
    const fitsPhone =
      (await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth + 1')) === true;
    return {
      playerRows,
      searched: { query, rows: searchedRows },
      chartPixels,
      doctorLines,
      requests,
      errors,
      fitsPhone,
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
