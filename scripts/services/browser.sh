# The checkout page's browser tests: Debian's chromium (TEST_PACKAGES), driven by npm puppeteer-core,
# installed here into the build directory (never globally, and never a browser download: puppeteer-core
# has none, and --ignore-scripts runs no install hook). Sourced by scripts/test, which then exports
#   SETTLEDESK_TEST_BROWSER_NODE_MODULES  the node_modules folder holding puppeteer-core
#   SETTLEDESK_TEST_CHROMIUM              the system browser (/usr/bin/chromium)
# A second run installs nothing.

BROWSER_NPM_DIR="${BROWSER_NPM_DIR:-${BUILD_DIR:-$SETTLEDESK_ROOT/build}/npm-browser}"
BROWSER_NPM_TIMEOUT="${BROWSER_NPM_TIMEOUT:-300}"
PUPPETEER_CORE_VERSION=24.43.1

browser_install() {
    local dir="$BROWSER_NPM_DIR"
    npm_installed "$dir" "puppeteer-core@$PUPPETEER_CORE_VERSION" && return 0
    npm_install_local "$dir" "$BROWSER_NPM_TIMEOUT" "puppeteer-core@$PUPPETEER_CORE_VERSION"
}

if [ -z "${BROWSER_LIB_ONLY:-}" ]; then
    browser_install || die "puppeteer-core could not be installed for the browser tests"
    export SETTLEDESK_TEST_BROWSER_NODE_MODULES="$BROWSER_NPM_DIR/node_modules"
    export SETTLEDESK_TEST_CHROMIUM="${SETTLEDESK_TEST_CHROMIUM:-$(command -v chromium || echo /usr/bin/chromium)}"
fi
