# Shared by scripts/run, scripts/test and scripts/bench: install what is missing, configure, build.
# Sourced, not executed.

SETTLEDESK_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD_DIR="${SETTLEDESK_BUILD_DIR:-$SETTLEDESK_ROOT/build}"

log() { printf '[settledesk] %s\n' "$*" >&2; }
die() { printf '[settledesk] error: %s\n' "$*" >&2; exit 1; }

# Waits until none of the processes PID... is alive, polling every 0.1 s for at most GRACE seconds:
# wait_for_exit GRACE PID... True when they all ended, false when time ran out first.
wait_for_exit() {
    local deadline=$((SECONDS + $1)) pid alive
    shift
    while :; do
        alive=0
        for pid in "$@"; do kill -0 "$pid" 2>/dev/null && alive=1; done
        [ "$alive" -eq 0 ] && return 0
        [ $SECONDS -ge $deadline ] && return 1
        sleep 0.1
    done
}

# Debian packages needed to build and run (and, for the tests, the servers they start).
BUILD_PACKAGES=(cmake ninja-build g++ pkg-config
    qt6-base-dev libqt6opengl6-dev qt6-charts-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qt6-translations-l10n
    qtkeychain-qt6-dev libqt6sql6-sqlite libqt6sql6-psql libboost-dev libqrencode-dev libgl-dev libqt6svg6
    libxcursor1  # the X platform plugin dlopens it for cursor themes, so no package depends on it
    dpkg-dev)  # dpkg-shlibdeps: `--target package` computes the .deb's library dependencies
TEST_PACKAGES=(postgresql monero xvfb xauth poppler-utils  # xvfb-run needs xauth (only recommended by xvfb)
    desktop-file-utils appstream systemd  # validators for the package test (desktop entry, metainfo, unit)
    python3 openssl)  # free_port; the PostgreSQL test cluster's throw-away TLS certificate
TEST_PACKAGES+=(nodejs curl)  # bcoin (Bitcoin regtest node; npm comes with NodeSource nodejs, else bitcoin.sh installs it)
TEST_PACKAGES+=(chromium zbar-tools)  # the checkout page in a real browser (puppeteer-core drives it); QR decoding
# Programs the test scripts and tests run; scripts/check-packages requires a listed package to provide each.
TEST_COMMANDS=(monerod monero-wallet-rpc initdb pg_ctl postgres psql openssl curl python3 node setsid timeout
    pdftotext dpkg-deb dpkg-shlibdeps desktop-file-validate appstreamcli systemd-analyze xvfb-run
    chromium zbarimg)

# Installs the Debian packages in "$@" that are not installed yet; `apt-get update` at most once.
ensure_packages() {
    local missing=() p
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || die "missing packages (${missing[*]}) and not root; install them or run as root"
        sudo=(sudo)
    fi
    log "installing: ${missing[*]}"
    if [ -z "${_SETTLEDESK_APT_UPDATED:-}" ]; then
        "${sudo[@]}" apt-get update -qq || die "apt-get update failed"
        _SETTLEDESK_APT_UPDATED=1
    fi
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq -o DPkg::Lock::Timeout=600 \
        --no-install-recommends "${missing[@]}" >/dev/null || die "apt-get install failed: ${missing[*]}"
}

# Configures (first time only) and builds into $BUILD_DIR. Extra CMake options may be given.
build_project() {
    if [ ! -f "$BUILD_DIR/build.ninja" ]; then
        log "configuring in $BUILD_DIR"
        cmake -S "$SETTLEDESK_ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null \
            || die "cmake configure failed"
    elif [ $# -gt 0 ]; then
        cmake "$BUILD_DIR" "$@" >/dev/null || die "cmake configure failed"
    fi
    local out="$BUILD_DIR/last-build.log"
    if ! cmake --build "$BUILD_DIR" --parallel "$(nproc)" >"$out" 2>&1; then
        grep -vE '^\[[0-9]+/[0-9]+\] ' "$out" | tail -n 80 >&2
        die "build failed (full log: $out)"
    fi
    grep -iE 'warning' "$out" | head -n 20 >&2 || true
}

# True when DIR/node_modules holds each package: npm_installed DIR NAME[@VERSION]... (at VERSION where
# one is given; unscoped names only).
npm_installed() {
    local dir=$1 spec name version
    shift
    for spec in "$@"; do
        name=${spec%%@*}
        version=${spec#"$name"}
        version=${version#@}
        [ -f "$dir/node_modules/$name/package.json" ] || return 1
        [ -z "$version" ] || grep -q "\"version\": \"$version\"" "$dir/node_modules/$name/package.json" || return 1
    done
}

# npm packages for the tests, installed into DIR (a folder of the build tree; never globally, no install
# scripts run, so no browser or binary download): npm_install_local DIR TIMEOUT NAME@VERSION... Writes
# DIR/package.json, tries twice, logs to DIR/npm-install.log. Returns non-zero when both tries failed.
npm_install_local() {
    local dir="$1" timeout_s="$2" deps="" spec attempt
    shift 2
    for spec in "$@"; do
        deps+="${deps:+, }\"${spec%@*}\": \"${spec##*@}\""
    done
    command -v node >/dev/null || ensure_packages nodejs
    command -v npm >/dev/null || ensure_packages npm
    mkdir -p "$dir"
    printf '{ "name": "settledesk-test-%s", "private": true, "dependencies": { %s } }\n' "$(basename "$dir")" "$deps" \
        >"$dir/package.json"
    for attempt in 1 2; do
        log "npm install $* into $dir (attempt $attempt)"
        if (cd "$dir" && PUPPETEER_SKIP_DOWNLOAD=1 timeout "$timeout_s" npm install --ignore-scripts --no-audit --no-fund \
            --no-update-notifier --loglevel=error >"$dir/npm-install.log" 2>&1); then
            return 0
        fi
        tail -n 20 "$dir/npm-install.log" >&2
        rm -rf "$dir/node_modules" "$dir/package-lock.json"
    done
    log "error: npm install failed (log: $dir/npm-install.log)"
    return 1
}

# A free TCP port on 127.0.0.1 (asks the kernel; racy only against other processes grabbing ports).
free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}
