#!/usr/bin/env python3
# usage: scripts/venue-recording.py OUT.venue.ndjson [HOURS]  (docs/venue.md "Seeking a venue recording")
# A synthetic venue hour: 20 rooms with one ESPresense node each, 100 beacons walking room to room
# (2-4 min per room), each heard once a second by its room's node and the two neighbours'.
import json, random, sys
random.seed(7)
hours = float(sys.argv[2]) if len(sys.argv) > 2 else 1
start = 1795411724.0
rooms = ["room-%02d" % i for i in range(20)]
out = open(sys.argv[1], "w")
out.write('{"beacontopVenueRecording":1,"prefix":""}\n')
for r in rooms:
    out.write(json.dumps({"t": start, "topic": "espresense/rooms/%s/status" % r, "payload": "online", "retained": True}) + "\n")
beacons = []
for b in range(100):
    ident = "iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-100-%d" % (b + 1)
    beacons.append({"id": ident, "room": random.randrange(20), "until": random.uniform(0, 240), "phase": random.random()})
seconds = int(hours * 3600)
for s in range(seconds):
    lines = []
    for b in beacons:
        if s >= b["until"]:
            b["room"] = (b["room"] + random.choice([-1, 1])) % 20
            b["until"] = s + random.uniform(120, 240)
        for d, level in ((0, -62), (-1, -80), (1, -82)):
            node = rooms[(b["room"] + d) % 20]
            rssi = level + random.randint(-4, 4)
            dist = round(10 ** ((-59 - rssi) / 20), 2)
            payload = json.dumps({"id": b["id"], "mac": "c01122334455", "rssi@1m": -59, "rssi": rssi, "raw": dist, "distance": dist, "var": 0.1, "int": 100}, separators=(",", ":"))
            lines.append((s + b["phase"] + d * 0.01 + 0.02, "espresense/devices/%s/%s" % (b["id"], node), payload))
    lines.sort()
    for t, topic, payload in lines:
        out.write(json.dumps({"t": round(start + t, 6), "topic": topic, "payload": payload}) + "\n")
