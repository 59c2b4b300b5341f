#!/usr/bin/env bash
# Builds the Debian package with CPack into a temporary directory and checks it: file list, control fields,
# maintainer scripts, the desktop entry / AppStream / systemd unit validators, and the extracted binary
# answering --version and `report --help` without a display.
# Usage: check-package.sh BUILD_DIR VERSION
set -uo pipefail
build=$1
version=$2
work=$(mktemp -d /tmp/settledesk-package.XXXXXX)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "PASS: $*"; }
# A missing validator is reported, never passed silently.
skip() { echo "SKIP: $*"; }

if ! cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/out" >"$work/cpack.log" 2>&1; then
    cat "$work/cpack.log"
    echo "FAIL: cpack did not build the package"
    exit 1
fi
deb=$(ls "$work"/out/settledesk_"$version"_*.deb 2>/dev/null | head -n1)
[ -n "$deb" ] || { ls -R "$work/out"; echo "FAIL: no settledesk_${version}_*.deb"; exit 1; }
pass "built $(basename "$deb")"

# ---- file list ----
dpkg-deb -c "$deb" | awk '{print $6}' | sed 's#^\./#/#' >"$work/files"
for f in /usr/bin/settledesk \
         /usr/share/applications/org.settledesk.Settledesk.desktop \
         /usr/share/icons/hicolor/scalable/apps/org.settledesk.Settledesk.svg \
         /usr/share/metainfo/org.settledesk.Settledesk.metainfo.xml \
         /usr/share/settledesk/translations/settledesk_de.qm \
         /lib/systemd/system/settledesk.service \
         /usr/lib/sysusers.d/settledesk.conf \
         /etc/settledesk/settledesk.ini \
         /usr/share/doc/settledesk/README.md; do
    grep -qx "$f" "$work/files" && pass "contains $f" || fail "missing $f"
done
# Nothing from the build tree, tests or headers leaks into the package.
if grep -E '(\.h|\.a|/tst_[^/]*|CMakeFiles|/include/)' "$work/files"; then fail "unexpected files above"; else pass "no build or test files"; fi
mode=$(dpkg-deb -c "$deb" | awk '$6 == "./usr/bin/settledesk" {print $1}')
[ "$mode" = "-rwxr-xr-x" ] && pass "binary mode $mode" || fail "binary mode is '$mode'"

# ---- control fields ----
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = settledesk ] && pass "Package" || fail "Package is '$(field Package)'"
[ "$(field Version)" = "$version" ] && pass "Version $version" || fail "Version is '$(field Version)'"
[ "$(field Architecture)" = "$(dpkg --print-architecture)" ] && pass "Architecture" || fail "Architecture is '$(field Architecture)'"
[ -n "$(field Maintainer)" ] && pass "Maintainer" || fail "no Maintainer"
depends=$(field Depends)
echo "Depends: $depends"
# Explicit run-time plugins, and what dpkg-shlibdeps must have found in the binary.
for d in libqt6sql6-sqlite libqt6sql6-psql qt6-qpa-plugins libqt6svg6 \
         libqt6core6 libqt6gui6 libqt6widgets6 libqt6sql6 libqt6network6 libc6 libstdc++6; do
    echo "$depends" | tr ',' '\n' | sed 's/^ *//; s/ .*//; s/|.*//' | grep -qx "$d" && pass "depends on $d" || fail "Depends lacks $d"
done

# ---- maintainer scripts ----
dpkg-deb -e "$deb" "$work/control"
for s in postinst prerm postrm; do
    [ -x "$work/control/$s" ] && sh -n "$work/control/$s" && pass "$s executable and parses" || fail "$s"
done
grep -qx /etc/settledesk/settledesk.ini "$work/control/conffiles" && pass "settledesk.ini is a conffile" || fail "conffiles"
grep -q systemd-sysusers "$work/control/postinst" && grep -q useradd "$work/control/postinst" \
    && pass "postinst creates the settledesk user" || fail "postinst does not create the user"

# ---- the extracted files ----
root="$work/root"
dpkg-deb -x "$deb" "$root"
unit="$root/lib/systemd/system/settledesk.service"
for line in 'User=settledesk' 'ExecStart=/usr/bin/settledesk --config /etc/settledesk/settledesk.ini engine' \
            'Restart=on-failure' 'NoNewPrivileges=yes' 'ProtectSystem=strict' 'PrivateTmp=yes' \
            'EnvironmentFile=-/etc/settledesk/secrets.env' 'StateDirectory=settledesk'; do
    grep -qxF "$line" "$unit" && pass "unit: $line" || fail "unit lacks $line"
done
grep -q '^u settledesk ' "$root/usr/lib/sysusers.d/settledesk.conf" && pass "sysusers entry" || fail "sysusers entry"

if command -v systemd-analyze >/dev/null; then
    # The unit as installed, with ExecStart pointing at the extracted binary (it is not installed here).
    sed "s#/usr/bin/settledesk#$root/usr/bin/settledesk#" "$unit" >"$work/settledesk.service"
    out=$(systemd-analyze verify "$work/settledesk.service" 2>&1)
    rc=$?
    [ $rc -eq 0 ] && [ -z "$out" ] && pass "systemd-analyze verify" || fail "systemd-analyze verify (rc $rc): $out"
else
    skip "systemd-analyze not installed (package systemd): unit not verified"
fi
if command -v desktop-file-validate >/dev/null; then
    out=$(desktop-file-validate "$root/usr/share/applications/org.settledesk.Settledesk.desktop" 2>&1)
    [ $? -eq 0 ] && [ -z "$out" ] && pass "desktop-file-validate" || fail "desktop-file-validate: $out"
else
    skip "desktop-file-validate not installed (package desktop-file-utils)"
fi
if command -v appstreamcli >/dev/null; then
    out=$(appstreamcli validate --no-net --explain "$root/usr/share/metainfo/org.settledesk.Settledesk.metainfo.xml" 2>&1)
    [ $? -eq 0 ] && pass "appstreamcli validate" || fail "appstreamcli validate: $out"
else
    skip "appstreamcli not installed (package appstream)"
fi
grep -q "<release version=\"$version\"" "$root/usr/share/metainfo/org.settledesk.Settledesk.metainfo.xml" \
    && pass "metainfo release $version" || fail "metainfo has no release $version"

# The packaged binary runs without a display (the Qt libraries are installed on this machine).
bin="$root/usr/bin/settledesk"
out=$(env -u DISPLAY -u WAYLAND_DISPLAY timeout 20 "$bin" --version 2>&1)
[ "$out" = "settledesk $version" ] && pass "settledesk --version" || fail "settledesk --version said: $out"
out=$(env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM timeout 20 "$bin" report --help 2>&1)
rc=$?
if [ $rc -eq 0 ] && echo "$out" | grep -q -- '--from' && echo "$out" | grep -q -- '--format'; then
    pass "settledesk report --help"
else
    fail "settledesk report --help (rc $rc): $out"
fi

# The shipped configuration loads, and the headless engine runs on it (the service's command line, with the
# database moved to a temporary file) and stops cleanly on SIGTERM, as systemd stops it.
ini="$root/etc/settledesk/settledesk.ini"
out=$(env -u DISPLAY -u WAYLAND_DISPLAY HOME="$work" timeout 20 "$bin" --config "$ini" --db "sqlite:$work/check.db" invoice list --json 2>&1)
[ $? -eq 0 ] && [ "$(echo "$out" | tr -d ' \n')" = "[]" ] && pass "shipped settledesk.ini loads" || fail "invoice list with the shipped ini: $out"
env -u DISPLAY -u WAYLAND_DISPLAY HOME="$work" "$bin" --config "$ini" --db "sqlite:$work/check.db" engine 2>"$work/engine.log" &
engine=$!
for _ in $(seq 200); do
    grep -q 'engine running' "$work/engine.log" && break
    kill -0 $engine 2>/dev/null || break
    sleep 0.1
done
if grep -q 'engine running' "$work/engine.log"; then
    kill -TERM $engine
    wait $engine
    rc=$?
    [ $rc -eq 0 ] && grep -q 'engine stopped' "$work/engine.log" && pass "engine runs headless and stops on SIGTERM" \
        || fail "engine exit $rc after SIGTERM: $(cat "$work/engine.log")"
else
    kill -KILL $engine 2>/dev/null
    wait $engine 2>/dev/null
    fail "engine did not start: $(cat "$work/engine.log")"
fi

# Installed for real with apt (dependencies resolved, maintainer scripts run), then purged. Only where asked:
# it changes the machine (CI sets SETTLEDESK_TEST_INSTALL_DEB=1 through scripts/test; it needs root).
if [ "${SETTLEDESK_TEST_INSTALL_DEB:-}" = 1 ]; then
    if [ "$(id -u)" -ne 0 ]; then
        fail "SETTLEDESK_TEST_INSTALL_DEB=1 needs root"
    elif dpkg -s settledesk >/dev/null 2>&1; then
        fail "a settledesk package is already installed here; not touching it"
    elif DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$deb" >"$work/apt.log" 2>&1; then
        pass "apt-get install $(basename "$deb")"
        out=$(env -u DISPLAY -u WAYLAND_DISPLAY timeout 20 settledesk --version 2>&1)
        [ "$out" = "settledesk $version" ] && pass "installed: settledesk --version" || fail "installed settledesk --version said: $out"
        out=$(env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM timeout 20 settledesk report --help 2>&1)
        [ $? -eq 0 ] && echo "$out" | grep -q -- '--format' && pass "installed: settledesk report --help" \
            || fail "installed settledesk report --help: $out"
        [ "$(command -v settledesk)" = /usr/bin/settledesk ] && pass "on PATH as /usr/bin/settledesk" || fail "settledesk is $(command -v settledesk)"
        getent passwd settledesk >/dev/null && pass "postinst created the settledesk user" || fail "no settledesk user after install"
        [ -f /etc/settledesk/settledesk.ini ] && pass "config installed" || fail "no /etc/settledesk/settledesk.ini"
        if DEBIAN_FRONTEND=noninteractive apt-get purge -y settledesk >>"$work/apt.log" 2>&1; then
            pass "apt-get purge settledesk"
        else
            fail "apt-get purge: $(tail -n 20 "$work/apt.log")"
        fi
        [ ! -e /usr/bin/settledesk ] && pass "binary removed" || fail "/usr/bin/settledesk left after purge"
    else
        fail "apt-get install: $(tail -n 30 "$work/apt.log")"
    fi
else
    skip "not installed for real (set SETTLEDESK_TEST_INSTALL_DEB=1 as root; CI does)"
fi

echo "package check: $failures failure(s)"
[ $failures -eq 0 ]
