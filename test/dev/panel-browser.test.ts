import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { launchChromium } from '../../dev/panel-browser/chromium';
import { drivePanel, type PanelVisit } from '../../dev/panel-browser/drive-panel';
import { runSandbox } from '../../dev/sandbox';

// Debian's chromium, driven by playwright-core, against the sandbox; .ci/run installs chromium.
it('an owner signs in to the panel, sees online players and the chart, and runs doctor', {
  timeout: 120_000,
}, async () => {
  const screenshot = path.join(tmpdir(), `roster-panel-${Date.now()}.png`);
  const browser = await launchChromium();
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
  expect(v.errors).toEqual([]);
  expect(v.fitsPhone).toBe(true);
  for (const url of v.requests) expect(url.startsWith(`${origin}/roster/`), url).toBe(true);
});
