#!/usr/bin/env python3
# usage: scripts/venue-fixture.py OUT.venue.ndjson [PREFIX]
# The venue recordings under Tests/VenueRecordings (golden outputs in Tests/Golden): ninety seconds of a
# small venue in every message form a view reads (ESPresense devices and room statuses, beacontop
# readings, statuses and telemetry), written the ways other writers write JSON (key order, spaces,
# escapes, exponents, nulls, repeated keys, extra fields), beside hostile and malformed messages, a
# bad line near the end and a torn last line. Deterministic (seeded).
import json, random, sys
random.seed(11)
prefix = sys.argv[2] if len(sys.argv) > 2 else ""
def topic(t): return prefix + "/" + t if prefix else t
start = 1795411724.0
out = open(sys.argv[1], "w")
out.write(json.dumps({"beacontopVenueRecording": 1, "prefix": prefix}, separators=(",", ":")) + "\n")
def line(t, tp, payload, retained=False, hex=False, ascii=True):
    record = {"t": round(start + t, 6), "topic": tp}
    if hex: record["payloadHex"] = payload
    else: record["payload"] = payload
    if retained: record["retained"] = True
    out.write(json.dumps(record, separators=(",", ":"), ensure_ascii=ascii) + "\n")
rooms = ["hall", "café", "shop", "lab"]
for r in rooms:
    line(0, topic("espresense/rooms/%s/status" % r), "online", retained=True)
for s in ["pi-a", "pi-b"]:
    line(0.001, topic("beacontop/scanners/%s/status" % s), "online", retained=True)
beacons = ["iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-100-%d" % i for i in range(1, 5)]
beacons += ["altBeacon:11223344-5566-7788-99aa-bbccddeeff00-7-9", "eddy:0102030405050607080910-a1b2c3d4e5f6", "irk:0011aabb", "name:Visitor's phone"]
place = {b: random.randrange(4) for b in beacons}
# The same beacons as an agent names them: upper-case UUID and ":" for iBeacon and AltBeacon, the
# Eddystone's 10-byte namespace (ESPresense prints byte 5 twice) and instance in lower-case hex.
agent_ids = {b: ("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:%d" % i, "ibeacon") for i, b in enumerate(beacons[:4], 1)}
agent_ids[beacons[4]] = ("11223344-5566-7788-99AA-BBCCDDEEFF00:7:9", "altbeacon")
agent_ids[beacons[5]] = ("01020304050607080910:a1b2c3d4e5f6", "eddystone-uid")
for s in range(90):
    if s % 30 == 29:
        for b in beacons: place[b] = (place[b] + random.choice([-1, 1])) % 4
    for n, b in enumerate(beacons):
        for d, level in ((0, -60), (1, -79)):
            room = rooms[(place[b] + d) % 4]
            rssi = level + random.randint(-5, 5)
            form = (s + n + d) % 9
            t = s + n * 0.07 + d * 0.01
            if form == 0:
                payload = json.dumps({"id": b, "mac": "c01122334455", "rssi@1m": -59, "rssi": rssi, "raw": 2.5, "distance": 2.25, "var": 0.1, "int": 100}, separators=(",", ":"))
            elif form == 1:
                payload = '{ "distance" : 3.5e0 , "rssi" : %d.25, "id" : "%s", "name":"Caf\\u00e9 \\"east\\"", "interval": 102.4, "close": true }' % (rssi, b)
            elif form == 2:
                payload = json.dumps({"id": b, "rssi": rssi, "rssi@1m": None, "rxAdj": 0, "rssiVar": 1.5, "speed": -0.0, "name": "Café ☕"}, ensure_ascii=False)
            elif form == 3:
                payload = '{"id":"%s","rssi":%d,"rssi":%d.5,"mac":12,"int":null}' % (b, rssi - 20, rssi)
            elif form == 4:
                # ESPresense always writes "rssi" (BleFingerprint::fill); here it comes after a nested extra.
                payload = '{"id":"%s","distance":1E1,"extra":{"nested":[1,2,{"x":null}]},"rssi":%d}' % (b, rssi)
            elif form == 5:
                scanner = "pi-a" if d == 0 else "pi-b"
                # What beacontop's agent writes (TickLineEncoder's beacon object): the id in canonical
                # form (BeaconIdentity.description) and its kind. Agents publish beacons only: a phone's
                # reading here is never written, so this slot of the sequence stays empty for it.
                if b not in agent_ids: continue
                ident, kind = agent_ids[b]
                body = {"scanner": scanner, "t": round(start + t - 0.2, 6), "beacon": {"id": ident, "kind": kind, "rssi": rssi - 1, "filteredRssi": rssi + 0.5, "accuracy": 2.0 + d, "measuredPower": -59}}
                line(t, topic("beacontop/scanners/%s/readings" % scanner), json.dumps(body))
                continue
            elif form == 6:
                payload = '{"id":"%s","rssi":%d,"raw":-1.5e-2,"var":0.0000001234567890123,"distance":12345678901234567.0}' % (b, rssi)
            elif form == 7:
                payload = '{"id":"%s","rssi":%d,"mac":"c0\\/11","name":"tab\\there","int":99.6}' % (b, rssi)
            else:
                payload = '\t{"rssi":%d,\n"id":"%s"}\r\n' % (rssi, b)
            line(t, topic("espresense/devices/%s/%s" % (b, room)), payload, ascii=(s % 2 == 0))
    if s % 10 == 5:
        for scanner in ["pi-a", "pi-b"]:
            line(s + 0.5, topic("beacontop/scanners/%s/telemetry" % scanner), json.dumps({"scanner": scanner, "t": start + s, "uptime": s, "advertsPerSecond": 40.5, "beacons": 8, "published": s * 10, "buffered": 0, "dropped": 0, "droppedQoS1": 0}))
    if s == 40:
        bad = [
            ("espresense/devices/%s/hall" % beacons[0], '{"id":"%s","rssi":"loud"}' % beacons[0]),
            ("espresense/devices/%s/hall" % beacons[0], '{"id":"","rssi":-70}'),
            ("espresense/devices/%s/hall" % beacons[0], '{"id":"x","rssi":-70'),
            ("espresense/devices/%s/hall" % beacons[0], '[1,2]'),
            ("espresense/devices/%s/hall" % beacons[0], '{"id":"x"}'),
            ("espresense/devices/%s/hall" % beacons[0], '{"id":"x","rssi":-70,}'),
            ("espresense/devices/%s/hall" % beacons[0], '{"id":"x","rssi":-70} x'),
            ("espresense/devices/%s/hall" % beacons[0], '{"id":"bad\\u001b[2J","rssi":-70}'),
            ("espresense/devices/%s/hall" % beacons[0], '{"id":"lone\\ud800","rssi":-70}'),
            ("espresense/devices/%s/hall" % beacons[0], '{"id":"x","rssi":01}'),
            ("espresense/devices/%s/hall" % beacons[0], '{"id":"x","rssi":1e999}'),
            ("espresense/devices/%s/hall" % beacons[0], '{"id":"x","rssi":-70,"name":"\u0007"}'),
            ("espresense/devices/%s/hall" % beacons[0], '{"id":"x","rssi":-70}' + " " * 4100),
            ("espresense/devices/%s/h\u001bll" % beacons[0], '{"id":"x","rssi":-70}'),
            ("espresense/devices/%s/ha\u0085ll" % beacons[0], '{"id":"x","rssi":-70}'),
            ("espresense/devices/%s/\u0301hall" % beacons[0], '{"id":"%s","rssi":-60}' % beacons[1]),
            ("espresense/devices/%s/hall/extra" % beacons[0], '{"id":"x","rssi":-70}'),
            ("espresense/devices/iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-100-1/hall", '{"id":"iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e\u0301-100-1","rssi":-61}'),
            ("espresense/devices/x/hall", '{"id":"iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-+100-1","rssi":-61}'),
            ("espresense/devices/x/hall", '{"id":"iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-100--1","rssi":-61}'),
            ("espresense/devices/x/hall", '{"id":"iBeacon:e2c56db5dffb48d2b060d0f5a71096e4----100-1","rssi":-61}'),
            ("espresense/devices/x/hall", '{"id":"iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-70000-1","rssi":-61}'),
            ("espresense/rooms/hall/status", "maybe"),
            ("espresense/rooms/shop/status", "  online\n"),
            ("beacontop/scanners/pi-a/readings", '{"scanner":"pi-a","beacon":{"rssi":-70}}'),
            ("beacontop/scanners/pi-a/telemetry", '{"scanner":"pi-a"}'),
            ("beacontop/events/enter/hall", '{"type":"enter"}'),
            ("other/topic", "ignored"),
            # Agent readings no beacontop agent writes, refused as malformed beacon ids: a phone's id
            # (agents publish beacons only), the Eddystone called an iBeacon, a UUID without its minor.
            ("beacontop/scanners/pi-a/readings", '{"scanner":"pi-a","beacon":{"id":"irk:0011aabb","kind":"ibeacon","rssi":-70}}'),
            ("beacontop/scanners/pi-a/readings", '{"scanner":"pi-a","beacon":{"id":"01020304050607080910:a1b2c3d4e5f6","kind":"ibeacon","rssi":-70}}'),
            ("beacontop/scanners/pi-b/readings", '{"scanner":"pi-b","beacon":{"id":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100","kind":"ibeacon","rssi":-70}}'),
            # A distance without the "rssi" ESPresense always writes: refused (wrong shape).
            ("espresense/devices/%s/hall" % beacons[0], '{"id":"%s","distance":1E1}' % beacons[0]),
        ]
        for i, (tp, payload) in enumerate(bad):
            line(s + 0.3 + i * 0.001, topic(tp), payload, ascii=(i % 2 == 0))
        line(s + 0.4, topic("espresense/devices/%s/lab" % beacons[2]), "fffe001b", hex=True)
        if prefix:
            for i, other in enumerate([prefix, prefix + "x/espresense/devices/x/hall", prefix[:-1] + "/espresense/devices/x/hall", "espresense/devices/x/hall", prefix + "//espresense/devices/x/hall"]):
                line(s + 0.45 + i * 0.001, other, '{"id":"%s","rssi":-50}' % beacons[3])
        line(s + 0.41, topic("espresense/devices/%s/lab" % beacons[2]), "7b226964223a22" + "iBeacon:x".encode().hex() + "222c2272737369223a2d37307d", hex=True)
    if s == 60:
        line(s + 0.2, topic("espresense/rooms/shop/status"), "offline", retained=True)
        line(s + 0.3, topic("beacontop/scanners/pi-b/status"), "offline")
    if s == 75:
        line(s + 0.2, topic("espresense/rooms/shop/status"), "online")
out.write('{"t":%.6f,"topic":"espresense/rooms/hall/status","payload":"online"}\n' % (start + 89.5))
out.write('{"t":%.6f,"topic":"espresense/rooms/hall/status"}\n' % (start + 89.6))
out.write('{"t":%.6f,"topic":"espresense/rooms/hall/status","payload":"offl' % (start + 89.7))
