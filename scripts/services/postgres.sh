# A private PostgreSQL cluster for the store tests: initdb in $SETTLEDESK_TEST_DIR/pg as an unprivileged
# user (`postgres` when we are root, else ourselves), listening only on 127.0.0.1 on a free port, its unix
# socket inside the directory, TLS on with a throw-away self-signed certificate for 127.0.0.1, and
# password (SCRAM) login for a non-superuser test role that may create databases (the tests make a fresh
# database per case).
#
# Sourced by scripts/test, which then exports:
#   SETTLEDESK_TEST_PG_URL       postgres://settledesk@127.0.0.1:P/settledesk_test?sslmode=require (no password)
#   SETTLEDESK_TEST_PG_PASSWORD  the test role's random password
#   SETTLEDESK_TEST_PG_CA        the server certificate (its own root), for sslmode=verify-full tests
# and registers `pg_ctl stop -m fast` in STOP_HOOKS.
#
# A second cluster in $SETTLEDESK_TEST_DIR/pg-outage is for the database outage test only, which
# stops and starts its server mid-run: the shared cluster cannot be restarted while other tests (ctest -j2)
# use it. It exports the same three variables with the prefix SETTLEDESK_TEST_PG_OUTAGE_ (URL, PASSWORD,
# CA), plus SETTLEDESK_TEST_PG_OUTAGE_STOP / _START: shell commands that stop (fast) and start it again,
# on the same port.
#
# For a developer's long-lived cluster:
#   source scripts/lib/common.sh; POSTGRES_TEST_LIB_ONLY=1 source scripts/services/postgres.sh
#   postgres_test_start /tmp/pg && source /tmp/pg/env      ...      postgres_test_stop /tmp/pg

_pg_log() { printf '[postgres] %s\n' "$*" >&2; }

# The newest server binaries Debian installed (package `postgresql` pulls in postgresql-NN).
_pg_bindir() {
    local d
    d="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
    [ -n "$d" ] && [ -x "$d/initdb" ] || return 1
    printf '%s\n' "$d"
}

# Runs "$@" as the cluster owner: the unprivileged `postgres` user when we are root (initdb and the
# server refuse to run as root), else as ourselves.
_pg_as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

# Starts a cluster in directory $1 (created). Writes $1/env (export lines) and exports the same, named
# with the prefix $2 (default SETTLEDESK_TEST_PG): ${2}_URL, ${2}_PASSWORD, ${2}_CA, and for any other
# prefix ${2}_STOP, ${2}_START.
postgres_test_start() {
    local dir="$1" prefix="${2:-SETTLEDESK_TEST_PG}" bindir port password owner=
    bindir="$(_pg_bindir)" || { _pg_log "error: no initdb under /usr/lib/postgresql/*/bin (package postgresql)"; return 1; }
    port="$(free_port)"
    # Alphanumeric only: it is pasted into SQL and URLs by the tests.
    password="$(head -c 64 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' | head -c 24)"
    mkdir -p "$dir/socket"
    chmod 700 "$dir"
    if [ "$(id -u)" -eq 0 ]; then
        id postgres >/dev/null 2>&1 || { _pg_log "error: no user postgres (package postgresql creates it)"; return 1; }
        chown -R postgres:postgres "$dir"
    fi

    _pg_as_owner "$bindir/initdb" -D "$dir/data" -U postgres --auth-local=trust --auth-host=scram-sha-256 \
        -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
        || { _pg_log "error: initdb failed"; tail -n 30 "$dir/initdb.log" >&2; return 1; }

    # A certificate valid for 127.0.0.1 that is its own root, so the tests can check verify-full.
    _pg_as_owner openssl req -x509 -newkey rsa:2048 -nodes -days 3 -subj "/CN=127.0.0.1" \
        -addext "subjectAltName=IP:127.0.0.1" -keyout "$dir/data/server.key" -out "$dir/data/server.crt" \
        >"$dir/openssl.log" 2>&1 || { _pg_log "error: openssl failed"; cat "$dir/openssl.log" >&2; return 1; }
    _pg_as_owner chmod 600 "$dir/data/server.key"
    cp "$dir/data/server.crt" "$dir/ca.crt"
    chmod 644 "$dir/ca.crt"

    # Loopback only; the socket stays inside the private directory. fsync stays on: the crash tests
    # reopen after killed clients and must see exactly what was committed.
    _pg_as_owner tee -a "$dir/data/postgresql.conf" >/dev/null <<EOF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir/socket'
max_connections = 200
ssl = on
ssl_cert_file = 'server.crt'
ssl_key_file = 'server.key'
password_encryption = 'scram-sha-256'
logging_collector = off
log_min_messages = warning
EOF
    # Superuser only over the private socket; everything over TCP needs the test role's password.
    _pg_as_owner tee "$dir/data/pg_hba.conf" >/dev/null <<EOF
local all postgres trust
host  all settledesk 127.0.0.1/32 scram-sha-256
EOF

    _pg_as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null \
        || { _pg_log "error: the server did not start"; tail -n 40 "$dir/server.log" >&2; return 1; }

    _pg_as_owner "$bindir/psql" -X -q -v ON_ERROR_STOP=1 -h "$dir/socket" -p "$port" -U postgres \
        -d postgres -v pw="$password" >/dev/null <<'EOF' || { _pg_log "error: creating the test role failed"; return 1; }
CREATE ROLE settledesk LOGIN CREATEDB PASSWORD :'pw';
CREATE DATABASE settledesk_test OWNER settledesk;
EOF

    cat >"$dir/env" <<EOF
export ${prefix}_URL='postgres://settledesk@127.0.0.1:$port/settledesk_test?sslmode=require'
export ${prefix}_PASSWORD='$password'
export ${prefix}_CA='$dir/ca.crt'
EOF
    # A private cluster (not the shared one) also gets the commands a test runs to take its server down
    # and up again, as the cluster's owner when we are root.
    if [ "$prefix" != SETTLEDESK_TEST_PG ]; then
        [ "$(id -u)" -eq 0 ] && owner="runuser -u postgres -- "
        cat >>"$dir/env" <<EOF
export ${prefix}_STOP='$owner$bindir/pg_ctl -D $dir/data -m fast -w -t 60 stop'
export ${prefix}_START='$owner$bindir/pg_ctl -D $dir/data -l $dir/server.log -w -t 60 start'
EOF
    fi
    chmod 644 "$dir/env"
    # shellcheck disable=SC1091
    source "$dir/env"
    _pg_log "PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on 127.0.0.1:$port ($dir)"
}

# Stops the cluster in $1 (fast: rolls back open transactions, waits until it is down).
postgres_test_stop() {
    local dir="$1" bindir
    [ -f "$dir/data/postmaster.pid" ] || return 0
    bindir="$(_pg_bindir)" || return 0
    _pg_as_owner "$bindir/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >/dev/null 2>&1
}

# A cluster kept between runs in $1 (the benchmarks' data sets, which take long to make): made by
# postgres_test_start the first time, started again on a free port after that, with the same role and
# password. Exports SETTLEDESK_BENCH_PG_URL / _PASSWORD (and writes them to $1/env). Stop it with
# postgres_test_stop; its data stays.
postgres_keep_start() {
    local dir="$1" bindir port
    if [ ! -f "$dir/data/PG_VERSION" ]; then
        rm -rf "$dir"
        postgres_test_start "$dir" SETTLEDESK_BENCH_PG
        return
    fi
    bindir="$(_pg_bindir)" || { _pg_log "error: no initdb under /usr/lib/postgresql/*/bin (package postgresql)"; return 1; }
    port="$(free_port)"
    # The last setting in the file wins: a new free port for this run.
    echo "port = $port" | _pg_as_owner tee -a "$dir/data/postgresql.conf" >/dev/null
    _pg_as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 120 start >/dev/null \
        || { _pg_log "error: the kept server did not start"; tail -n 40 "$dir/server.log" >&2; return 1; }
    # shellcheck disable=SC1091
    source "$dir/env"
    SETTLEDESK_BENCH_PG_URL="$(printf '%s' "$SETTLEDESK_BENCH_PG_URL" | sed -E "s#@127\.0\.0\.1:[0-9]+/#@127.0.0.1:$port/#")"
    export SETTLEDESK_BENCH_PG_URL
    sed -i -E "s#@127\.0\.0\.1:[0-9]+/#@127.0.0.1:$port/#" "$dir/env"
    _pg_log "PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on 127.0.0.1:$port ($dir, kept)"
}

if [ -z "${POSTGRES_TEST_LIB_ONLY:-}" ]; then
    STOP_HOOKS+=("postgres_test_stop '$SETTLEDESK_TEST_DIR/pg'")
    postgres_test_start "$SETTLEDESK_TEST_DIR/pg" || die "the PostgreSQL test cluster did not start"
    STOP_HOOKS+=("postgres_test_stop '$SETTLEDESK_TEST_DIR/pg-outage'")
    postgres_test_start "$SETTLEDESK_TEST_DIR/pg-outage" SETTLEDESK_TEST_PG_OUTAGE \
        || die "the PostgreSQL outage test cluster did not start"
fi
