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
  phone: PhoneView;
}

/** The tables an owner reads first and the decision times' histogram, as seen on a phone. */
export interface PhoneView {
  /** Elements in the joins and players tables reaching past the screen's edges. */
  pastTheEdge: string[];
  /** The joins and players tables' boxes that scroll sideways. */
  sidewaysScroll: string[];
  /** The first row's decision, department, rank, hours and job, as an owner sees them without scrolling sideways. */
  firstRows: { column: string; text: string; onScreen: boolean }[];
  /** Rows of the players table with no player in them. */
  rowsWithoutPlayer: number;
  /** The row showing the most departments: whose, and the departments in it. */
  mostDepartments: { player: string; shown: string[] };
  /** Pairs of the histogram's labels that overlap. */
  overlappingLabels: string[];
}

/** Where the screenshots go: the page as on a desktop and as on a phone. */
export interface PanelScreenshots {
  wide: string;
  phone: string;
}

/** A phone's width in CSS pixels (an iPhone mini, SE or 13 mini: the narrowest in common use). */
export const PHONE_WIDTH = 375;

/** Logs in with the token, waits for the data, searches players, runs doctor, takes screenshots. */
export async function drivePanel(
  browser: Browser,
  access: PanelAccess,
  screenshots: PanelScreenshots,
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
    await page.screenshot({ path: screenshots.wide, fullPage: true });

    await page.setViewportSize({ width: PHONE_WIDTH, height: 812 });
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
    const phone = await lookAsPhone(page);
    await page.screenshot({ path: screenshots.phone, fullPage: true });
    return {
      playerRows,
      searched: { query, rows: searchedRows },
      chartPixels,
      doctorLines,
      requests,
      errors,
      widerThanPhone: wider as string[],
      phone,
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

/**
 * Measures the page at phone width as it stands (no sideways scrolling done). A cell counts as on
 * screen when its text lies inside the screen and is what the browser finds at that point: not
 * clipped by a box scrolled or cut short. Text boxes are measured through a Range, which also sees
 * cells the style sheet lays out without a box of their own.
 */
async function lookAsPhone(page: Page): Promise<PhoneView> {
  const view = await page.evaluate(`(() => {
    const width = window.innerWidth;
    const name = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ').join('.') : '') + (e.dataset && e.dataset.label ? '[' + e.dataset.label + ']' : '');
    const tables = ['#joins table', '#players table'].map((s) => document.querySelector(s)).filter(Boolean);
    const pastTheEdge = [];
    const sidewaysScroll = [];
    for (const table of tables) {
      for (const e of [table, ...table.querySelectorAll('*')]) {
        const r = e.getBoundingClientRect();
        if (r.width > 0 && (r.left < -1 || r.right > width + 1)) pastTheEdge.push(name(e) + ' ' + Math.round(r.left) + '..' + Math.round(r.right) + 'px');
      }
      for (let box = table; box && box !== document.body; box = box.parentElement) {
        if (box.scrollWidth > box.clientWidth + 1 && getComputedStyle(box).overflowX !== 'visible') sidewaysScroll.push(name(box) + ' ' + box.scrollWidth + ' > ' + box.clientWidth + 'px');
      }
    }
    // A row's cell in a column, found by the column's heading.
    const cellIn = (section, row, column) => {
      const at = [...document.querySelectorAll(section + ' thead th')].findIndex((th) => (th.textContent || '').trim() === column);
      return row && at >= 0 ? row.children[at] || null : null;
    };
    const firstRows = [];
    const wanted = [['#joins', 'decision'], ['#players', 'department'], ['#players', 'rank'], ['#players', 'hours (7 d)'], ['#players', 'job']];
    for (const [section, column] of wanted) {
      const cell = cellIn(section, document.querySelector(section + ' tbody tr'), column);
      if (!cell) { firstRows.push({ column: section + ' ' + column, text: '', onScreen: false }); continue; }
      const range = document.createRange();
      range.selectNodeContents(cell);
      let r = range.getBoundingClientRect();
      // Bring the row into the screen's height (only ever scrolling down, never sideways).
      window.scrollTo(0, Math.max(0, window.scrollY + r.top - window.innerHeight / 2));
      r = range.getBoundingClientRect();
      const hit = r.width > 0 ? document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height, 16) / 2) : null;
      const onScreen = r.width > 0 && r.left >= -1 && r.right <= width + 1 && window.scrollX === 0 && hit !== null && cell.contains(hit);
      firstRows.push({ column: section + ' ' + column, text: (cell.textContent || '').trim(), onScreen });
    }
    window.scrollTo(0, 0);
    const rows = [...document.querySelectorAll('#players tbody tr')];
    const playerIn = (row) => (cellIn('#players', row, 'player')?.textContent || '').trim();
    const rowsWithoutPlayer = rows.filter((row) => playerIn(row) === '').length;
    let mostDepartments = { player: '', shown: [] };
    for (const row of rows) {
      const cell = cellIn('#players', row, 'department');
      const lines = !cell ? [] : (cell.children.length > 0 ? [...cell.children] : [cell]).map((l) => (l.textContent || '').trim());
      if (lines.length > mostDepartments.shown.length) mostDepartments = { player: playerIn(row), shown: lines };
    }
    const labels = [...document.querySelectorAll('#joins .bars small')].map((e) => ({ text: e.textContent, r: e.getBoundingClientRect() }));
    const overlappingLabels = [];
    for (let i = 0; i < labels.length; i++)
      for (let j = i + 1; j < labels.length; j++) {
        const a = labels[i].r, b = labels[j].r;
        if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) overlappingLabels.push(labels[i].text + ' / ' + labels[j].text);
      }
    return { pastTheEdge: pastTheEdge.slice(0, 10), sidewaysScroll, firstRows, rowsWithoutPlayer, mostDepartments, overlappingLabels };
  })()`);
  return view as PhoneView;
}
