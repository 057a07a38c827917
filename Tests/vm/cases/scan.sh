# world:
# scan hci0 on an adapter that is down (no bluetoothd): beacontop, as root, powers it up, says so,
# and scans the world's beacons, recording every packet; meanwhile a second process listens on
# hci0:monitor and prints ranging ticks. KernelScanTests asserts on the files.
. Tests/vm/guest.sh
adapter_appear || exit 1
listener_start listener.ndjson
run_beacontop scan 90 scan hci0 --json --frames --duration 10 --record "$OUT/scan.btsnoop" &
scan=$!
wait_for_output "$OUT/scan.out"
run_beacontop monitor-channel 60 scan hci0:monitor --json --duration 5
wait "$scan"
sleep 1
listener_stop
now >"$OUT/end"
