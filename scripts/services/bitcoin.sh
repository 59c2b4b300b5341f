# Bitcoin regtest node for the tests: bcoin 1.0.2 (a full node in JavaScript, from npm; Debian 12 has no
# bitcoind) with its wallet, on 127.0.0.1 on free ports, chain and wallets in memory, in
# $SETTLEDESK_TEST_DIR/bitcoin. The merchant is bcoin's `primary` wallet (the one its wallet RPC serves);
# the customer is a second wallet, driven over REST, funded by 101 blocks mined to it.
#
# Sourced by scripts/test, which then exports:
#   SETTLEDESK_TEST_BTC_NODE_URL          http://127.0.0.1:P/    node JSON-RPC (generatetoaddress, invalidateblock)
#   SETTLEDESK_TEST_BTC_WALLET_URL        http://127.0.0.1:W/    wallet JSON-RPC (merchant) and REST (/wallet/customer/...)
#   SETTLEDESK_TEST_BTC_API_KEY           HTTP basic auth password of both ports (any user name)
#   SETTLEDESK_TEST_BTC_CUSTOMER_ADDRESS  the customer's address (mining target)
# and registers its stop in STOP_HOOKS. For a developer's long-lived node:
#   BITCOIN_REGTEST_LIB_ONLY=1 source scripts/lib/common.sh scripts/services/bitcoin.sh
#   bitcoin_regtest_start /tmp/btc && source /tmp/btc/env      ...      bitcoin_regtest_stop /tmp/btc
#
# Facts behind the choices are in shared/reference/btc-eth-nodes.md (part A): a plain `npm install bcoin`
# fails (leveldown 4 does not build on current Node), so leveldown is overridden to 5.6.0 and scripts are
# skipped, which needs NODE_BACKEND=js; the on-disk database breaks the wallet, hence --memory=true; and
# without BCOIN_NETWORK=regtest the wallet RPC prints mainnet addresses.

BCOIN_VERSION=1.0.2
# npm packages are cached under the build directory, so a second run installs nothing.
BITCOIN_NPM_DIR="${BITCOIN_NPM_DIR:-${BUILD_DIR:-$SETTLEDESK_ROOT/build}/npm-bcoin}"
BITCOIN_READY_TIMEOUT="${BITCOIN_READY_TIMEOUT:-60}" # seconds for the node to answer
BITCOIN_NPM_TIMEOUT="${BITCOIN_NPM_TIMEOUT:-300}"    # seconds per npm install attempt

_btc_log() { printf '[bitcoin] %s\n' "$*" >&2; }

_btc_fail() {
    _btc_log "error: $*"
    if [ -f "$BITCOIN_REGTEST_DIR/logs/bcoin.out" ]; then
        _btc_log "---- bcoin.out (last 40 lines) ----"
        tail -n 40 "$BITCOIN_REGTEST_DIR/logs/bcoin.out" >&2
    fi
    return 1
}

# Installs bcoin into $BITCOIN_NPM_DIR unless the right version is there already.
bitcoin_npm_install() {
    local dir="$BITCOIN_NPM_DIR"
    npm_installed "$dir" "bcoin@$BCOIN_VERSION" leveldown && return 0
    command -v node >/dev/null || ensure_packages nodejs
    # Debian's nodejs comes without npm; NodeSource's bundles it (and conflicts with Debian's npm package).
    command -v npm >/dev/null || ensure_packages npm
    mkdir -p "$dir"
    cat >"$dir/package.json" <<JSON
{ "name": "settledesk-btc-peer", "private": true,
  "dependencies": { "bcoin": "$BCOIN_VERSION" },
  "overrides":    { "leveldown": "5.6.0" } }
JSON
    local attempt
    for attempt in 1 2; do
        _btc_log "npm install bcoin@$BCOIN_VERSION into $dir (attempt $attempt)"
        if (cd "$dir" && timeout "$BITCOIN_NPM_TIMEOUT" npm install --ignore-scripts --no-audit --no-fund \
            --no-update-notifier --loglevel=error >"$dir/npm-install.log" 2>&1); then
            [ -f "$dir/node_modules/bcoin/bin/node" ] && return 0
        fi
        tail -n 20 "$dir/npm-install.log" >&2
        rm -rf "$dir/node_modules" "$dir/package-lock.json"
    done
    _btc_log "error: npm install of bcoin failed (log: $dir/npm-install.log)"
    return 1
}

# curl with the API key: _btc_curl URL [curl options...]
_btc_curl() {
    local url="$1"
    shift
    curl -sS --max-time 30 -u "x:$BITCOIN_API_KEY" "$@" "$url"
}

# A JSON-RPC call: _btc_rpc URL METHOD PARAMS_JSON_ARRAY; prints `result` as JSON, fails on an error.
_btc_rpc() {
    local answer
    answer="$(_btc_curl "$1" -H 'Content-Type: application/json' \
        -d "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"$2\",\"params\":$3}")" || return 1
    python3 -c '
import json, sys
doc = json.loads(sys.argv[1])
if doc.get("error"):
    sys.exit("%s: %s" % (sys.argv[2], json.dumps(doc["error"])))
print(json.dumps(doc["result"]))' "$answer" "$2"
}

# Starts bcoin in directory $1 (created). Writes $1/env (export lines) and exports the same.
bitcoin_regtest_start() {
    BITCOIN_REGTEST_DIR="$1"
    local dir="$1" t0=$SECONDS
    command -v curl >/dev/null || ensure_packages curl
    command -v python3 >/dev/null || ensure_packages python3
    bitcoin_npm_install || return 1
    mkdir -p "$dir/data/wallet" "$dir/logs"
    local nport wport pport
    nport="$(free_port)"
    wport="$(free_port)"
    pport="$(free_port)" # never opened (--listen=false); also the dead loopback seed
    BITCOIN_API_KEY="$(head -c 18 /dev/urandom | base64 | tr '+/' '-_')"

    BCOIN_NETWORK=regtest NODE_BACKEND=js setsid node "$BITCOIN_NPM_DIR/node_modules/bcoin/bin/node" \
        --network=regtest --memory=true --workers=false --index-tx=true --index-address=true \
        --prefix="$dir/data" --wallet-prefix="$dir/data/wallet" \
        --http-host=127.0.0.1 --http-port="$nport" --api-key="$BITCOIN_API_KEY" \
        --wallet-http-host=127.0.0.1 --wallet-http-port="$wport" --wallet-api-key="$BITCOIN_API_KEY" \
        --listen=false --host=127.0.0.1 --port="$pport" --max-outbound=1 --seeds="127.0.0.1:$pport" \
        --log-level=warning </dev/null >"$dir/logs/bcoin.out" 2>&1 &
    echo $! >"$dir/bcoin.pid"

    local nurl="http://127.0.0.1:$nport/" wurl="http://127.0.0.1:$wport/"
    local deadline=$((SECONDS + BITCOIN_READY_TIMEOUT))
    until _btc_curl "$nurl" -f -o /dev/null 2>/dev/null && _btc_curl "${wurl}wallet/primary" -f -o /dev/null 2>/dev/null; do
        kill -0 "$(cat "$dir/bcoin.pid")" 2>/dev/null || { _btc_fail "bcoin exited during start"; return 1; }
        [ $SECONDS -lt $deadline ] || { _btc_fail "bcoin did not answer in $BITCOIN_READY_TIMEOUT s"; return 1; }
        sleep 0.2
    done

    # The customer: a second wallet (P2PKH, as exercised in the reference), funded by mining to it.
    _btc_curl "${wurl}wallet/customer" -f -X PUT -H 'Content-Type: application/json' -d '{"witness":false}' \
        >"$dir/logs/create-customer.json" || { _btc_fail "creating the customer wallet failed"; return 1; }
    local address
    address="$(_btc_curl "${wurl}wallet/customer/address" -f -X POST -H 'Content-Type: application/json' \
        -d '{"account":"default"}' | python3 -c 'import json, sys; print(json.load(sys.stdin)["address"])')" ||
        { _btc_fail "no customer address"; return 1; }
    _btc_rpc "$nurl" generatetoaddress "[101, \"$address\"]" >/dev/null || { _btc_fail "mining to the customer failed"; return 1; }

    cat >"$dir/env" <<ENV
export SETTLEDESK_TEST_BTC_NODE_URL=$nurl
export SETTLEDESK_TEST_BTC_WALLET_URL=$wurl
export SETTLEDESK_TEST_BTC_API_KEY=$BITCOIN_API_KEY
export SETTLEDESK_TEST_BTC_CUSTOMER_ADDRESS=$address
ENV
    # shellcheck disable=SC1091
    source "$dir/env"
    _btc_log "ready in $((SECONDS - t0)) s: node $nurl, wallet $wurl, customer $address"
}

# Stops the node started in directory $1. bcoin renames its process title to "bcoin", which overwrites its
# command line, so the directory cannot be read back from it: the pid is taken when it is still a node
# started by setsid from this script (a process-group leader), and its whole group is signalled.
bitcoin_regtest_stop() {
    local dir="$1" pid exe
    [ -f "$dir/bcoin.pid" ] || return 0
    pid="$(cat "$dir/bcoin.pid")"
    rm -f "$dir/bcoin.pid"
    exe="$(readlink "/proc/$pid/exe" 2>/dev/null)" || return 0
    case "$exe" in */node | */nodejs) ;; *) return 0 ;; esac
    [ "$(ps -o pgid= -p "$pid" | tr -d ' ')" = "$pid" ] || return 0
    kill -TERM -- "-$pid" 2>/dev/null || return 0
    wait_for_exit 10 "$pid" || kill -KILL -- "-$pid" 2>/dev/null
    return 0
}

if [ -z "${BITCOIN_REGTEST_LIB_ONLY:-}" ]; then
    STOP_HOOKS+=("bitcoin_regtest_stop '$SETTLEDESK_TEST_DIR/bitcoin'")
    bitcoin_regtest_start "$SETTLEDESK_TEST_DIR/bitcoin" || die "bitcoin regtest node did not start"
fi
