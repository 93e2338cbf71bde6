import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { launchChromium } from '../../dev/panel-browser/chromium';
import { drivePanel, type PanelVisit } from '../../dev/panel-browser/drive-panel';
import { runSandbox } from '../../dev/sandbox';

// Chromium driven by playwright-core against the sandbox: a system one if there is one, else the
// one @sparticuz/chromium ships in its npm package, so a fresh clone needs nothing else installed.
it('an owner signs in to the panel, sees online players and the chart, and runs doctor', {
  timeout: 120_000,
}, async () => {
  const screenshot = path.join(mkdtempSync(path.join(tmpdir(), 'roster-panel-')), 'panel.png');
  const { browser, binary } = await launchChromium();
  console.log(`panel browser: ${binary.from} Chromium ${browser.version()} (${binary.path})`);
  let visit: PanelVisit | null = null;
  let origin = '';
  try {
    await runSandbox({
      print: () => {},
      panel: async (access) => {
        origin = new URL(access.url).origin;
        visit = await drivePanel(browser, access, screenshot);
      },
    });
  } finally {
    await browser.close();
  }
  console.log(`panel screenshot: ${screenshot}`);
  const seen = visit as PanelVisit | null;
  expect(seen).not.toBeNull();
  const v = seen!;
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
