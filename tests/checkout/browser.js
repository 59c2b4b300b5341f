// Drives Debian's chromium (headless, no sandbox: tests run as root in CI) through npm puppeteer-core for
// the checkout page's tests. One JSON command per line on stdin, one JSON answer per line on stdout:
//   {"cmd":"open","url":U,"width":W,"height":H,"acceptLanguage":L}  -> {"status":HTTP,"headers":{...}}
//   {"cmd":"waitText","selector":S,"pattern":RE,"timeout":MS}       -> {"text":T,"ms":elapsed}
//   {"cmd":"text","selector":S}  {"cmd":"visible","selector":S}    {"cmd":"eval","expr":JS}
//   {"cmd":"click","selector":S} {"cmd":"screenshot","path":P,"selector":S?}
//   {"cmd":"press","key":K}  -> {"focused": the focused element's id (or tag) after the key}
//   {"cmd":"clipboard"}      -> {"text": what the clipboard holds} (the page's origin may read and write it)
//   {"cmd":"contrast"}       -> {"low":[...]} visible text below WCAG AA contrast on its background
//   {"cmd":"errors"}  -> everything the page reported as a problem since the last "errors": console errors
//                        and warnings, page errors, CSP violations, failed requests, HTTP errors
//   {"cmd":"quit"}
// Answers carry "ok": false and "error" when a command fails. Usage: node browser.js CHROMIUM USERDATADIR
'use strict';
const readline = require('readline');
const puppeteer = require('puppeteer-core');

const [chromium, userDataDir] = process.argv.slice(2);
let browser = null;
let page = null;
let problems = [];

// Chromium asks for /favicon.ico on a page that names no icon (the shop's page a paid checkout sends the
// customer back to); the checkout pages name theirs (a broken one would show as its own hashed URL).
const favicon = (url) => new URL(url).pathname === '/favicon.ico';

function reply(obj) { process.stdout.write(JSON.stringify(obj) + '\n'); }

async function open(c) {
  if (page) await page.close();
  problems = [];
  page = await browser.newPage();
  page.on('console', (m) => {
    if (m.type() !== 'error' && m.type() !== 'warning' && m.type() !== 'warn') return;
    // A refused reconnect of the event stream while the test has the engine down is chromium's own log line.
    if ((m.location() || {}).url && m.location().url.endsWith('/events')) return;
    if ((m.location() || {}).url && favicon(m.location().url)) return;
    problems.push('console ' + m.type() + ': ' + m.text());
  });
  page.on('pageerror', (e) => problems.push('page error: ' + e.message));
  page.on('requestfailed', (r) => {
    // The event stream is cut when the page goes away or the test restarts the engine: not the page's fault.
    if (!r.url().endsWith('/events')) problems.push('request failed: ' + r.url() + ' ' + (r.failure() || {}).errorText);
  });
  page.on('response', (r) => { if (r.status() >= 400 && !favicon(r.url())) problems.push('HTTP ' + r.status() + ': ' + r.url()); });
  await page.setViewport({ width: c.width || 1280, height: c.height || 900, deviceScaleFactor: 1, isMobile: !!c.mobile, hasTouch: !!c.mobile });
  await page.setExtraHTTPHeaders(c.acceptLanguage ? { 'Accept-Language': c.acceptLanguage } : {});
  // The copy buttons use the clipboard API, which asks the user first: granted, as a customer would.
  await browser.defaultBrowserContext().overridePermissions(new URL(c.url).origin,
                                                            ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write']);
  const response = await page.goto(c.url, { waitUntil: 'load', timeout: 30000 });
  return { status: response.status(), headers: response.headers() };
}

async function waitText(c) {
  const started = Date.now();
  const re = new RegExp(c.pattern);
  await page.waitForFunction((sel, source) => {
    const el = document.querySelector(sel);
    return el && !el.closest('[hidden]') && new RegExp(source).test(el.textContent);
  }, { timeout: c.timeout || 10000, polling: 50 }, c.selector, c.pattern);
  const text = await page.$eval(c.selector, (el) => el.textContent);
  if (!re.test(text)) throw new Error('text changed again: ' + text);
  return { text, ms: Date.now() - started };
}

// WCAG 2 contrast of every visible piece of text against the background it is drawn on (the nearest
// ancestor with an opaque background; translucent ones blended over it). AA: 4.5:1, 3:1 for large text
// (24 px, or 18.66 px bold). Disabled controls are exempt, as WCAG says.
function lowContrast() {
  const parse = (c) => { const m = c.match(/rgba?\(([^)]+)\)/); if (!m) return null; const p = m[1].split(',').map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const lum = (rgb) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }; return 0.2126 * f(rgb[0]) + 0.7152 * f(rgb[1]) + 0.0722 * f(rgb[2]); };
  const blend = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3]));
  function background(el) {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
    }
    let rgb = [255, 255, 255];
    for (let i = layers.length - 1; i >= 0; i--) rgb = blend(layers[i], rgb);
    return rgb;
  }
  const low = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || !el || el.closest('[hidden], noscript, script, .live') || el.closest(':disabled')) continue;
    if (!el.getClientRects().length) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || Number(style.opacity) === 0) continue;
    const fg = parse(style.color);
    const bg = background(el);
    const text = blend(fg, bg);
    const [a, b] = [lum(text), lum(bg)].sort((x, y) => y - x);
    const ratio = (a + 0.05) / (b + 0.05);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5)) low.push(n.textContent.trim().slice(0, 40) + ': ' + ratio.toFixed(2) + ':1');
  }
  return low;
}

const commands = {
  open,
  waitText,
  text: async (c) => ({ text: await page.$eval(c.selector, (el) => el.textContent) }),
  visible: async (c) => ({ visible: await page.$eval(c.selector, (el) => !el.closest('[hidden]') && el.getClientRects().length > 0) }),
  eval: async (c) => ({ value: await page.evaluate(c.expr) }),
  click: async (c) => { await page.click(c.selector); return {}; },
  screenshot: async (c) => {
    if (c.selector) await (await page.$(c.selector)).screenshot({ path: c.path });
    else await page.screenshot({ path: c.path, fullPage: true });
    return {};
  },
  press: async (c) => {
    // "Shift+Tab": modifiers held down around the key.
    const keys = c.key.split('+');
    const key = keys.pop();
    for (const m of keys) await page.keyboard.down(m);
    await page.keyboard.press(key);
    for (const m of keys.reverse()) await page.keyboard.up(m);
    return { focused: await page.evaluate(() => document.activeElement.id || document.activeElement.tagName.toLowerCase()) };
  },
  clipboard: async () => ({ text: await page.evaluate(() => navigator.clipboard.readText()) }),
  contrast: async () => ({ low: await page.evaluate(lowContrast) }),
  errors: async () => { const out = problems; problems = []; return { errors: out }; },
};

async function main() {
  browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    userDataDir,
    // The machine has no network: without the background flags chromium keeps dialling out (and failing).
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
           '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage', '--lang=en-US'],
  });
  reply({ ok: true, ready: true, version: await browser.version() });
  const lines = readline.createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (!line.trim()) continue;
    let c;
    try { c = JSON.parse(line); } catch (e) { reply({ ok: false, error: 'bad command: ' + line }); continue; }
    if (c.cmd === 'quit') break;
    try {
      const out = await commands[c.cmd](c);
      reply(Object.assign({ ok: true }, out));
    } catch (e) {
      reply({ ok: false, error: String(e && e.message || e) });
    }
  }
  await browser.close();
}

main().catch((e) => { reply({ ok: false, fatal: true, error: String(e && e.stack || e) }); process.exit(1); });
