import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, onTestFailed } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { RunningServer } from '../../src/server/index.js';
import { ROOT, runKb } from '../helpers/cli.js';
import { makePdf } from '../helpers/documents.js';
import { startTestServer } from '../helpers/server.js';
import { hasTool, itWith } from '../helpers/tools.js';

/** Where the pages a failed test saw are kept (gitignored), one screenshot per page. */
const SHOTS = join(ROOT, 'test-results', 'console');

let server: RunningServer;
let browser: Browser | undefined;
beforeAll(async () => {
  server = await startTestServer({ demo: true, indexDelayMs: 300, maxFileBytes: 512 * 1024 });
  if (!hasTool('chromium')) return;
  const { chromium } = await import('playwright-core');
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    // Headless, no sandbox (CI runs as root), and none of Chromium's own calls out to the network.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server.close();
});

/** A page whose every visit is screenshotted, the shots kept when the test fails. */
async function openPage(name: string): Promise<Page> {
  const context = await browser!.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  const shots: { label: string; png: Buffer }[] = [];
  page.on('load', async () => {
    try {
      shots.push({ label: new URL(page.url()).pathname, png: await page.screenshot({ fullPage: true }) });
    } catch {
      // the page went on meanwhile
    }
  });
  onTestFailed(async () => {
    mkdirSync(SHOTS, { recursive: true });
    shots.push({
      label: 'at-failure',
      png: await page.screenshot({ fullPage: true }).catch(() => Buffer.alloc(0)),
    });
    shots.forEach(({ label, png }, i) =>
      writeFileSync(join(SHOTS, `${name}-${i}-${label.replace(/\W+/g, '_')}.png`), png),
    );
  });
  return page;
}

async function signIn(page: Page, key = server.keys.demo!) {
  await page.goto(server.url);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Files', level: 1 }).waitFor();
}

const row = (page: Page, name: string) => page.locator('#file-table tbody tr', { hasText: name });

describe('the web console in a real browser (headless Chromium)', () => {
  itWith('chromium')(
    'signs in, takes three dropped files, shows them index live, a failure and its reason, deletes one, opens a thread',
    async () => {
      const page = await openPage('journey');
      await signIn(page);
      // Marks this document: a reload would lose it, so the statuses below must come live.
      await page.evaluate(() => ((globalThis as unknown as { marker: number }).marker = 42));

      // Three files dropped onto the drop zone at once, as from a file manager: a PDF, a text
      // file, and a scanned PDF, which cannot be indexed.
      const files = [
        {
          name: 'visitor-manual.pdf',
          type: 'application/pdf',
          b64: makePdf([
            ['Visitors sign in at the front desk.'],
            ['Visitor badges must be returned by 7 pm.'],
          ]).toString('base64'),
        },
        {
          name: 'canteen.txt',
          type: 'text/plain',
          b64: Buffer.from('The canteen serves lunch from 11:30.\n').toString('base64'),
        },
        {
          name: 'scan.pdf',
          type: 'application/pdf',
          b64: makePdf([['x']], { scanned: true }).toString('base64'),
        },
      ];
      const dropped = await page.evaluateHandle((list) => {
        // Runs in the page: its DataTransfer and File.
        const dom = globalThis as any;
        const transfer = new dom.DataTransfer();
        for (const { name, type, b64 } of list) {
          const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
          transfer.items.add(new dom.File([bytes], name, { type }));
        }
        return transfer;
      }, files);
      await page.dispatchEvent('#drop', 'dragover', { dataTransfer: dropped });
      await page.dispatchEvent('#drop', 'drop', { dataTransfer: dropped });

      await expect.poll(() => page.locator('#uploads li').count(), { timeout: 10_000 }).toBe(3);
      for (const name of ['visitor-manual.pdf', 'canteen.txt'])
        await row(page, name).getByText('COMPLETED').waitFor({ timeout: 20_000 });
      await row(page, 'scan.pdf').getByText('FAILED').waitFor({ timeout: 20_000 });
      await expect
        .poll(() => row(page, 'scan.pdf').locator('.reason').textContent())
        .toMatch(/^no_text_layer: /);
      // Each upload's own line says where its file is now, and why one failed.
      const line = (name: string) => page.locator('#uploads li', { hasText: name }).locator('.state');
      await expect
        .poll(() => line('scan.pdf').textContent(), { timeout: 20_000 })
        .toMatch(/^failed: no_text_layer: /);
      expect(await page.locator('#uploads li', { hasText: 'scan.pdf' }).getAttribute('class')).toBe('failed');
      for (const name of ['visitor-manual.pdf', 'canteen.txt'])
        await expect.poll(() => line(name).textContent(), { timeout: 20_000 }).toBe('indexed');
      // Names are isolated, so that one cannot reorder the text around it.
      expect(await row(page, 'canteen.txt').locator('td.name > bdi').textContent()).toBe('canteen.txt');
      expect(await page.evaluate(() => (globalThis as unknown as { marker?: number }).marker)).toBe(42);

      // kb chat answers from the uploaded file, and cites it.
      const chat = await runKb(['chat'], {
        env: { KB_BASE_URL: server.url, KB_API_KEY: server.keys.demo! },
        input: 'When must visitor badges be returned?\n',
      });
      expect(chat.code).toBe(0);
      expect(chat.stdout).toContain('7 pm');
      expect(chat.stdout).toContain('visitor-manual.pdf p. 2');

      // Delete, with a confirmation page.
      await row(page, 'canteen.txt').getByRole('link', { name: 'Delete canteen.txt' }).click();
      await page.getByRole('heading', { name: 'Delete canteen.txt?' }).waitFor();
      await page.getByRole('button', { name: 'Delete' }).click();
      await page.getByText('Deleted canteen.txt.').waitFor();
      expect(await row(page, 'canteen.txt').count()).toBe(0);
      expect(
        server.service.store.everyFile().find((f) => f.originalFilename === 'canteen.txt')?.deletedAt,
      ).toBeTruthy();

      // The thread kb chat made, read-only, with its sources.
      await page.getByRole('link', { name: 'Threads' }).click();
      await page.getByRole('link', { name: /When must visitor badges be returned/ }).click();
      await page.locator('.sources').first().waitFor();
      expect(await page.locator('.transcript').textContent()).toContain('visitor-manual.pdf p. 2');
    },
    90_000,
  );

  itWith('chromium')(
    'the picker: a file over the limit is refused in the page and not sent; several others are',
    async () => {
      const page = await openPage('limit');
      await signIn(page);
      const before = server.service.store.everyFile().length;
      await page.setInputFiles('#files', [
        { name: 'huge.txt', mimeType: 'text/plain', buffer: Buffer.alloc(600 * 1024, 'a') },
      ]);
      await page.getByText('over the limit of 512 KiB: not uploaded').waitFor();
      expect(server.service.store.everyFile().length).toBe(before);
      // The picker takes several files at once, each with its own progress.
      await page.setInputFiles('#files', [
        { name: 'picked-1.txt', mimeType: 'text/plain', buffer: Buffer.from('First picked file.\n') },
        { name: 'picked-2.md', mimeType: 'text/markdown', buffer: Buffer.from('# Second\nPicked too.\n') },
      ]);
      for (const name of ['picked-1.txt', 'picked-2.md'])
        await row(page, name).getByText('COMPLETED').waitFor({ timeout: 20_000 });
      expect(await page.locator('#uploads progress').count()).toBe(2);
      expect(server.service.store.everyFile().length).toBe(before + 2);
    },
  );

  itWith('chromium')('works from the keyboard, labels every control, and fits a phone screen', async () => {
    const page = await openPage('phone');
    await page.setViewportSize({ width: 360, height: 740 });
    await signIn(page);
    await page.focus('#files');
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.id)).toBe('files');
    expect(await page.getByLabel('Choose files').count()).toBe(1);
    expect(
      await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth),
    ).toBeLessThanOrEqual(360);
    await page.getByRole('link', { name: 'Threads' }).press('Enter');
    await page.getByRole('heading', { name: 'Threads', level: 1 }).waitFor();
    expect(
      await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth),
    ).toBeLessThanOrEqual(360);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
  });

  itWith('chromium')(
    'pages a list longer than a page: older and newer, kept current as files arrive',
    async () => {
      const page = await openPage('paging');
      const ws = server.workspaces.find((w) => w.name === 'acme')!.id;
      const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
      const file = (i: number) => ({
        id: `file_page${String(i).padStart(3, '0')}`,
        workspaceId: ws,
        originalFilename: `paged-${i}.txt`,
        fileSize: 1,
        mimeType: 'text/plain',
        indexingStatus: 'COMPLETED' as const,
        createdAt: at(i),
        updatedAt: at(i),
        indexingStartedAt: at(i),
        indexedAt: at(i),
        chunkCount: 1,
        indexingError: null,
      });
      // The newest 200 fill the first page exactly: no link to older files yet.
      const acme = () => server.service.store.countFiles({ workspaceId: ws });
      for (let i = 0; acme() < 200; i++) server.service.store.commit({ op: 'file', file: file(i) });
      await signIn(page, server.keys.acme!);
      const older = page.getByRole('link', { name: 'Older files →' });
      expect(await older.isVisible()).toBe(false);
      expect(await page.locator('#count').textContent()).toBe('200 files');
      // One more arrives while the page is open: the poll shows it and the link appears.
      server.service.store.commit({ op: 'file', file: file(500) });
      await older.waitFor({ state: 'visible', timeout: 10_000 });
      await expect.poll(() => page.locator('#count').textContent()).toBe('Files 1–200 of 201, newest first');
      await older.click();
      await page.getByText('Files 201–201 of 201, newest first').waitFor();
      expect(await page.locator('#file-table tbody tr').count()).toBe(1);
      await page.getByRole('link', { name: '← Newer files' }).click();
      await page.getByText('Files 1–200 of 201, newest first').waitFor();
      await row(page, 'paged-500.txt').waitFor();
    },
  );
});
