// Compatibility with an existing Greenfield client: the npm package btcpay-greenfield-node-client (generated
// from BTCPay's OpenAPI files) drives Settledesk's API, and every answer is checked against that client's own
// models (their fields and enum values are read from its TypeScript sources, not from Settledesk).
// Usage: node greenfieldclient.js BASE_URL API_KEY STORE_ID. Prints "N passed, M failed"; exit code 1 on failure.
// node greenfieldclient.js BASE_URL API_KEY STORE_ID --read INVOICE_ID: see below.
'use strict';
const fs = require('fs');
const path = require('path');
const gf = require('btcpay-greenfield-node-client');
const { OpenAPI, InvoicesService, WebhooksService, StoresService, ApiKeysService, HealthService } = gf;

const [base, key, storeId] = process.argv.slice(2);
OpenAPI.BASE = base;
OpenAPI.TOKEN = key;
const models = path.join(path.dirname(require.resolve('btcpay-greenfield-node-client/package.json')), 'src', 'models');

let passed = 0, failed = 0;
function check(ok, what) {
    if (ok) { passed++; } else { failed++; console.log('FAIL: ' + what); }
}
// Top-level properties of a model: name -> TypeScript type text.
function fields(model) {
    const out = {};
    const text = fs.readFileSync(path.join(models, model + '.ts'), 'utf8');
    for (const m of text.matchAll(/^    (\w+)\??: ([^;,\n]+)[;,]?$/gm))
        out[m[1]] = m[2].trim();
    const base = text.match(/export type \w+ = \((\w+) &/);
    if (base) Object.assign(out, fields(base[1]));
    return out;
}
function enumValues(model) {
    const text = fs.readFileSync(path.join(models, model + '.ts'), 'utf8');
    return [...text.matchAll(/= '([^']+)'/g)].map((m) => m[1]);
}
function typeOk(value, ts) {
    if (value === null || value === undefined) return ts.includes('null') || ts.includes('any');
    if (ts.startsWith('string')) return typeof value === 'string';
    if (ts.startsWith('number')) return typeof value === 'number';
    if (ts.startsWith('boolean')) return typeof value === 'boolean';
    if (ts.startsWith('Array')) return Array.isArray(value);
    return true; // models and `any`
}
// Every field of the client's model that Settledesk answers with has the model's type; `required` must be there.
function conforms(obj, model, required, what) {
    const f = fields(model);
    check(Object.keys(f).length > 0, model + ' has fields in the client');
    for (const name of required)
        check(name in obj, `${what}: ${model}.${name} present`);
    for (const [name, ts] of Object.entries(f))
        if (name in obj)
            check(typeOk(obj[name], ts), `${what}: ${model}.${name} is ${ts} (got ${JSON.stringify(obj[name])})`);
}
const decimal = /^\d+(\.\d+)?$/;

// `--read INVOICE`: one invoice read through the client, judged by the official PHP client's predicates
// (btcpayserver-greenfield-php, src/Result/Invoice.php: isFullyPaid = Settled; isPaid = Settled or
// PaidPartial; isExpired, isMarked), printed as one JSON line for the caller to check.
if (process.argv[5] === '--read') {
    InvoicesService.invoicesGetInvoice({ storeId, invoiceId: process.argv[6] }).then((i) => {
        console.log(JSON.stringify({ status: i.status, additionalStatus: i.additionalStatus,
            isFullyPaid: i.status === 'Settled', isPaid: i.status === 'Settled' || i.additionalStatus === 'PaidPartial',
            isExpired: i.status === 'Expired', isMarked: i.additionalStatus === 'Marked' }));
        process.exit(0);
    }).catch((e) => { console.log('FAIL: ' + (e.stack || e)); process.exit(1); });
} else (async () => {
    const health = await HealthService.healthGetHealth();
    check(health.synchronized === true, 'health synchronized');
    const current = await ApiKeysService.getApiKeysService();
    check(current.apiKey === key, 'api-keys/current echoes the key');
    const stores = await StoresService.storesGetStores();
    check(Array.isArray(stores) && stores.length === 1 && stores[0].id === storeId, 'stores list');
    const store = await StoresService.storesGetStore({ storeId });
    conforms(store, 'StoreData', ['id'], 'store');

    const created = await InvoicesService.invoicesCreateInvoice({ storeId, requestBody: {
        amount: '1.50', currency: 'USD', metadata: { orderId: 'GF-1', itemDesc: 'Greenfield client' },
        checkout: { speedPolicy: 'MediumSpeed', expirationMinutes: 30 } } });
    conforms(created, 'InvoiceData', ['id', 'checkoutLink', 'createdTime', 'expirationTime', 'monitoringTime', 'status',
                                      'additionalStatus', 'amount', 'currency', 'metadata', 'checkout'], 'created invoice');
    check(enumValues('InvoiceStatus').includes(created.status), 'status is one of the client enum values');
    check(enumValues('InvoiceAdditionalStatus').includes(created.additionalStatus), 'additionalStatus is one of the enum values');
    check(created.amount === '1.50' && created.metadata.orderId === 'GF-1', 'amount and metadata back as given');
    const got = await InvoicesService.invoicesGetInvoice({ storeId, invoiceId: created.id });
    check(got.id === created.id && got.status === 'New', 'get invoice');
    const list = await InvoicesService.invoicesGetInvoices({ storeId });
    check(list.some((i) => i.id === created.id), 'list contains it');
    const methods = await InvoicesService.invoicesGetInvoicePaymentMethods({ storeId, invoiceId: created.id });
    check(Array.isArray(methods) && methods.length === 1, 'one payment method');
    conforms(methods[0], 'InvoicePaymentMethodDataModel', ['paymentMethod', 'destination', 'paymentLink', 'rate', 'paymentMethodPaid',
                                                           'totalPaid', 'due', 'amount', 'networkFee', 'payments'], 'payment method');
    check(decimal.test(methods[0].amount) && decimal.test(methods[0].due) && methods[0].rate === '150.00', 'exact decimal amounts');
    const marked = await InvoicesService.invoicesMarkInvoiceStatus({ storeId, invoiceId: created.id, requestBody: { status: 'Invalid' } });
    check(marked.status === 'Invalid' && marked.additionalStatus === 'Marked', 'mark invalid');

    try {
        await InvoicesService.invoicesCreateInvoice({ storeId, requestBody: { amount: '-1', currency: 'USD' } });
        check(false, 'a negative amount is refused');
    } catch (e) {
        check(e.status === 400 && Array.isArray(e.body) && e.body[0].path === 'amount' && typeof e.body[0].message === 'string',
              'validation error shape [{path, message}] (' + JSON.stringify(e.body) + ')');
    }
    try {
        await InvoicesService.invoicesGetInvoice({ storeId, invoiceId: 'doesnotexist' });
        check(false, 'an unknown invoice is 404');
    } catch (e) { check(e.status === 404, 'unknown invoice: 404'); }

    const hook = await WebhooksService.postWebhooksService({ storeId, requestBody: { url: 'https://shop.example/gf-hook',
        authorizedEvents: { everything: true } } });
    conforms(hook, 'WebhookDataCreate', ['id', 'secret', 'url', 'enabled', 'automaticRedelivery', 'authorizedEvents'], 'webhook');
    check(typeof hook.secret === 'string' && hook.secret.length >= 22, 'a generated secret is returned');
    // The deliveries endpoints: an invoice created now is an InvoiceCreated delivery to the hook (its host does
    // not resolve here, so the attempt fails and waits for its retry; the record is there at once).
    const second = await InvoicesService.invoicesCreateInvoice({ storeId, requestBody: { amount: '2.00', currency: 'USD',
        metadata: { orderId: 'GF-2' } } });
    // (Events committed before the hook existed but fanned out after it are delivered to it too, so the
    // second invoice's delivery is looked for by its body, not taken as the newest.)
    const asBody = (x) => (typeof x === 'string' ? JSON.parse(x) : x);
    let found = null, body = null;
    for (let i = 0; i < 100 && !found; i++) {
        const listed = await WebhooksService.getWebhooksService({ storeId, webhookId: hook.id, count: '50' });
        for (const d of listed) {
            conforms(d, 'WebhookDeliveryData', ['id', 'timestamp', 'status'], 'delivery in the list');
            const b = asBody(await WebhooksService.getWebhooksService2({ storeId, webhookId: hook.id, deliveryId: d.id }));
            if (b.invoiceId === second.id && b.type === 'InvoiceCreated') { found = d; body = b; break; }
        }
        if (!found) await new Promise((r) => setTimeout(r, 200));
    }
    check(found !== null, 'the new invoice\'s InvoiceCreated delivery is listed');
    if (found) {
        const delivery = await WebhooksService.getWebhooksService1({ storeId, webhookId: hook.id, deliveryId: found.id });
        conforms(delivery, 'WebhookDeliveryData', ['id', 'timestamp', 'status'], 'delivery');
        check(delivery.id === found.id, 'get delivery');
        check(body.deliveryId === delivery.id && body.webhookId === hook.id && body.storeId === storeId &&
              body.metadata.orderId === 'GF-2', 'delivery request: the body sent (' + JSON.stringify(body) + ')');
        const again = await WebhooksService.postWebhooksService1({ storeId, webhookId: hook.id, deliveryId: delivery.id });
        const againId = typeof again === 'string' ? again.replace(/"/g, '') : again;
        check(typeof againId === 'string' && againId.length > 0 && againId !== delivery.id, 'redeliver: a new delivery id');
        const redelivered = await WebhooksService.getWebhooksService2({ storeId, webhookId: hook.id, deliveryId: againId });
        const rb = typeof redelivered === 'string' ? JSON.parse(redelivered) : redelivered;
        check(rb.isRedelivery === true && rb.originalDeliveryId === delivery.id && rb.deliveryId === againId,
              'the redelivery names the original (' + JSON.stringify(rb) + ')');
    }
    try {
        await WebhooksService.getWebhooksService1({ storeId, webhookId: hook.id, deliveryId: 'nosuchdelivery' });
        check(false, 'an unknown delivery is 404');
    } catch (e) { check(e.status === 404, 'unknown delivery: 404'); }
    const one = await WebhooksService.webhokksGetWebhook({ storeId, webhookId: hook.id });
    check(one.id === hook.id && !('secret' in one), 'get webhook, without its secret');
    const hooks = await WebhooksService.webhokksGetWebhooks({ storeId });
    check(hooks.some((h) => h.id === hook.id), 'list webhooks');
    const updated = await WebhooksService.putWebhooksService({ storeId, webhookId: hook.id, requestBody: { enabled: false,
        url: 'https://shop.example/gf-hook2' } });
    check(updated.enabled === false && updated.url === 'https://shop.example/gf-hook2', 'update webhook');
    const deliveries = await WebhooksService.getWebhooksService({ storeId, webhookId: hook.id, count: '10' });
    check(Array.isArray(deliveries), 'deliveries list');
    await WebhooksService.deleteWebhooksService({ storeId, webhookId: hook.id });
    try {
        await WebhooksService.webhokksGetWebhook({ storeId, webhookId: hook.id });
        check(false, 'a deleted webhook is gone');
    } catch (e) { check(e.status === 404, 'deleted webhook: 404'); }
    console.log(`${passed} passed, ${failed} failed`);
    process.exit(failed ? 1 : 0);
})().catch((e) => { console.log('FAIL: ' + (e.stack || e) + ' ' + JSON.stringify(e.body || '')); console.log(`${passed} passed, ${failed + 1} failed`); process.exit(1); });
