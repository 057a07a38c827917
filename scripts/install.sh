#!/usr/bin/env bash
# Installs beacontop the way `make install` would: the release binary, the manual page and the bash,
# zsh and fish completions, under PREFIX (default /usr/local), staged under DESTDIR when packaging.
# The manual page is docs/man/beacontop.1 (generated from the argument parser by
# scripts/generate-man-page.sh and committed, so installing needs no plugin build); the completions
# are generated here by the binary being installed, so they always match it.
set -euo pipefail

usage() {
    cat <<'USAGE'
usage: scripts/install.sh [--prefix DIR] [--destdir DIR] [--no-build] [--binary FILE]

Builds the release binary (swift build -c release --product beacontop) and installs
  PREFIX/bin/beacontop
  PREFIX/share/man/man1/beacontop.1                         (man beacontop)
  PREFIX/share/bash-completion/completions/beacontop
  PREFIX/share/zsh/site-functions/_beacontop
  PREFIX/share/fish/vendor_completions.d/beacontop.fish
  PREFIX/share/beacontop/demo/                              (the demo catalogs and recordings)
each under DESTDIR when it is set.

  --prefix DIR    where to install (default: $PREFIX, else /usr/local)
  --destdir DIR   stage the files under DIR, e.g. for a package (default: $DESTDIR, else none)
  --no-build      install .build/release/beacontop as it is built
  --binary FILE   install FILE instead of .build/release/beacontop (implies --no-build)
  -h, --help      this text
USAGE
}

cd "$(dirname "$0")/.."
prefix="${PREFIX:-/usr/local}"
destdir="${DESTDIR:-}"
build=1
binary=.build/release/beacontop
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) [ $# -ge 2 ] || { usage >&2; exit 64; }; prefix="$2"; shift 2 ;;
        --prefix=*) prefix="${1#*=}"; shift ;;
        --destdir) [ $# -ge 2 ] || { usage >&2; exit 64; }; destdir="$2"; shift 2 ;;
        --destdir=*) destdir="${1#*=}"; shift ;;
        --no-build) build=0; shift ;;
        --binary) [ $# -ge 2 ] || { usage >&2; exit 64; }; binary="$2"; build=0; shift 2 ;;
        --binary=*) binary="${1#*=}"; build=0; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown argument '$1'" >&2; usage >&2; exit 64 ;;
    esac
done
case "$prefix" in
    /*) ;;
    *) echo "install.sh: --prefix must be an absolute path, not '$prefix'" >&2; exit 64 ;;
esac

if [ "$build" -eq 1 ]; then
    swift build -c release --product beacontop
fi
if [ ! -x "$binary" ]; then
    echo "install.sh: $binary is not built; run 'swift build -c release --product beacontop' or drop --no-build" >&2
    exit 1
fi

root="$destdir$prefix"
share="$root/share"
install -d "$root/bin" "$share/man/man1" "$share/bash-completion/completions" \
    "$share/zsh/site-functions" "$share/fish/vendor_completions.d" "$share/beacontop/demo"
install -m 0755 "$binary" "$root/bin/beacontop"
install -m 0644 docs/man/beacontop.1 "$share/man/man1/beacontop.1"

# Each script is written to a temporary name and moved into place, so a failing generator leaves no
# half-written completion behind.
completion() {
    local shell="$1" target="$2"
    "$binary" --generate-completion-script "$shell" > "$target.tmp"
    chmod 0644 "$target.tmp"
    mv "$target.tmp" "$target"
}
completion bash "$share/bash-completion/completions/beacontop"
completion zsh "$share/zsh/site-functions/_beacontop"
completion fish "$share/fish/vendor_completions.d/beacontop.fish"

install -m 0644 demo/* "$share/beacontop/demo/"

echo "installed beacontop into $root (man page, bash/zsh/fish completions, demo files)"
