#!/usr/bin/env bash
# Boots the test VM (Tests/vm/prepare.sh) on one guest script and waits for it to power off
# (docs/testing-vm.md). The guest sees the host's files read-only (so it runs the host's Python,
# tmux and the static beacontop of Tests/vm/build.sh) and OUT read-write; the script runs as root
# with the repository as its working directory; its output lands in OUT/guest.log, its status in
# OUT/status.
#   Tests/vm/run.sh SCRIPT OUT [TIMEOUT_SECONDS]
# A line "# world: ARGS" in SCRIPT starts Tests/bumble/beacon_world.py on the host first with one
# controller on a unix socket that qemu joins to the guest's virtio port "vhci0" (the guest's
# Tests/vm/vhci_relay.py makes it hci0); ARGS may add --no-advertisers and --scanner (its reports
# go to OUT/scanner.ndjson).
# Exit status: the script's, or 124 when the VM did not power off in time, or 125 when the VM
# could not be started (the reason on stderr).
set -euo pipefail
script=$(readlink -f "$1")
mkdir -p "$2"
out=$(readlink -f "$2")
limit=${3:-300}
cd "$(dirname "$0")/../.."
repository=$(pwd -P)

command -v qemu-system-x86_64 >/dev/null || { echo "vm run: qemu-system-x86_64 is missing: run 'bash Tests/setup.sh' (it installs qemu-system-x86)" >&2; exit 125; }
dir=$(bash Tests/vm/prepare.sh) || exit 125
mkdir -p "$out"
rm -f "$out/status"

world_args=$(sed -n 's/^# world: *//p' "$script" | head -n 1)
serial=()
world=""
if grep -q '^# world:' "$script"; then
    python=$repository/.build/venv/bin/python
    [ -x "$python" ] || { echo "vm run: no Bumble venv at $python: run 'bash Tests/setup.sh'" >&2; exit 125; }
    socket=$out/vhci0.sock
    rm -f "$socket" "$out/scanner.ndjson"
    args=(--unix "$socket")
    for word in $world_args; do
        case "$word" in
            --scanner) args+=(--scanner-log "$out/scanner.ndjson") ;;
            *) args+=("$word") ;;
        esac
    done
    "$python" Tests/bumble/beacon_world.py "${args[@]}" >"$out/world.log" 2>&1 &
    world=$!
    trap 'kill -KILL "$world" 2>/dev/null || true' EXIT
    for _ in $(seq 300); do
        grep -q READY "$out/world.log" && break
        kill -0 "$world" 2>/dev/null || { echo "vm run: the Bumble world exited early:" >&2; cat "$out/world.log" >&2; exit 125; }
        sleep 0.1
    done
    grep -q READY "$out/world.log" || { echo "vm run: the Bumble world did not become ready in 30 s" >&2; exit 125; }
    serial=(-device virtio-serial-pci -chardev "socket,id=vhci0,path=$socket"
            -device "virtserialport,chardev=vhci0,name=vhci0")
fi

# KVM only where a real one runs a stock kernel: a host kvm_intel or kvm_amd module and a /dev/kvm
# we may open. A paravirtual-only KVM (kvm_pvm) cannot, so it gets TCG like a machine without KVM.
accel=tcg,thread=multi
cpu=max
if [ "${BEACONTOP_VM_ACCEL:-}" != tcg ] && [ -r /dev/kvm ] && [ -w /dev/kvm ] \
    && { [ -d /sys/module/kvm_intel ] || [ -d /sys/module/kvm_amd ]; }; then
    accel=kvm
    cpu=host
fi

timeout --kill-after=5 "$limit" qemu-system-x86_64 \
    -machine q35 -accel "$accel" -cpu "$cpu" -smp 2 -m 1536 \
    -nodefaults -display none -no-reboot \
    -chardev file,id=console,path="$out/console.log" -serial chardev:console \
    -kernel "$dir/vmlinuz" -initrd "$dir/initramfs.cpio.gz" \
    -append "console=ttyS0 quiet panic=-1 no_timer_check beacontop_vm.script=$script beacontop_vm.out=$out beacontop_vm.cwd=$repository" \
    -fsdev local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap -device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot \
    -fsdev local,id=repository,path="$repository",security_model=none,readonly=on,multidevs=remap -device virtio-9p-pci,fsdev=repository,mount_tag=repository \
    -fsdev local,id=out,path="$out",security_model=none -device virtio-9p-pci,fsdev=out,mount_tag=out \
    "${serial[@]}" \
    && qemu=0 || qemu=$?
if [ "$qemu" -eq 124 ] || [ "$qemu" -eq 137 ]; then
    echo "vm run: the VM did not power off within $limit s (console: $out/console.log)" >&2
    exit 124
fi
if [ ! -f "$out/status" ]; then
    echo "vm run: the guest script never finished (qemu status $qemu); console:" >&2
    tail -n 30 "$out/console.log" >&2
    exit 125
fi
status=$(cat "$out/status")
if [ -n "$world" ]; then
    kill -KILL "$world" 2>/dev/null || true
    wait "$world" 2>/dev/null || true
fi
exit "$status"
