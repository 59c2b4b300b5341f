# Ethereum dev node for the ERC-20 (USDT) tests: anvil from npm (@foundry-rs/anvil-linux-amd64, the platform
# package: no install script) in manual-mining mode on 127.0.0.1 on a free port, in $SETTLEDESK_TEST_DIR/anvil,
# plus the tests' 6-decimal token (tests/erc20/TestUsdt.sol) compiled offline with solc-js (npm `solc`).
# The npm packages and the compiled bytecode are cached in $BUILD_DIR/npm-anvil (keyed by version and by
# the source's hash), so only the first run downloads (~50 MB) and compiles.
#
# Sourced by scripts/test, which then exports:
#   SETTLEDESK_TEST_ETH_URL             http://127.0.0.1:P (JSON-RPC; anvil_*, evm_* test methods included)
#   SETTLEDESK_TEST_ERC20_BYTECODE      file with the token's deployment bytecode (0x-hex)
# and registers its stop in STOP_HOOKS. For a developer's long-lived node:
#   ANVIL_TEST_LIB_ONLY=1 source scripts/lib/common.sh scripts/services/anvil.sh
#   anvil_test_start /tmp/anvil && source /tmp/anvil/env      ...      anvil_test_stop /tmp/anvil
# Facts behind the choices (versions, timings, reorg behaviour) are in shared/reference/btc-eth-nodes.md.

ANVIL_NPM_PACKAGE="@foundry-rs/anvil-linux-amd64@1.7.1"
SOLC_NPM_PACKAGE="solc@0.8.37"

_anvil_log() { printf '[anvil] %s\n' "$*" >&2; }

# Installs anvil and solc-js into the cache dir $1 unless the pinned versions are there already.
anvil_install() {
    local cache="$1" stamp="$1/installed"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$ANVIL_NPM_PACKAGE $SOLC_NPM_PACKAGE" ] &&
        [ -x "$cache/node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil" ]; then
        return 0
    fi
    command -v npm >/dev/null || ensure_packages nodejs npm
    mkdir -p "$cache"
    _anvil_log "installing $ANVIL_NPM_PACKAGE $SOLC_NPM_PACKAGE into $cache"
    npm install --prefix "$cache" --no-audit --no-fund --no-save --no-package-lock --loglevel=error \
        "$ANVIL_NPM_PACKAGE" "$SOLC_NPM_PACKAGE" >"$cache/npm.log" 2>&1 \
        || { _anvil_log "error: npm install failed"; tail -n 30 "$cache/npm.log" >&2; return 1; }
    echo "$ANVIL_NPM_PACKAGE $SOLC_NPM_PACKAGE" >"$stamp"
}

# The token's bytecode, compiled once per source version; prints the file name.
anvil_compile_token() {
    local cache="$1" source="$SETTLEDESK_ROOT/tests/erc20/TestUsdt.sol" hash out
    hash="$(sha256sum "$source" | cut -c1-16)"
    out="$cache/TestUsdt-$hash.hex"
    if [ ! -s "$out" ]; then
        node "$SETTLEDESK_ROOT/tests/erc20/compile.js" "$cache/node_modules/solc" "$source" "$out.tmp" \
            || { _anvil_log "error: compiling $source failed"; return 1; }
        mv "$out.tmp" "$out"
    fi
    printf '%s\n' "$out"
}

# Starts anvil in directory $1 (created). Writes $1/env (export lines) and exports the same.
anvil_test_start() {
    local dir="$1" cache="${ANVIL_CACHE_DIR:-$BUILD_DIR/npm-anvil}" port bytecode
    command -v curl >/dev/null || ensure_packages curl
    anvil_install "$cache" || return 1
    mkdir -p "$dir/home"
    port="$(free_port)"
    # HOME inside the test dir: anvil writes its cache and config under ~/.foundry.
    HOME="$dir/home" setsid "$cache/node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil" \
        --host 127.0.0.1 --port "$port" --chain-id 31337 --accounts 10 --balance 10000 --no-mining \
        </dev/null >"$dir/anvil.log" 2>&1 &
    echo $! >"$dir/anvil.pid"
    # The compile (1.5-2 s) overlaps with anvil's start (0.3 s).
    bytecode="$(anvil_compile_token "$cache")" || return 1
    local deadline=$((SECONDS + 30)) answer
    while :; do
        answer="$(curl -sS --max-time 5 -H 'Content-Type: application/json' \
            -d '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}' "http://127.0.0.1:$port" 2>/dev/null || true)"
        [[ "$answer" == *'"result"'* ]] && break
        kill -0 "$(cat "$dir/anvil.pid")" 2>/dev/null || { _anvil_log "error: anvil exited"; tail -n 30 "$dir/anvil.log" >&2; return 1; }
        [ $SECONDS -lt $deadline ] || { _anvil_log "error: anvil did not answer in 30 s"; tail -n 30 "$dir/anvil.log" >&2; return 1; }
        sleep 0.1
    done
    cat >"$dir/env" <<EOT
export SETTLEDESK_TEST_ETH_URL=http://127.0.0.1:$port
export SETTLEDESK_TEST_ERC20_BYTECODE=$bytecode
EOT
    # shellcheck disable=SC1091
    source "$dir/env"
    _anvil_log "anvil $("$cache/node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil" --version | head -n 1 | awk '{print $3}') on 127.0.0.1:$port ($dir)"
}

# Stops anvil started in $1 (only the pid whose command line is anvil, so a recycled pid is never hit).
anvil_test_stop() {
    local dir="$1" pid
    [ -f "$dir/anvil.pid" ] || return 0
    pid="$(cat "$dir/anvil.pid")"
    if [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q 'anvil'; then
        kill -TERM "$pid" 2>/dev/null || true
    fi
    rm -f "$dir/anvil.pid"
}

if [ -z "${ANVIL_TEST_LIB_ONLY:-}" ]; then
    STOP_HOOKS+=("anvil_test_stop '$SETTLEDESK_TEST_DIR/anvil'")
    anvil_test_start "$SETTLEDESK_TEST_DIR/anvil" || die "the anvil test node did not start"
fi
