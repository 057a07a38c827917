# world:
# The user channel takes an adapter that is down (no bluetoothd), and refuses one that is up (EBUSY).
. Tests/vm/guest.sh
adapter_appear || exit 1
run_beacontop user-down 60 scan hci0:user --json --frames --duration 4
adapter_up
run_beacontop user-up 60 scan hci0:user --duration 2
