# The checkout page's browser tests: Debian's chromium (TEST_PACKAGES), driven by npm puppeteer-core,
# installed here into the build directory (never globally, and never a browser download: puppeteer-core
# has none, and --ignore-scripts runs no install hook). Sourced by scripts/test, which then exports
#   SETTLEDESK_TEST_BROWSER_NODE_MODULES  the node_modules folder holding puppeteer-core
#   SETTLEDESK_TEST_CHROMIUM              the system browser (/usr/bin/chromium)
# A second run installs nothing.

BROWSER_NPM_DIR="${BROWSER_NPM_DIR:-${BUILD_DIR:-$SETTLEDESK_ROOT/build}/npm-browser}"
BROWSER_NPM_TIMEOUT="${BROWSER_NPM_TIMEOUT:-300}"
PUPPETEER_CORE_VERSION=24.43.1

_browser_log() { printf '[browser] %s\n' "$*" >&2; }

browser_install() {
    local dir="$BROWSER_NPM_DIR"
    if [ -f "$dir/node_modules/puppeteer-core/package.json" ] &&
        grep -q "\"version\": \"$PUPPETEER_CORE_VERSION\"" "$dir/node_modules/puppeteer-core/package.json"; then
        return 0
    fi
    command -v node >/dev/null || ensure_packages nodejs
    command -v npm >/dev/null || ensure_packages npm
    mkdir -p "$dir"
    cat >"$dir/package.json" <<JSON
{ "name": "settledesk-browser-tests", "private": true,
  "dependencies": { "puppeteer-core": "$PUPPETEER_CORE_VERSION" } }
JSON
    local attempt
    for attempt in 1 2; do
        _browser_log "npm install puppeteer-core@$PUPPETEER_CORE_VERSION into $dir (attempt $attempt)"
        if (cd "$dir" && PUPPETEER_SKIP_DOWNLOAD=1 timeout "$BROWSER_NPM_TIMEOUT" npm install --ignore-scripts --no-audit \
            --no-fund --no-update-notifier --loglevel=error >"$dir/npm-install.log" 2>&1); then
            return 0
        fi
        tail -n 20 "$dir/npm-install.log" >&2
        rm -rf "$dir/node_modules" "$dir/package-lock.json"
    done
    _browser_log "error: npm install failed (log: $dir/npm-install.log)"
    return 1
}

if [ -z "${BROWSER_LIB_ONLY:-}" ]; then
    browser_install || die "puppeteer-core could not be installed for the browser tests"
    export SETTLEDESK_TEST_BROWSER_NODE_MODULES="$BROWSER_NPM_DIR/node_modules"
    export SETTLEDESK_TEST_CHROMIUM="${SETTLEDESK_TEST_CHROMIUM:-$(command -v chromium || echo /usr/bin/chromium)}"
fi
