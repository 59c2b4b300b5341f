// Compiles TestUsdt.sol with solc-js (offline: the compiler ships inside the npm package) and writes the
// deployment bytecode as 0x-hex to OUT.   node compile.js SOLC_MODULE_DIR SOURCE OUT
'use strict';
const fs = require('fs');
const path = require('path');
const [solcDir, source, out] = process.argv.slice(2);
if (!solcDir || !source || !out) {
    console.error('usage: node compile.js SOLC_MODULE_DIR SOURCE OUT');
    process.exit(2);
}
const solc = require(path.resolve(solcDir));
const input = {
    language: 'Solidity',
    sources: { 'TestUsdt.sol': { content: fs.readFileSync(source, 'utf8') } },
    settings: { optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { '*': ['evm.bytecode.object'] } } },
};
const output = JSON.parse(solc.compile(JSON.stringify(input)));
const errors = (output.errors || []).filter((e) => e.severity === 'error');
if (errors.length) {
    console.error(errors.map((e) => e.formattedMessage).join('\n'));
    process.exit(1);
}
const bytecode = output.contracts['TestUsdt.sol'].TestUsdt.evm.bytecode.object;
if (!bytecode) {
    console.error('no bytecode');
    process.exit(1);
}
fs.writeFileSync(out, '0x' + bytecode + '\n');
