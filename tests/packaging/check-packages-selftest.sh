#!/usr/bin/env bash
# The package check must be able to fail: with libqt6opengl6-dev taken out of the install lists (the
# package a fresh machine lacked while CI stayed green), it fails and names that package's files.
set -uo pipefail
root="$1" build="$2"
out="$(SETTLEDESK_PACKAGES_DROP=libqt6opengl6-dev "$root/scripts/check-packages" "$build" 2>&1)"
code=$?
if [ "$code" -eq 0 ]; then
    printf 'the check passed without libqt6opengl6-dev:\n%s\n' "$out"
    exit 1
fi
if ! grep -qE 'Qt6OpenGL.*from libqt6opengl6-dev, which the install lists do not pull in' <<<"$out"; then
    printf 'the check failed, but did not name libqt6opengl6-dev (exit %s):\n%s\n' "$code" "$out"
    exit 1
fi
printf 'without libqt6opengl6-dev the check fails as it must:\n%s\n' "$(grep libqt6opengl6-dev <<<"$out" | head -n 5)"
