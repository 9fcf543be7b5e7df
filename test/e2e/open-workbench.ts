// One way for the e2e tests to open a code-server workbench in a page.
import type { Page } from 'playwright-core';

/**
 * Waits for the workbench's document, not Playwright's default 'load' (every script and image,
 * 30 s), which busy 2-core runs outlasted (#36): the workbench itself is waited for afterwards,
 * by what each test needs on screen. The error names where the page came from.
 */
export async function openWorkbench(page: Page, url: string, from: string): Promise<void> {
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 120_000 }).catch((e: unknown) => {
    throw new Error(`the workbench page's document never loaded from ${from} at ${url} within 120 s: ${(e as Error).message}`);
  });
}
