# world: --scanner
# Every way a scan or an advertisement ends, on hci0 (powered up first), with the monitor-channel
# listener running throughout and the world's scanner listening on the link: KernelVMExitPathTests checks that after each run the controller's last
# scan/advertising enable was a disable, and that no reports flow once the process is gone.
# Each run writes NAME.start and NAME.end (Unix times) around it.
. Tests/vm/guest.sh
adapter_appear || exit 1
adapter_up
listener_start listener.ndjson

# A beacontop run until a signal: started, seen at work (a frame printed for a scan, the
# "advertising" line for an advertisement), signalled, waited for.
until_signal() {
    name=$1; sig=$2; shift 2
    now >"$OUT/$name.start"
    "$BEACONTOP" "$@" >"$OUT/$name.out" 2>"$OUT/$name.err" &
    pid=$!
    if [ "$1" = scan ]; then
        wait_for_output "$OUT/$name.out"
    else
        for _ in $(seq 600); do grep -q "advertising" "$OUT/$name.err" && break; sleep 0.1; done
        sleep 1
    fi
    kill -s "$sig" "$pid"
    wait "$pid"
    echo $? >"$OUT/$name.status"
    now >"$OUT/$name.end"
    log "$name: status $(cat "$OUT/$name.status")"
    sleep 2
}

# The monitor in tmux until a key or a signal: started, showing the world's four beacons, ended.
monitor_until() {
    name=$1; how=$2
    now >"$OUT/$name.start"
    tmux -L vm -f /dev/null new-session -d -s "$name" -x 120 -y 30 \
        "sh -c 'trap : INT QUIT; $BEACONTOP monitor hci0; echo EXIT=\$?; sleep 60'"
    for _ in $(seq 300); do tmux -L vm capture-pane -p -t "$name" | grep -q " 4 beacons" && break; sleep 0.2; done
    case "$how" in
        q|C-\\) tmux -L vm send-keys -t "$name" "$how" ;;
        *) pkill -"$how" -f "^$BEACONTOP monitor hci0" ;;
    esac
    for _ in $(seq 300); do tmux -L vm capture-pane -p -t "$name" | grep -q "EXIT=" && break; sleep 0.2; done
    tmux -L vm capture-pane -p -t "$name" >"$OUT/$name.screen"
    sed -n 's/^EXIT=//p' "$OUT/$name.screen" >"$OUT/$name.status"
    now >"$OUT/$name.end"
    tmux -L vm kill-session -t "$name"
    log "$name: status $(cat "$OUT/$name.status")"
    sleep 2
}

# SEGV and ILL stand for a crash (a Swift trap is SIGILL): the same handler runs as for a real one.
for sig in INT TERM HUP QUIT SEGV; do until_signal "scan-$sig" "$sig" scan hci0 --frames; done

monitor_until monitor-q q
monitor_until monitor-HUP HUP
monitor_until monitor-QUIT 'C-\'

# SIGPIPE: the reader of stdout goes away after three lines.
now >"$OUT/scan-PIPE.start"
( "$BEACONTOP" scan hci0 --frames 2>"$OUT/scan-PIPE.err"; echo $? >"$OUT/scan-PIPE.status" ) | head -n 3 >"$OUT/scan-PIPE.out"
now >"$OUT/scan-PIPE.end"
log "scan-PIPE: status $(cat "$OUT/scan-PIPE.status")"
sleep 2

now >"$OUT/scan-duration.start"
run_beacontop scan-duration 60 scan hci0 --frames --duration 3
now >"$OUT/scan-duration.end"
sleep 2

for sig in INT HUP QUIT TERM ILL; do
    until_signal "advertise-$sig" "$sig" advertise hci0 --ibeacon E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:7:7
done

# Also the bytes a phone hears: KernelVMTests.advertiseIsHeard.
now >"$OUT/advertise-duration.start"
run_beacontop advertise-duration 60 advertise hci0 --ibeacon FDA50693-A4E2-4FB1-AFCF-C6EB07647825:7:9 \
    --measured-power -61 --interval 100ms --duration 5
now >"$OUT/advertise-duration.end"
sleep 2
listener_stop
