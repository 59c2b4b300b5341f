# Monero regtest stack for the tests: an offline regtest monerod, a merchant monero-wallet-rpc (HTTP digest
# login, random password) and a customer monero-wallet-rpc (no login), all on 127.0.0.1 on free ports, in
# $SETTLEDESK_TEST_DIR/monero. The customer wallet is funded (110+ blocks mined to it) and can spend.
#
# Sourced by scripts/test, which then exports:
#   SETTLEDESK_TEST_MONEROD_URL           http://127.0.0.1:P        (daemon; /json_rpc, /pop_blocks, ...)
#   SETTLEDESK_TEST_XMR_MERCHANT_URL      http://127.0.0.1:P/json_rpc
#   SETTLEDESK_TEST_XMR_MERCHANT_USER / SETTLEDESK_TEST_XMR_MERCHANT_PASSWORD   (digest)
#   SETTLEDESK_TEST_XMR_CUSTOMER_URL      http://127.0.0.1:P/json_rpc            (no login)
#   SETTLEDESK_TEST_XMR_CUSTOMER_ADDRESS  the customer's primary address (mining target)
# and registers its stop in STOP_HOOKS. scripts/monero-regtest sources it with MONERO_REGTEST_LIB_ONLY=1 to
# reuse the functions for a developer's long-lived stack.
#
# Facts behind the choices are in shared/reference/monero-regtest.md: --rpc-ssl disabled saves ~3 s per
# process; --no-zmq avoids a fixed port; wallet 0.18.0.0 can spin forever in decoy selection on a chain of
# ~86 coinbase-only blocks, so we mine 110 before any transfer; a spinning wallet-rpc ignores SIGTERM, so
# stopping escalates to SIGKILL.

MONERO_REGTEST_BLOCKS="${MONERO_REGTEST_BLOCKS:-110}"
MONERO_REGTEST_STOP_GRACE="${MONERO_REGTEST_STOP_GRACE:-10}" # seconds between SIGTERM and SIGKILL
# The customer's fixed test seed (regtest coins only) and the primary address it gives.
MONERO_REGTEST_CUSTOMER_SEED="hoax hubcaps delayed cabin rounded inactive buffet ditch oaks victim faked lordship foyer rims peeled vein oust sleepless unfit wobbly sincerely yields wipeout aglow buffet"
MONERO_REGTEST_CUSTOMER_ADDRESS="48m1f89BnGV3kJb3VoZt1XAQxU7PRrfHzcKP61PAhDPT1U8JcDVW2o7fsqkJye397LWcXHHfDWcTwFwomrMwb4QwQXCLxwB"

_xmr_log() { printf '[monero] %s\n' "$*" >&2; }
_xmr_now() { date +%s.%N; }
_xmr_elapsed() { python3 -c "import sys; print('%.1f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$1" "$(_xmr_now)"; }

# Prints the last lines of every log of the stack in $1, for a failure report.
monero_regtest_dump_logs() {
    local dir="$1" f
    for f in "$dir"/logs/*; do
        [ -f "$f" ] || continue
        printf '[monero] ---- %s (last 40 lines) ----\n' "$f" >&2
        tail -n 40 "$f" >&2
    done
}

_xmr_fail() {
    _xmr_log "error: $*"
    monero_regtest_dump_logs "$MONERO_REGTEST_DIR"
    return 1
}

# A JSON-RPC call: _xmr_rpc URL METHOD PARAMS_JSON [curl options...]; prints the response body.
_xmr_rpc() {
    local url="$1" method="$2" params="$3"
    shift 3
    curl -sS --max-time 60 "$@" -H 'Content-Type: application/json' \
        -d "{\"jsonrpc\":\"2.0\",\"id\":\"0\",\"method\":\"$method\",\"params\":$params}" "$url"
}

# Prints the value at a dotted path of the JSON on stdin ("result.address"); fails on a JSON-RPC error.
_xmr_json() {
    python3 -c '
import json, sys
doc = json.load(sys.stdin)
if "error" in doc:
    sys.exit("JSON-RPC error: %s" % json.dumps(doc["error"]))
v = doc
for k in sys.argv[1].split("."):
    v = v[k]
print(v)' "$1"
}

# Waits until the process whose pid file is $1 answers a JSON-RPC call (URL $2, curl options after).
_xmr_wait_rpc() {
    local pidfile="$1" url="$2" method="$3"
    shift 3
    local deadline=$((SECONDS + 60)) answer
    while :; do
        # Captured, not piped into grep -q: under pipefail an early grep exit would fail the pipeline.
        answer="$(_xmr_rpc "$url" "$method" '{}' "$@" 2>/dev/null || true)"
        [[ "$answer" == *'"result"'* ]] && break
        kill -0 "$(cat "$pidfile")" 2>/dev/null || { _xmr_fail "$(basename "$pidfile" .pid) exited during start"; return 1; }
        [ $SECONDS -lt $deadline ] || { _xmr_fail "$(basename "$pidfile" .pid) did not answer at $url in 60 s"; return 1; }
        sleep 0.1
    done
}

# Starts a process detached from the terminal, its pid in $dir/NAME.pid, its stdout/stderr in logs/NAME.out.
_xmr_spawn() {
    local name="$1"
    shift
    setsid "$@" </dev/null >"$MONERO_REGTEST_DIR/logs/$name.out" 2>&1 &
    echo $! >"$MONERO_REGTEST_DIR/$name.pid"
}

# Starts and funds the stack in directory $1 (created). Writes $1/env (export lines) and exports the same.
monero_regtest_start() {
    MONERO_REGTEST_DIR="$1"
    local t0 dir
    t0="$(_xmr_now)"
    dir="$MONERO_REGTEST_DIR"
    command -v monerod >/dev/null || { _xmr_log "error: monerod not installed (Debian package monero)"; return 1; }
    # curl and python3 drive the RPCs here; both are on the machine images, but a bare Debian may lack them.
    command -v curl >/dev/null || ensure_packages curl
    command -v python3 >/dev/null || ensure_packages python3
    mkdir -p "$dir"/node "$dir"/merchant/ringdb "$dir"/customer/ringdb "$dir"/logs
    local dport mport cport password
    dport="$(free_port)"
    mport="$(free_port)"
    cport="$(free_port)"
    password="$(head -c 18 /dev/urandom | base64 | tr '+/' '-_')"

    _xmr_spawn monerod monerod --regtest --offline --fixed-difficulty 1 \
        --data-dir "$dir/node" \
        --rpc-bind-ip 127.0.0.1 --rpc-bind-port "$dport" --rpc-ssl disabled --disable-rpc-ban \
        --p2p-bind-ip 127.0.0.1 --p2p-bind-port "$(free_port)" --no-igd --hide-my-port --no-zmq \
        --disable-dns-checkpoints --check-updates disabled \
        --log-file "$dir/logs/monerod.log" --log-level 0 --max-log-files 1 --non-interactive
    local common=(--daemon-address "127.0.0.1:$dport" --trusted-daemon --daemon-ssl disabled
        --rpc-bind-ip 127.0.0.1 --rpc-ssl disabled --disable-rpc-ban --log-level 0 --max-log-files 1
        --non-interactive --no-dns)
    _xmr_spawn merchant-wallet-rpc monero-wallet-rpc "${common[@]}" --rpc-bind-port "$mport" \
        --rpc-login "merchant:$password" \
        --wallet-dir "$dir/merchant" --shared-ringdb-dir "$dir/merchant/ringdb" \
        --log-file "$dir/logs/merchant-wallet-rpc.log"
    _xmr_spawn customer-wallet-rpc monero-wallet-rpc "${common[@]}" --rpc-bind-port "$cport" \
        --disable-rpc-login \
        --wallet-dir "$dir/customer" --shared-ringdb-dir "$dir/customer/ringdb" \
        --log-file "$dir/logs/customer-wallet-rpc.log"

    local durl="http://127.0.0.1:$dport" murl="http://127.0.0.1:$mport/json_rpc" curl_="http://127.0.0.1:$cport/json_rpc"
    local mauth=(--digest -u "merchant:$password")
    _xmr_wait_rpc "$dir/monerod.pid" "$durl/json_rpc" get_info || return 1

    # The customer wallet is restored from a fixed seed, so its address is known now and mining (about
    # 0.1 s a block, plus 2.5 s of RandomX set-up) overlaps with starting and creating the wallets.
    local address="$MONERO_REGTEST_CUSTOMER_ADDRESS" t1
    t1="$(_xmr_now)"
    _xmr_rpc "$durl/json_rpc" generateblocks \
        "{\"amount_of_blocks\":$MONERO_REGTEST_BLOCKS,\"wallet_address\":\"$address\"}" --max-time 300 \
        >"$dir/logs/generateblocks.json" 2>&1 &
    local minejob=$!

    _xmr_wait_rpc "$dir/merchant-wallet-rpc.pid" "$murl" get_version "${mauth[@]}" || return 1
    _xmr_wait_rpc "$dir/customer-wallet-rpc.pid" "$curl_" get_version || return 1
    _xmr_log "processes answering after $(_xmr_elapsed "$t0") s"

    # Both wallets are created in parallel: each takes 1.2-3.7 s.
    _xmr_rpc "$murl" create_wallet '{"filename":"merchant","language":"English"}' "${mauth[@]}" >"$dir/logs/create-merchant.json" &
    local mjob=$!
    _xmr_rpc "$curl_" restore_deterministic_wallet \
        "{\"filename\":\"customer\",\"password\":\"\",\"seed\":\"$MONERO_REGTEST_CUSTOMER_SEED\",\"restore_height\":0,\"language\":\"English\"}" \
        --max-time 120 >"$dir/logs/create-customer.json" || { _xmr_fail "customer restore_deterministic_wallet failed"; return 1; }
    wait $mjob || { _xmr_fail "merchant create_wallet failed"; return 1; }
    grep -q '"result"' "$dir/logs/create-merchant.json" || { _xmr_fail "merchant create_wallet: $(cat "$dir/logs/create-merchant.json")"; return 1; }
    grep -q "$address" "$dir/logs/create-customer.json" || { _xmr_fail "customer wallet: $(cat "$dir/logs/create-customer.json")"; return 1; }
    _xmr_log "wallets created after $(_xmr_elapsed "$t0") s"

    wait $minejob || { _xmr_fail "generateblocks failed: $(cat "$dir/logs/generateblocks.json")"; return 1; }
    _xmr_json result.height <"$dir/logs/generateblocks.json" >/dev/null ||
        { _xmr_fail "generateblocks: $(cat "$dir/logs/generateblocks.json")"; return 1; }
    _xmr_log "mined $MONERO_REGTEST_BLOCKS blocks $(_xmr_elapsed "$t1") s after the daemon answered"

    # Funds are spendable once the customer has scanned the chain and coinbase outputs passed their 60-block lock.
    local unlocked deadline=$((SECONDS + 60))
    while :; do
        _xmr_rpc "$curl_" refresh '{}' --max-time 120 >/dev/null
        unlocked="$(_xmr_rpc "$curl_" get_balance '{"account_index":0}' | _xmr_json result.unlocked_balance)" || unlocked=0
        [ "${unlocked:-0}" != 0 ] && break
        [ $SECONDS -lt $deadline ] || { _xmr_fail "customer has no unlocked balance after mining"; return 1; }
        sleep 0.2
    done
    _xmr_log "customer can spend after $(_xmr_elapsed "$t0") s"
    _xmr_rpc "$murl" refresh '{}' "${mauth[@]}" --max-time 120 >/dev/null

    cat >"$dir/env" <<EOF
export SETTLEDESK_TEST_MONEROD_URL=$durl
export SETTLEDESK_TEST_XMR_MERCHANT_URL=$murl
export SETTLEDESK_TEST_XMR_MERCHANT_USER=merchant
export SETTLEDESK_TEST_XMR_MERCHANT_PASSWORD=$password
export SETTLEDESK_TEST_XMR_CUSTOMER_URL=$curl_
export SETTLEDESK_TEST_XMR_CUSTOMER_ADDRESS=$address
EOF
    # shellcheck disable=SC1091
    source "$dir/env"
    _xmr_log "ready in $(_xmr_elapsed "$t0") s: daemon $durl, merchant $murl, customer $curl_ (unlocked $unlocked)"
}

# Stops the stack in directory $1: SIGTERM to every process (wallets then store their files), SIGKILL to
# whatever still runs after the grace period (a wallet-rpc spinning in decoy selection ignores SIGTERM).
# Only pids whose command line names this directory are signalled, so a recycled pid is never hit.
monero_regtest_stop() {
    local dir="$1" pidfile pid pids=()
    for pidfile in "$dir"/*.pid; do
        [ -f "$pidfile" ] || continue
        pid="$(cat "$pidfile")"
        if [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$dir"; then
            kill -TERM "$pid" 2>/dev/null && pids+=("$pid")
        fi
        rm -f "$pidfile"
    done
    [ ${#pids[@]} -eq 0 ] && return 0
    wait_for_exit "$MONERO_REGTEST_STOP_GRACE" "${pids[@]}" && return 0
    local alive=()
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive+=("$pid"); done
    [ ${#alive[@]} -eq 0 ] && return 0
    _xmr_log "SIGKILL after ${MONERO_REGTEST_STOP_GRACE} s: ${alive[*]}"
    kill -KILL "${alive[@]}" 2>/dev/null
    return 0
}

if [ -z "${MONERO_REGTEST_LIB_ONLY:-}" ]; then
    STOP_HOOKS+=("monero_regtest_stop '$SETTLEDESK_TEST_DIR/monero'")
    monero_regtest_start "$SETTLEDESK_TEST_DIR/monero" || die "monero regtest stack did not start"
fi
