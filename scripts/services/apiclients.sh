# npm packages the merchant API tests use, installed into the build directory (never globally):
#   standardwebhooks               the Standard Webhooks reference library (verifies webhook-* headers)
#   btcpay-greenfield-node-client  an existing Greenfield client (compatibility of the invoice endpoints)
# Sourced by scripts/test, which then exports SETTLEDESK_TEST_API_NODE_MODULES (the node_modules folder).
# A second run installs nothing.

API_NPM_DIR="${API_NPM_DIR:-${BUILD_DIR:-$SETTLEDESK_ROOT/build}/npm-api}"
API_NPM_TIMEOUT="${API_NPM_TIMEOUT:-300}"
STANDARDWEBHOOKS_VERSION=1.1.1
GREENFIELD_CLIENT_VERSION=1.7.0

api_clients_install() {
    local dir="$API_NPM_DIR"
    npm_installed "$dir" "standardwebhooks@$STANDARDWEBHOOKS_VERSION" btcpay-greenfield-node-client && return 0
    npm_install_local "$dir" "$API_NPM_TIMEOUT" "standardwebhooks@$STANDARDWEBHOOKS_VERSION" \
        "btcpay-greenfield-node-client@$GREENFIELD_CLIENT_VERSION"
}

if [ -z "${API_CLIENTS_LIB_ONLY:-}" ]; then
    api_clients_install || die "the API tests' npm packages could not be installed"
    export SETTLEDESK_TEST_API_NODE_MODULES="$API_NPM_DIR/node_modules"
fi
