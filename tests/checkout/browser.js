// Drives Debian's chromium (headless, no sandbox: tests run as root in CI) through npm puppeteer-core for
// the checkout page's tests. One JSON command per line on stdin, one JSON answer per line on stdout:
//   {"cmd":"open","url":U,"width":W,"height":H,"acceptLanguage":L}  -> {"status":HTTP,"headers":{...}}
//   {"cmd":"waitText","selector":S,"pattern":RE,"timeout":MS}       -> {"text":T,"ms":elapsed}
//   {"cmd":"text","selector":S}  {"cmd":"visible","selector":S}    {"cmd":"eval","expr":JS}
//   {"cmd":"click","selector":S} {"cmd":"screenshot","path":P,"selector":S?}
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

function reply(obj) { process.stdout.write(JSON.stringify(obj) + '\n'); }

async function open(c) {
  if (page) await page.close();
  problems = [];
  page = await browser.newPage();
  page.on('console', (m) => {
    if (m.type() !== 'error' && m.type() !== 'warning' && m.type() !== 'warn') return;
    // A refused reconnect of the event stream while the test has the engine down is chromium's own log line.
    if ((m.location() || {}).url && m.location().url.endsWith('/events')) return;
    problems.push('console ' + m.type() + ': ' + m.text());
  });
  page.on('pageerror', (e) => problems.push('page error: ' + e.message));
  page.on('requestfailed', (r) => {
    // The event stream is cut when the page goes away or the test restarts the engine: not the page's fault.
    if (!r.url().endsWith('/events')) problems.push('request failed: ' + r.url() + ' ' + (r.failure() || {}).errorText);
  });
  page.on('response', (r) => { if (r.status() >= 400) problems.push('HTTP ' + r.status() + ': ' + r.url()); });
  await page.setViewport({ width: c.width || 1280, height: c.height || 900, deviceScaleFactor: 1, isMobile: !!c.mobile, hasTouch: !!c.mobile });
  await page.setExtraHTTPHeaders(c.acceptLanguage ? { 'Accept-Language': c.acceptLanguage } : {});
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
