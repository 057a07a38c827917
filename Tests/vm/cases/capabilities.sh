# world:
# Not root: the user "nobody" runs copies of beacontop with no file capabilities, with cap_net_raw
# only, and with cap_net_raw,cap_net_admin; on an adapter that is down, then up. Then, as root, every
# mode on an adapter that does not exist (hci1).
. Tests/vm/guest.sh
adapter_appear || exit 1
for caps in none raw both; do cp "$BEACONTOP" "/tmp/beacontop-$caps"; done
setcap cap_net_raw+eip /tmp/beacontop-raw
setcap cap_net_raw,cap_net_admin+eip /tmp/beacontop-both
getcap /tmp/beacontop-raw /tmp/beacontop-both
as_nobody() {
    name=$1; caps=$2; shift 2
    timeout -s KILL 60 setpriv --reuid=65534 --regid=65534 --clear-groups "/tmp/beacontop-$caps" "$@" \
        >"$OUT/$name.out" 2>"$OUT/$name.err"
    echo $? >"$OUT/$name.status"
    log "$name: status $(cat "$OUT/$name.status")"
}
as_nobody down-none none scan hci0 --duration 2
as_nobody down-raw raw scan hci0 --duration 2
$PY Tests/vm/hci_tool.py state 0 >"$OUT/state-before-both"
as_nobody down-both both scan hci0 --json --frames --duration 3
$PY Tests/vm/hci_tool.py state 0 >"$OUT/state-after-both"
as_nobody up-raw raw scan hci0 --json --frames --duration 2
as_nobody up-none none scan hci0 --duration 2
as_nobody up-none-monitor none scan hci0:monitor --duration 2
run_beacontop missing-raw 60 scan hci1 --duration 2
run_beacontop missing-user 60 scan hci1:user --duration 2
run_beacontop missing-monitor 60 scan hci1:monitor --duration 2
run_beacontop missing-advertise 60 advertise hci1 --ibeacon E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:2 --duration 2
run_beacontop missing-tui 60 monitor hci1
