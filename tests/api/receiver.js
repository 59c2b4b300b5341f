// A webhook receiver for the API tests, verifying every delivery with implementations that are not
// Settledesk's: the Standard Webhooks reference library (npm standardwebhooks) for the webhook-* headers and
// Node's own crypto for BTCPay-Sig (sha256=<hex HMAC-SHA256(secret, body)>).
// Usage: node receiver.js PORT LOGFILE SECRET   (PORT 0: any; the port is printed as "listening PORT")
// Appends one JSON line per request to LOGFILE. Answers 200, or the status in the file LOGFILE.status if present.
'use strict';
const http = require('http');
const fs = require('fs');
const crypto = require('crypto');
const { Webhook } = require('standardwebhooks');

const [port, logFile, secret] = process.argv.slice(2);
const wh = new Webhook(Buffer.from(secret, 'utf8').toString('base64'));

http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
        const raw = Buffer.concat(chunks);
        const body = raw.toString('utf8');
        let standardOk = false, standardError = '';
        try {
            wh.verify(body, { 'webhook-id': req.headers['webhook-id'], 'webhook-timestamp': req.headers['webhook-timestamp'],
                              'webhook-signature': req.headers['webhook-signature'] });
            standardOk = true;
        } catch (e) { standardError = String(e.message || e); }
        const expected = 'sha256=' + crypto.createHmac('sha256', Buffer.from(secret, 'utf8')).update(raw).digest('hex');
        const got = String(req.headers['btcpay-sig'] || '');
        const btcpayOk = got.length === expected.length && crypto.timingSafeEqual(Buffer.from(got), Buffer.from(expected));
        let parsed = null;
        try { parsed = JSON.parse(body); } catch (e) { /* logged as is */ }
        let status = 200;
        try { status = parseInt(fs.readFileSync(logFile + '.status', 'utf8'), 10) || 200; } catch (e) { /* default */ }
        fs.appendFileSync(logFile, JSON.stringify({
            at: Date.now(), method: req.method, path: req.url, status, standardOk, standardError, btcpayOk,
            webhookId: req.headers['webhook-id'], deliveryId: parsed && parsed.deliveryId, type: parsed && parsed.type,
            invoiceId: parsed && parsed.invoiceId, body: parsed }) + '\n');
        res.writeHead(status, { 'Content-Type': 'text/plain' });
        res.end(status === 200 ? 'ok' : 'no');
    });
}).listen(parseInt(port, 10), '127.0.0.1', function () {
    console.log('listening ' + this.address().port);
});
