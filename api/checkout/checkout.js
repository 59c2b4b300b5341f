// Settledesk's hosted checkout page: renders the status document the server embedded in the page, then
// follows it live by Server-Sent Events (EventSource reconnects by itself; while it cannot, the status is
// polled). Countdowns tick here, on the server's clock (corrected by the offset of each document's "now").
// No framework, no build step, no inline script (the page's CSP is script-src 'self').
'use strict';
(function () {
  const data = JSON.parse(document.getElementById('sd-data').textContent);
  const strings = data.strings;
  const main = document.getElementById('main');
  const id = main.dataset.id;
  const $ = (name) => document.getElementById(name);
  let status = null;
  let offset = 0;          // server clock minus ours, in ms
  let phase = '';          // what the live region last announced
  let rendered = '';       // the phase on screen
  let redirectAt = 0;
  let source = null;
  let pollTimer = 0;
  let lostTimer = 0;

  function t(key, params) {
    let text = strings[key] !== undefined ? strings[key] : key;
    const all = Object.assign({ shop: status ? status.shop : '' }, params || {});
    return text.replace(/\{(\w+)\}/g, (m, name) => (all[name] !== undefined ? String(all[name]) : m));
  }
  const now = () => Date.now() + offset;
  function clock(ms) {
    const s = Math.max(0, Math.ceil(ms / 1000));
    const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, sec = s % 60;
    const two = (n) => String(n).padStart(2, '0');
    return h > 0 ? h + ':' + two(m) + ':' + two(sec) : two(m) + ':' + two(sec);
  }
  function show(section) {
    for (const name of ['choose', 'pay', 'outcome']) $(name).hidden = name !== section;
  }
  function announce(key, text) {
    // Only a change of phase is spoken; the ticking countdown is not (role=timer, aria-live off).
    if (phase === key) return;
    phase = key;
    $('live').textContent = text;
  }

  // Where the invoice's clock stands: choose, quote, grace, closing, or the status itself.
  function phaseOf(s) {
    if (s.status === 'choose') return now() < s.choiceEndsAt ? 'choose' : 'expired';
    if (s.status !== 'open') return s.status;
    const n = now();
    if (n < s.quoteEndsAt) return 'quote';
    if (n <= s.graceEndsAt) return 'grace';
    return 'closing';
  }

  function outcome(kind, title, text, hint) {
    show('outcome');
    $('outcome').className = kind;
    $('outcome-title').textContent = title;
    $('outcome-text').textContent = text || '';
    $('outcome-hint').textContent = hint || '';
    $('outcome-timer').textContent = '';
    $('back').hidden = true;
  }

  function render() {
    const s = status;
    if (!s) return;
    $('price').textContent = s.price.amount + ' ' + s.price.currency;
    $('order').hidden = !s.orderId;
    if (s.orderId) $('order').textContent = t('order', { order: s.orderId });
    document.title = t('title');
    const p = phaseOf(s);
    rendered = p;
    const values = { asset: s.asset, amount: s.amount, total: s.amount, received: s.received, rest: s.due,
                     n: s.confirmations, m: s.confirmationsRequired };
    switch (p) {
      case 'choose':
        show('choose');
        renderMethods(s);
        announce('choose', t('chooseTitle'));
        break;
      case 'quote': {
        show('pay');
        $('pay-title').textContent = t('payTitle', { asset: s.assetName });
        const partial = Number(s.received) > 0;
        $('partial-box').hidden = !partial;
        if (partial) {
          $('partial').textContent = t('partial', values);
          $('progress').value = Math.min(999, Math.floor(1000 * Number(s.received) / Number(s.amount)));
        }
        $('amount').textContent = s.due + ' ' + s.asset;
        $('amount').dataset.copy = s.due;
        $('address').textContent = s.address;
        const wallet = $('wallet');
        wallet.hidden = !s.paymentUri || s.paymentUri === s.address;
        wallet.href = s.paymentUri || '#';
        const qr = $('qr');
        if (s.qr && qr.getAttribute('src') !== s.qr) qr.setAttribute('src', s.qr);
        qr.alt = t('qrAlt', { uri: s.paymentUri });
        fitQr();
        announce(partial ? 'partial:' + s.received : 'quote', partial ? t('partial', values) : t('payTitle', { asset: s.assetName }));
        break;
      }
      case 'grace':
        outcome('wait', t('verifyingTitle'), '');
        announce('grace', t('verifyingTitle'));
        break;
      case 'closing':
        outcome('wait', t('verifyingTitle'), t('closingText'));
        announce('closing', t('verifyingTitle'));
        break;
      case 'confirming':
        outcome('wait', t('detectedTitle'), t('confirmations', values), t('confirmationsHint'));
        announce('confirming:' + s.confirmations, t('detectedLive', values));
        break;
      case 'paid':
        outcome('paid', t('paidTitle'), s.amount ? t('paidText', values) : t('paidMarked'));
        announce('paid', t('paidTitle'));
        if (s.redirectUrl) {
          const back = $('back');
          back.hidden = false;
          back.href = s.redirectUrl;
          back.textContent = t('backToShop');
          if (s.redirectAutomatically && !redirectAt) redirectAt = Date.now() + 5000;
        }
        break;
      case 'invalid':
        outcome('stop', t('invalidTitle'), t('invalidText'));
        announce('invalid', t('invalidTitle'));
        break;
      default: // expired
        if (s.late) outcome('warn', t('lateTitle'), t('lateText'));
        else if (s.underpaid) outcome('warn', t('underpaidTitle'), t('underpaidText', values));
        else outcome('stop', t('expiredTitle'), t('expiredText'));
        announce(s.late ? 'late' : s.underpaid ? 'underpaid' : 'expired', $('outcome-title').textContent);
    }
    tick();
  }

  function renderMethods(s) {
    const box = $('methods');
    if (box.childElementCount === s.methods.length) return;
    box.textContent = '';
    for (const m of s.methods) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'method';
      b.dataset.method = m.id;
      const name = document.createElement('strong');
      name.textContent = m.name;
      const code = document.createElement('span');
      code.className = 'muted';
      code.textContent = m.asset;
      b.append(name, code);
      b.addEventListener('click', () => choose(m.id));
      box.append(b);
    }
  }

  async function choose(method) {
    const buttons = $('methods').querySelectorAll('button');
    buttons.forEach((b) => { b.disabled = true; });
    $('notice').hidden = true;
    try {
      const r = await fetch(id + '/payment-method', { method: 'POST', headers: { 'Content-Type': 'application/json' },
                                                      body: JSON.stringify({ paymentMethodId: method }), cache: 'no-store' });
      if (!r.ok) {
        let why = String(r.status);
        try { why = (await r.json()).message || why; } catch (e) { /* not JSON */ }
        throw new Error(why);
      }
      await refresh();
    } catch (e) {
      $('notice').textContent = t('chooseFailed', { error: e.message });
      $('notice').hidden = false;
    } finally {
      buttons.forEach((b) => { b.disabled = false; });
    }
  }

  // The QR code at a whole number of device pixels per module (its SVG is one pixel per module): every
  // module the same size, as a camera reads best. At most 320 CSS px, and never wider than its box.
  function fitQr() {
    const qr = $('qr');
    const side = qr.naturalWidth;
    const room = qr.parentElement.clientWidth;
    // Not loaded yet (the previous image's size would be used), or not on screen: its load or the next
    // render does it.
    if (!qr.complete || !qr.currentSrc.endsWith('/' + qr.getAttribute('src')) || !side || !room) return;
    const dpr = window.devicePixelRatio || 1;
    const module = Math.max(1, Math.floor(Math.min(320, room) * dpr / side));
    qr.style.width = qr.style.height = (module * side / dpr) + 'px';
  }

  function tick() {
    const s = status;
    if (!s) return;
    const p = phaseOf(s);
    if (p !== rendered) return render(); // the quote (or the choice) ran out since the last render
    if (p === 'choose') {
      $('choose-timer').textContent = t('chooseIn', { time: clock(s.choiceEndsAt - now()) });
    } else if (p === 'quote') {
      const left = s.quoteEndsAt - now();
      $('timer').textContent = t('payWithin', { time: clock(left) });
      $('timer').classList.toggle('urgent', left <= 60000);
    } else if (p === 'grace') {
      $('outcome-text').textContent = t('verifyingText', { time: clock(s.graceEndsAt - now()) });
    } else if (p === 'paid' && redirectAt && redirectAt !== Infinity) {
      const left = redirectAt - Date.now();
      if (left <= 0) {
        redirectAt = Infinity;
        window.location.assign(s.redirectUrl);
      } else {
        $('outcome-timer').textContent = t('redirecting', { n: Math.ceil(left / 1000) });
      }
    }
  }

  function accept(doc) {
    offset = doc.now - Date.now();
    status = doc;
    render();
  }

  async function refresh() {
    const r = await fetch(id + '/status', { cache: 'no-store' });
    if (r.ok) accept(await r.json());
    return r.ok;
  }

  function lost(yes) {
    if (!yes) {
      clearTimeout(lostTimer);
      lostTimer = 0;
      if ($('notice').textContent === t('reconnecting')) $('notice').hidden = true;
      return;
    }
    // A blip that reconnects at once is not worth a word; each failed retry does not start the wait over.
    if (lostTimer) return;
    lostTimer = setTimeout(() => {
      $('notice').textContent = t('reconnecting');
      $('notice').hidden = false;
    }, 3000);
  }

  function connect() {
    if (!window.EventSource) return poll();
    source = new EventSource(id + '/events');
    source.addEventListener('status', (e) => accept(JSON.parse(e.data)));
    source.addEventListener('open', () => { lost(false); clearInterval(pollTimer); pollTimer = 0; });
    source.addEventListener('error', () => {
      lost(true);
      if (source.readyState === EventSource.CLOSED) {
        // The server refused the stream (busy, or restarting behind a proxy): poll, and try again later.
        poll();
        setTimeout(connect, 10000);
      }
    });
  }

  function poll() {
    if (pollTimer) return;
    pollTimer = setInterval(() => { refresh().then((ok) => lost(!ok), () => lost(true)); }, 5000);
  }

  document.addEventListener('click', async (e) => {
    const button = e.target.closest('button.copy');
    if (!button) return;
    const target = $(button.dataset.copy);
    const text = target.dataset.copy || target.textContent.trim();
    const label = button.textContent;
    let ok = false;
    try {
      await navigator.clipboard.writeText(text);
      ok = true;
    } catch (err) {
      // Plain http on a LAN has no clipboard API: the old way, through a selection.
      const area = document.createElement('textarea');
      area.value = text;
      area.setAttribute('readonly', '');
      area.className = 'offscreen';
      document.body.append(area);
      area.select();
      try { ok = document.execCommand('copy'); } catch (err2) { ok = false; }
      area.remove();
    }
    button.textContent = ok ? t('copied') : t('copyFailed');
    setTimeout(() => { button.textContent = label; }, 2000);
  });

  $('qr').addEventListener('load', fitQr);
  window.addEventListener('resize', fitQr);
  accept(data.status);
  setInterval(tick, 250); // 4 Hz: the displayed second changes within a quarter second of the clock's
  connect();
})();
