#!/usr/bin/env bash
# Regenerates docs/man/beacontop.1 from the argument parser with swift-argument-parser's
# generate-manual plugin (`swift package generate-manual`). The page is committed, like other
# generated code, because the plugin builds every product of the package and then its own tool
# (ArgumentParser again): about 40 s on the 2-core build machine the first time after a debug
# build, 4 s after that; installing or testing should not pay that. Tests/EndToEndTests checks the
# committed page against the built binary's help, so a stale page fails the tests.
#
#   scripts/generate-man-page.sh           rewrite docs/man/beacontop.1
#   scripts/generate-man-page.sh --check   exit 1 if the committed page differs (date line aside)
set -euo pipefail
cd "$(dirname "$0")/.."

check=0
case "${1:-}" in
    "") ;;
    --check) check=1 ;;
    *) echo "usage: scripts/generate-man-page.sh [--check]" >&2; exit 64 ;;
esac

# Debug configuration: the page does not depend on it, and `swift build` has usually built it already.
log=$(swift package generate-manual --configuration debug 2>&1) || { echo "$log" >&2; exit 1; }
directory=$(printf '%s\n' "$log" | sed -n "s|^Generated manual in 'file://\(.*\)'\$|\1|p" | tail -n 1)
generated="${directory%/}/beacontop.1"
if [ -z "$directory" ] || [ ! -f "$generated" ]; then
    printf '%s\n' "$log" >&2
    echo "generate-man-page.sh: the plugin wrote no beacontop.1" >&2
    exit 1
fi

committed=docs/man/beacontop.1
if [ "$check" -eq 1 ]; then
    if diff <(grep -v '^\.Dd ' "$committed") <(grep -v '^\.Dd ' "$generated") >&2; then
        echo "$committed is up to date"
    else
        echo "$committed is stale: run scripts/generate-man-page.sh" >&2
        exit 1
    fi
else
    mkdir -p "$(dirname "$committed")"
    cp "$generated" "$committed"
    echo "wrote $committed"
fi
