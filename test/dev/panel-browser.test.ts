import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { launchChromium } from '../../dev/panel-browser/chromium';
import { drivePanel, type PanelVisit } from '../../dev/panel-browser/drive-panel';
import { runSandbox } from '../../dev/sandbox';

// Chromium driven by playwright-core against the sandbox: a system one if there is one, else the
// one @sparticuz/chromium ships in its npm package, so a fresh clone needs nothing else installed.
// One visit (desktop width, then phone width); the tests below read what it saw.
let visit: PanelVisit | null = null;
let origin = '';

beforeAll(async () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'roster-panel-'));
  const screenshots = { wide: path.join(folder, 'panel.png'), phone: path.join(folder, 'panel-phone.png') };
  const { browser, binary } = await launchChromium();
  console.log(`panel browser: ${binary.from} Chromium ${browser.version()} (${binary.path})`);
  try {
    await runSandbox({
      print: () => {},
      panel: async (access) => {
        origin = new URL(access.url).origin;
        visit = await drivePanel(browser, access, screenshots);
      },
    });
  } finally {
    await browser.close();
  }
  console.log(`panel screenshots: ${screenshots.wide}, ${screenshots.phone}`);
}, 120_000);

function seen(): PanelVisit {
  const v = visit as PanelVisit | null;
  if (v === null) throw new Error('the panel was never visited');
  return v;
}

it('an owner signs in to the panel, sees online players and the chart, and runs doctor', () => {
  const v = seen();
  expect(v.playerRows).toBeGreaterThan(10);
  expect(v.searched.query.length).toBeGreaterThan(0);
  expect(v.searched.rows).toBeGreaterThan(0);
  expect(v.searched.rows).toBeLessThan(v.playerRows);
  expect(v.chartPixels).toBeGreaterThan(500);
  expect(v.doctorLines).toContain('key works');
  expect(v.errors, `page errors: ${v.errors.join(' | ')}`).toEqual([]);
  expect(v.widerThanPhone, `wider than a phone: ${v.widerThanPhone.join(', ')}`).toEqual([]);
  for (const url of v.requests) expect(url.startsWith(`${origin}/roster/`), url).toBe(true);
});

it('on a 375 px phone the joins and players tables fit the screen, with decision, department, rank, hours and job in view', () => {
  const { phone } = seen();
  expect(phone.pastTheEdge, `past the screen's edge: ${phone.pastTheEdge.join(', ')}`).toEqual([]);
  expect(phone.sidewaysScroll, `scrolls sideways: ${phone.sidewaysScroll.join(', ')}`).toEqual([]);
  expect(phone.firstRows.map((c) => c.column)).toEqual([
    '#joins decision',
    '#players department',
    '#players rank',
    '#players hours (7 d)',
    '#players job',
  ]);
  for (const cell of phone.firstRows) {
    expect(cell.text, cell.column).not.toBe('');
    expect(cell.onScreen, `${cell.column} (${cell.text}) is not in view`).toBe(true);
  }
  expect(phone.firstRows[0]!.text).toMatch(/^(admitted|refused)$/);
});

it("a member's several departments share their player's row, with no row left without a player", () => {
  const { phone } = seen();
  expect(phone.rowsWithoutPlayer).toBe(0);
  // Alice holds three departments in the sandbox's roster.
  expect(phone.mostDepartments.player).toBe('Alice');
  expect(phone.mostDepartments.shown).toEqual(['★ LSPD', 'SAFR', 'DOJ']);
});

it("on a 375 px phone the histogram's labels do not overlap", () => {
  const { phone } = seen();
  expect(phone.overlappingLabels, `overlapping: ${phone.overlappingLabels.join(', ')}`).toEqual([]);
});
