#!/usr/bin/env bash
# Installs what the tests need on a fresh Debian machine; safe to run again.
#  - Debian: ncurses headers (the monitor), tmux (real-terminal tests), tshark (recordings must
#    read back in Wireshark), python3-venv (Bumble's virtual environment), man-db and groff-base
#    (the installed manual page must render), zsh and fish (the installed completions must parse),
#    librsvg2-bin and fonts-dejavu-core (the survey's SVG maps must render to PNG, labels included),
#    libmosquitto-dev (the MQTT client library), mosquitto (the broker the venue tests start),
#    mosquitto-clients (mosquitto_sub: the agent tests' independent subscriber), openssl (their TLS certificates); for the kernel-HCI VM tests (docs/testing-vm.md), without
#    their recommends: qemu-system-x86, busybox-static (the initramfs), kmod (depmod), cpio,
#    libcap2-bin (setcap). The kernel itself is fetched by Tests/vm/prepare.sh with apt-get download
#    into .build/vm/.
#  - PyPI: Bumble, the virtual Bluetooth controller the scan/advertise tests run against,
#    into .build/venv so nothing touches the system Python.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(libncurses-dev tmux tshark python3-venv man-db groff-base zsh fish librsvg2-bin fonts-dejavu-core libmosquitto-dev mosquitto mosquitto-clients openssl)
vm_packages=(qemu-system-x86 busybox-static kmod cpio libcap2-bin)
missing=()
vm_missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
for p in "${vm_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || vm_missing+=("$p")
done
if [ $((${#missing[@]} + ${#vm_missing[@]})) -gt 0 ]; then
    echo "setup: installing ${missing[*]} ${vm_missing[*]}"
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    [ ${#missing[@]} -eq 0 ] || $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
    [ ${#vm_missing[@]} -eq 0 ] || $SUDO apt-get install -y -qq --no-install-recommends "${vm_missing[@]}" >/dev/null
fi

venv=.build/venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import bumble' 2>/dev/null; then
    echo "setup: creating $venv with bumble"
    mkdir -p .build
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check 'bumble==0.0.236'
fi
# The VM's kernel and initramfs (cached: a second run only checks).
bash Tests/vm/prepare.sh >/dev/null
echo "setup: ready"
