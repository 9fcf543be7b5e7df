// `node scripts/make-icon.mjs`: media/icon.png, the 128x128 Marketplace icon, rendered from the
// activity-bar glyph media/icons/assistant-cards.svg by headless Chromium (the one the tests use):
// the glyph in white on a rounded tile, so it reads on light and dark gallery pages alike.
// Run it again after the SVG changes and commit the PNG.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { chromiumPath } from './test-browser.cjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const svg = fs.readFileSync(path.join(root, 'media', 'icons', 'assistant-cards.svg'), 'utf8');
const out = path.join(root, 'media', 'icon.png');

const html = `<!doctype html><html><body style="margin:0;background:transparent">
<div style="width:128px;height:128px;border-radius:24px;background:#1f4e79;display:flex;align-items:center;justify-content:center;color:#fff">
${svg.replace('width="24" height="24"', 'width="96" height="96"')}
</div></body></html>`;

const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 }, deviceScaleFactor: 1 });
  await page.setContent(html);
  await page.screenshot({ path: out, omitBackground: true, clip: { x: 0, y: 0, width: 128, height: 128 } });
} finally {
  await browser.close();
}
console.log(`[make-icon] ${path.relative(root, out)}`);
