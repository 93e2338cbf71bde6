// `npm run panel-screenshot`: the pictures of the owner's panel shown in docs/panel.md, taken by
// the browser test's own code (sandbox, Chromium, sign in, doctor): docs/panel.png as on a desktop
// (1280 px wide) and docs/panel-phone.png as on a phone (375 px).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { launchChromium } from './panel-browser/chromium';
import { drivePanel } from './panel-browser/drive-panel';
import { runSandbox } from './sandbox';

const screenshots = { wide: path.resolve('docs/panel.png'), phone: path.resolve('docs/panel-phone.png') };
mkdirSync(path.dirname(screenshots.wide), { recursive: true });
const { browser } = await launchChromium();
try {
  await runSandbox({
    print: () => {},
    panel: (access) => drivePanel(browser, access, screenshots).then(() => {}),
  });
  console.log(`wrote ${screenshots.wide} and ${screenshots.phone}`);
} finally {
  await browser.close();
}
