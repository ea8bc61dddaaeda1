import { mkdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser, type BrowserContext, type Page } from 'puppeteer-core';
import { startIdentityHarness, type IdentityHarness } from '../../../identity/test/support/harness.js';

/** Debian's chromium (`apt-get install chromium`); puppeteer-core never downloads a browser. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** One request a server of the test received: what a log or a `Referer` could have leaked. */
export interface SeenRequest {
  url: string;
  referer?: string;
}

export interface RecordingServer {
  url: string;
  seen: SeenRequest[];
  /** Who answers from now on (until then: 503). */
  serve(app: (req: IncomingMessage, res: ServerResponse) => void): void;
  close(): Promise<void>;
}

/** An HTTP server on a free loopback port that records every request before handing it on. */
export async function startRecordingServer(): Promise<RecordingServer> {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const seen: SeenRequest[] = [];
  const server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', referer: req.headers.referer });
    if (handler) handler(req, res);
    else res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    serve(app) {
      handler = app;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Headless chromium; `lang` sets the Accept-Language of every request, popups included. */
export function launchChromium(lang: 'en' | 'zh' = 'en'): Promise<Browser> {
  return puppeteer.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    // Root in CI containers cannot use chromium's sandbox.
    args: [
      '--no-sandbox',
      '--disable-dev-shm-usage',
      `--accept-lang=${lang === 'zh' ? 'zh-CN,zh' : 'en-US,en'}`,
    ],
  });
}

export interface PagesStack {
  harness: IdentityHarness;
  /** PUBLIC_WEB_URL: the harness gateway's own app, on a port known before identity starts. */
  webUrl: string;
  web: RecordingServer;
  browser: Browser;
  stop(): Promise<void>;
}

/**
 * The identity harness (real identity + real gateway) with PUBLIC_WEB_URL pointing at the gateway
 * itself, and a headless chromium. `gatewayEnv` is gateway configuration read at start.
 */
export async function startPagesStack(
  identityEnv: Record<string, string> = {},
  gatewayEnv: Record<string, string> = {},
): Promise<PagesStack> {
  const web = await startRecordingServer();
  // The harness reads the gateway's configuration from process.env; set ours only meanwhile.
  const saved = Object.fromEntries(Object.keys(gatewayEnv).map((key) => [key, process.env[key]]));
  Object.assign(process.env, gatewayEnv);
  let harness: IdentityHarness;
  try {
    harness = await startIdentityHarness({ PUBLIC_WEB_URL: web.url, ...identityEnv });
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
  web.serve(harness.gateway.app as unknown as (req: IncomingMessage, res: ServerResponse) => void);
  const browser = await launchChromium();
  return {
    harness,
    webUrl: web.url,
    web,
    browser,
    async stop() {
      await browser.close();
      await web.close();
      await harness.stop();
    },
  };
}

// Width and height only: switching `isMobile` would make puppeteer reload the page and lose its state.
const PHONE = { width: 390, height: 844, deviceScaleFactor: 1 };

/** A fresh page (in `context`: its own cookies) whose requests say `Accept-Language: <lang>`. */
export async function pageIn(context: Browser | BrowserContext, lang: 'en' | 'zh'): Promise<Page> {
  const page = await context.newPage();
  await page.setExtraHTTPHeaders({ 'accept-language': lang === 'zh' ? 'zh-CN,zh;q=0.9' : 'en-US,en;q=0.9' });
  await page.setViewport(PHONE);
  return page;
}

/** Empties an input, then types `text` into it as a person would. */
export async function retype(page: Page, selector: string, text: string): Promise<void> {
  await page.$eval(selector, (input) => {
    (input as unknown as { value: string }).value = '';
  });
  await page.type(selector, text);
}

export async function textOf(page: Page, selector: string): Promise<string> {
  return page.$eval(selector, (element) => (element.textContent ?? '').trim());
}

export async function textsOf(page: Page, selector: string): Promise<string[]> {
  return page.$$eval(selector, (elements) => elements.map((e) => (e.textContent ?? '').trim()));
}

const SCREENSHOT_DIR = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '..',
  '..',
  'docs',
  'screenshots',
);

/**
 * With `UPDATE_SCREENSHOTS=1` only (so a CI run never changes the tree): the page as a phone
 * (390×844) and, with `desktop`, as a desktop (1280×800) shows it, into docs/screenshots/.
 */
export async function screenshot(
  page: Page,
  name: string,
  options: { desktop?: boolean } = {},
): Promise<void> {
  if (process.env.UPDATE_SCREENSHOTS !== '1') return;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.setViewport(PHONE);
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-phone.png`) as `${string}.png` });
  if (options.desktop) {
    await page.setViewport({ width: 1280, height: 800, deviceScaleFactor: 1 });
    await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-desktop.png`) as `${string}.png` });
    await page.setViewport(PHONE);
  }
}
