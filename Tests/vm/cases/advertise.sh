# world: --no-advertisers --scanner
# advertise hci0 (down, so beacontop powers it up) for 6 s; a Bumble scanner on the link logs what it
# hears, and the monitor-channel listener shows advertising disabled at the end.
. Tests/vm/guest.sh
adapter_appear || exit 1
listener_start listener.ndjson
now >"$OUT/start"
run_beacontop advertise 60 advertise hci0 --ibeacon FDA50693-A4E2-4FB1-AFCF-C6EB07647825:7:9 --measured-power -61 --interval 100ms --duration 6
now >"$OUT/stopped"
sleep 3
listener_stop
now >"$OUT/end"
