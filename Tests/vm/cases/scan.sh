# world:
# On an adapter that is down (no bluetoothd): hci0:user takes it; then scan hci0 (root) powers it
# up, says so, and scans the world's beacons, recording every packet, while a second process listens
# on hci0:monitor and prints ranging ticks; last, hci0:user on the adapter that is now up.
# KernelVMTests asserts on the files.
. Tests/vm/guest.sh
adapter_appear || exit 1
listener_start listener.ndjson
run_beacontop user-down 60 scan hci0:user --json --frames --duration 4
# Closing the user channel powers the adapter down again.
$PY Tests/vm/hci_tool.py wait 0 down 30
run_beacontop scan 90 scan hci0 --json --frames --duration 10 --record "$OUT/scan.btsnoop" &
scan=$!
wait_for_output "$OUT/scan.out"
run_beacontop monitor-channel 60 scan hci0:monitor --json --duration 5
wait "$scan"
run_beacontop user-up 60 scan hci0:user --duration 2
sleep 1
listener_stop
now >"$OUT/end"
