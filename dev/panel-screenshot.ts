// `npm run panel-screenshot`: the picture of the owner's panel in docs/panel.md, taken by the browser
// test's own code (sandbox, Chromium, sign in, doctor) and written to docs/panel.png.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { launchChromium } from './panel-browser/chromium';
import { drivePanel } from './panel-browser/drive-panel';
import { runSandbox } from './sandbox';

const target = path.resolve('docs/panel.png');
mkdirSync(path.dirname(target), { recursive: true });
const { browser } = await launchChromium();
try {
  await runSandbox({
    print: () => {},
    panel: (access) => drivePanel(browser, access, target).then(() => {}),
  });
  console.log(`wrote ${target}`);
} finally {
  await browser.close();
}
