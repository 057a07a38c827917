# world:
# hci0 vanishes (the vhci device closed, as when a dongle is pulled) while `scan hci0` runs headless
# and `monitor hci0` runs in tmux; it comes back 3 s later. Both say so and scan again.
. Tests/vm/guest.sh
adapter_appear || exit 1
"$BEACONTOP" scan hci0 --json --frames >"$OUT/scan.out" 2>"$OUT/scan.err" &
scan=$!
tmux -L vm -f /dev/null new-session -d -s monitor -x 120 -y 30 \
    "sh -c '$BEACONTOP monitor hci0; echo EXIT=\$?; sleep 120'"
wait_for_output "$OUT/scan.out"
pane() { tmux -L vm capture-pane -p -t monitor; }
wait_screen() {
    for _ in $(seq 300); do
        pane | grep -q "$1" && return 0
        sleep 0.2
    done
    log "the monitor never showed '$1'"
    return 1
}
wait_screen " 4 beacons"
pane >"$OUT/screen-before"
now >"$OUT/gone"
adapter_vanish
log "hci0 gone"
wait_screen "lost\|reconnecting"
pane >"$OUT/screen-lost"
sleep 3
now >"$OUT/back"
adapter_return
# Scanning again: a frame stamped after the return, and the monitor's state back to scanning.
back=$(cat "$OUT/back")
for _ in $(seq 300); do
    tail -n 1 "$OUT/scan.out" | grep -q '"t":' && [ "$(tail -n 1 "$OUT/scan.out" | sed 's/.*"t":\([0-9.]*\).*/\1/')" \> "$back" ] && break
    sleep 0.2
done
wait_screen "hci0:raw scanning"
sleep 2
pane >"$OUT/screen-after"
kill -INT "$scan"
wait "$scan"
echo $? >"$OUT/scan.status"
tmux -L vm send-keys -t monitor q
wait_screen "EXIT="
pane >"$OUT/screen-exit"
tmux -L vm kill-server
