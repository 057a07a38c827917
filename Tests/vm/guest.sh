# Sourced by the VM test cases (Tests/vm/cases/*.sh), inside the guest, as root, in the repository.
# $BEACONTOP_VM_OUT is the run's output directory (read-write; everything else is read-only).
set -u
OUT=$BEACONTOP_VM_OUT
BEACONTOP=$PWD/.build/vm/swift/debug/beacontop
PY="python3 -S"

log() { echo "case [$(cut -d" " -f1 /proc/uptime)]: $*"; }

# Opens /dev/vhci through the relay to the host's Bumble controller: hci0 appears. Without bluetoothd
# the kernel powers a new adapter on for its set-up and off again after about 2 s (HCI_AUTO_OFF), so
# wait for that before a test looks at it.
adapter_appear() {
    $PY Tests/vm/vhci_relay.py vhci0 --index-file "$OUT/relay.index" >>"$OUT/relay.log" 2>&1 &
    RELAY=$!
    while [ ! -s "$OUT/relay.index" ]; do
        kill -0 "$RELAY" 2>/dev/null || { cat "$OUT/relay.log"; return 1; }
        sleep 0.1
    done
    sleep 3
    $PY Tests/vm/hci_tool.py wait 0 down 30 || return 1
    log "hci0 registered, auto-off done (down)"
}

# Reopens /dev/vhci after adapter_vanish: hci0 is back (down, or up if a waiting beacontop powers it on).
adapter_return() {
    rm -f "$OUT/relay.index"
    $PY Tests/vm/vhci_relay.py vhci0 --index-file "$OUT/relay.index" >>"$OUT/relay.log" 2>&1 &
    RELAY=$!
    while [ ! -s "$OUT/relay.index" ]; do sleep 0.1; done
    log "hci0 back"
}

# Closes /dev/vhci: the kernel unregisters hci0 (the dongle is pulled).
adapter_vanish() {
    kill "$RELAY"
    wait "$RELAY" 2>/dev/null
    $PY Tests/vm/hci_tool.py wait 0 gone 30
}

adapter_up() { $PY Tests/vm/hci_tool.py up 0 && log "hci0 up"; }
adapter_down() { $PY Tests/vm/hci_tool.py down 0 && log "hci0 down"; }

# The monitor-channel listener (hci_tool.py listen): every packet of every adapter to $OUT/$1.
listener_start() {
    $PY Tests/vm/hci_tool.py listen "$OUT/$1" >"$OUT/$1.log" 2>&1 &
    LISTENER=$!
    while ! grep -q listening "$OUT/$1.log" 2>/dev/null; do sleep 0.2; done
}
listener_stop() { kill "$LISTENER"; wait "$LISTENER" 2>/dev/null; }

# Waits until FILE has at least one line (a scan printing frames is scanning), up to 60 s.
wait_for_output() {
    for _ in $(seq 600); do
        [ -s "$1" ] && return 0
        sleep 0.1
    done
    log "no output in $1 after 60 s"
    return 1
}

# Unix time now, for the host to line up with the listener's packets.
now() { date +%s.%N; }

# Runs beacontop with a time limit; its stdout, stderr and status go to $OUT/NAME.{out,err,status}.
run_beacontop() {
    name=$1; limit=$2; shift 2
    timeout -s KILL "$limit" "$BEACONTOP" "$@" >"$OUT/$name.out" 2>"$OUT/$name.err"
    echo $? >"$OUT/$name.status"
    log "$name: status $(cat "$OUT/$name.status")"
}
