#!/usr/bin/env python3
"""Writes each harness's seed corpus into OUT/<harness>/ (Fuzz/run calls it; docs/fuzzing.md).

Seeds are read at run time, never copied into the repository: the real captures in
../shared/data (cut to the first MAX_LEN bytes, and the H4 stream of the btsnoop ones), the demo
catalogs and recordings, and the crafted regression inputs in Tests/HostileInputs, each wrapped in
the harness's input layout (see the harness's comment: a leading byte or a time prefix).
"""
import os
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.environ.get("BEACONTOP_SHARED_DATA", os.path.join(os.path.dirname(ROOT), "shared", "data"))
HOSTILE = os.path.join(ROOT, "Tests", "HostileInputs")
MAX_LEN = int(os.environ.get("FUZZ_MAX_LEN", "16384"))


def files(directory, *suffixes):
    if not os.path.isdir(directory):
        return []
    return sorted(os.path.join(directory, name) for name in os.listdir(directory) if name.endswith(suffixes))


def read(path):
    with open(path, "rb") as f:
        return f.read()


def h4_stream(btsnoop):
    """The H4 bytes of a btsnoop datalink-1002 file's records (what a UART would have carried)."""
    if btsnoop[:8] != b"btsnoop\0" or struct.unpack(">I", btsnoop[12:16])[0] != 1002:
        return b""
    out, offset = b"", 16
    while offset + 24 <= len(btsnoop) and len(out) < MAX_LEN:
        included = struct.unpack(">I", btsnoop[offset + 4:offset + 8])[0]
        out += btsnoop[offset + 24:offset + 24 + included]
        offset += 24 + included
    return out


def pcap_records(pcapng, without_phdr=False):
    """A pcap harness input (choice byte, then records) from a little-endian pcapng's packets:
    the link-layer and Nordic captures exist only as pcapng, and the pcap reader decodes their types too.
    `without_phdr`: a 256 capture's packets without their 10-byte pseudo-header, as link type 251
    (no capture here has that type; the CRC stays, and the reader checks it)."""
    link_types = [187, 201, 254, 256, 272, 251]
    offset, link, out = 0, None, b""
    while offset + 12 <= len(pcapng) and len(out) < MAX_LEN:
        kind, length = struct.unpack("<II", pcapng[offset:offset + 8])
        if length < 12:
            break
        if kind == 1 and link is None:
            link = struct.unpack("<H", pcapng[offset + 8:offset + 10])[0]
        elif kind == 6:
            high, low, captured = struct.unpack("<III", pcapng[offset + 12:offset + 24])
            ticks = (high << 32) | low
            packet = pcapng[offset + 28:offset + 28 + captured]
            if without_phdr:
                packet = packet[10:]
            out += struct.pack("<IIII", (ticks // 1_000_000) & 0xFFFFFFFF, ticks % 1_000_000, len(packet), len(packet))
            out += packet
        offset += length
    if without_phdr:
        link = 251 if link == 256 else None
    if link not in link_types:
        return None
    return bytes([link_types.index(link)]) + out


def main(out):
    captures = files(os.path.join(SHARED, "captures"), ".btsnoop", ".pcap", ".pcapng")
    captures += files(os.path.join(ROOT, "demo"), ".btsnoop") + files(HOSTILE, ".btsnoop", ".pcap", ".pcapng")
    seeds = {name: {} for name in ["fuzz-h4", "fuzz-btsnoop", "fuzz-pcap", "fuzz-pcapng", "fuzz-catalog", "fuzz-catalog-editor", "fuzz-script", "fuzz-source-spec", "fuzz-venue",
                                        "fuzz-venue-recording", "fuzz-survey"]}
    for path in captures:
        data, base = read(path), os.path.basename(path)
        # Whole files after a 0xFF (or, for pcapng, any byte but 0): the harness takes the rest as the file.
        if data.startswith(b"btsnoop\0"):
            seeds["fuzz-btsnoop"][base] = b"\xff" + data[:MAX_LEN]
            stream = h4_stream(data)
            if stream:
                for label, time in [("", 1_700_000_000.0), ("-time-1e300", 1e300), ("-time-nan", float("nan"))]:
                    seeds["fuzz-h4"][base + label] = struct.pack(">d", time) + b"\x05" + stream
        elif data[:4] == b"\x0a\x0d\x0d\x0a":
            seeds["fuzz-pcapng"][base] = b"\x01" + data[:MAX_LEN]
            records = pcap_records(data)
            if records:
                seeds["fuzz-pcap"][base + ".records"] = records
            records = pcap_records(data, without_phdr=True)
            if records:
                seeds["fuzz-pcap"][base + ".ll-records"] = records
        else:
            seeds["fuzz-pcap"][base] = b"\xff" + data[:MAX_LEN]
    for path in files(os.path.join(ROOT, "demo"), ".yaml") + files(HOSTILE, ".yaml"):
        seeds["fuzz-catalog"][os.path.basename(path)] = read(path)[:MAX_LEN]
    # The wizard's save (fuzz-catalog-editor): four bytes choosing two calibrations (exhibits[1] at
    # -61 dBm then a beacon not in the file at -59; exhibits[64 % count] alone, its id lower-cased, at -70),
    # then a catalog: the demo and hostile ones, the museum with CRLF line ends, tabs after keys and
    # a byte order mark, and the shapes YAML allows that a line editor may not follow.
    catalogs = {os.path.basename(p): read(p) for p in files(os.path.join(ROOT, "demo"), ".yaml") + files(HOSTILE, ".yaml")}
    museum = catalogs.get("museum.yaml", b"exhibits:\n  - id: a\n")
    catalogs["museum-crlf.yaml"] = museum.replace(b"\n", b"\r\n")
    catalogs["museum-bom.yaml"] = b"\xef\xbb\xbf" + museum
    catalogs["museum-tabs.yaml"] = museum.replace(b": ", b":\t")
    catalogs["flow.yaml"] = b'exhibits: [{id: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:1", name: A, measuredPower: -60}, {id: b, name: B}]\n'
    catalogs["anchors.yaml"] = b"exhibits:\n  - &door\n    id: a\n    measuredPower: &p -60\n  - id: b\n    name: B\n    measuredPower: *p\n"
    catalogs["block-scalar.yaml"] = b"exhibits:\n  - id: a\n    description: |\n      measuredPower: -1\n      - id: b\n    name: A\n  - name: B\n    id: b # the second\n"
    catalogs["documents.yaml"] = b"---\ntitle: one\nexhibits:\n  - id: a\n...\n"
    # Flow style as people write short catalogs (the editor edits these in place): one exhibit a
    # line, a list over several lines with comments and a trailing comma, JSON's quoted keys, and an
    # anchored value another entry aliases (refused when the edit would change both).
    catalogs["flow-lines.yaml"] = b"# one exhibit a line\nexhibits:\n  - {id: a, name: \"Door, east {main}\", measuredPower: -60}   # checked\n  - {id: b, name: Bob's desk}\n  - {id: c,\n     name: 'It''s, here'}\n"
    catalogs["flow-multiline.yaml"] = b"exhibits: [\n  {id: a, name: A, position: [1, 2]},   # entrance\n  {id: b, name: B},\n]\n"
    catalogs["flow-json.yaml"] = b'"title": "json"\nexhibits: [{"id":"a", "name": "A"}, {"id": "b", "measuredPower": -70}]\n'
    catalogs["flow-anchor.yaml"] = b"exhibits:\n  - {id: a, measuredPower: &p -60}\n  - {id: b, measuredPower: *p}\n"
    catalogs["nested.yaml"] = b"exhibits:\n- id: 'a'\n  position:\n    - 1\n    - 2\n- {id: b}\n-   id: c\n    measuredPower: -70 # old\nregions: []\n"
    # Whole documents as scripts write them, edited inside their list since 25 November 2026: JSON
    # pretty-printed (Python's indent=2, Swift's JSONEncoder with " : " and no final line break) and
    # compact, one YAML flow mapping after a comment and `---`, empty lists written `[ ]` or below
    # their key, and a block list with JSON's quoted keys.
    catalogs["json-pretty.json"] = b'{\n  "title": "Hall",\n  "exhibits": [\n    {\n      "id": "a",\n      "name": "A",\n      "measuredPower": -60\n    },\n    {\n      "id": "b",\n      "name": "B"\n    }\n  ]\n}\n'
    catalogs["json-encoder.json"] = b'{\n  "exhibits" : [\n    {\n      "name" : "A",\n      "id" : "a"\n    }\n  ]\n}'
    catalogs["json-compact.json"] = b'{"exhibits":[{"id":"a","name":"A"},{"id":"b","measuredPower":-70,"name":"B"}],"title":"Hall"}'
    catalogs["json-empty.json"] = b'{"exhibits": [], "nearestWithin": 6}\r\n'
    catalogs["flow-document.yaml"] = b"# one flow mapping\n--- {title: Hall, exhibits: [{id: a, name: A}, {id: b, name: B, measuredPower: -70}],\n     nearestWithin: 6}\n"
    catalogs["empty-space.yaml"] = b"title: none yet\nexhibits: [ ]   # later\n"
    catalogs["list-below.yaml"] = b"exhibits:\n  [\n    {id: a, name: A},\n    {id: b}\n  ]\nregions: []\n"
    catalogs["empty-below.yaml"] = b"exhibits:\n  # none yet\n  []\n"
    catalogs["block-json-keys.yaml"] = b'"exhibits":\n  - "id": "a"\n    "name": "A"\n  - {"id": "b", "name": "B"}\n  - \'id\': c\n'
    for name, data in catalogs.items():
        for label, head in [("", b"\x01\x3d\x80\x3b"), ("-one", b"\x40\x46\xff\x00")]:
            seeds["fuzz-catalog-editor"][name + label] = head + data[:MAX_LEN - 4]
    for path in files(HOSTILE, ".ndjson") + files(os.path.join(ROOT, "demo"), ".ndjson"):
        seeds["fuzz-script"][os.path.basename(path)] = read(path)[:MAX_LEN]
    specs = ["hci0", "hci1:user", "hci0:monitor", "hci0:raw", "serial:/dev/ttyACM0@1000000,rtscts", "tcp:127.0.0.1:9000",
             "tcp:[::1]:9000", "unix:/tmp/h4.sock", "session.btsnoop", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:2",
             "EDD1EBEAC04E5DEFA017:0BADC0FFEE01", "https://example.com/a", "2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6:1:2"]
    for index, spec in enumerate(specs):
        seeds["fuzz-source-spec"][f"spec-{index}"] = bytes([index % 4]) + spec.encode()
    # Venue payloads in the shapes ESPresense's firmware and beacontop's agents publish (the first
    # byte picks the topic: 0 ESPresense device, 1 reading, 2 status, 3 telemetry, 4 room status).
    venue = [
        (0, b'{"id":"iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-100-1","mac":"c01122334455","rssi@1m":-59,"rssi":-61.5,"raw":1.2,"distance":1.2,"var":0.1,"int":100}'),
        (0, b'{"id":"eddy:0102030405050607080910-000000000001","rssi":-70,"distance":3.5}'),
        (1, b'{"scanner":"pi-a","t":1800000000.25,"beacon":{"id":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1","kind":"ibeacon","rssi":-63,"filteredRssi":-62.5,"accuracy":1.5,"measuredPower":-59}}'),
        (2, b"online"), (2, b"offline"), (4, b"offline"),
        (3, b'{"scanner":"pi-a","t":1800000000.0,"uptime":60.0,"advertsPerSecond":12.5,"beacons":3,"published":40,"buffered":0,"dropped":0,"droppedQoS1":0}'),
        (0, b'{"id":"\\u001b[2J","rssi":-50}'), (0, b'{"id":'), (1, b'[' * 64),
        # Regression: an id with more bytes than characters trapped the UUID parser (long pass, 23 Nov 2026).
        (0, '{"id":"iBeacon:e2cd\u015a\u035c56db5-dfacon:e2cd\u015a\u035c56d334455","rssi@1m":-59,"rssi":1.2,"var":0.0,"int":100}'.encode()),
    ]
    # Every id form VenueBeaconKey reads (docs/venue.md "Beacon ids"), on the ESPresense topic (5) and
    # as beacontop readings (1) of each kind, beside the devices and mangled ids it must tell apart.
    def espresense(id):
        return (5, b'{"id":"%s","rssi":-66,"distance":2.5}' % id.encode())
    def agent(id, kind):
        kind_field = b'' if kind is None else b'"kind":"%s",' % kind.encode()
        return (1, b'{"scanner":"pi-a","t":1800000000.5,"beacon":{"id":"%s",%s"rssi":-63,"filteredRssi":-62.5,"accuracy":1.5,"measuredPower":-59}}' % (id.encode(), kind_field))
    venue += [espresense(id) for id in [
        "112233445566778899aabbccddeeff00-7-9",  # room-assistant, Home Assistant mqtt_room: 32 hex digits
        "altBeacon:11223344-5566-7788-99aa-bbccddeeff00-7-9", "11223344-5566-7788-99AA-BBCCDDEEFF00-7-9",
        "eddy:0102030405050607080910-a1b2c3d4e5f6", "0102030405050607080910-A1B2C3D4E5F6", "01020304050607080910-a1b2c3d4e5f6",
        "irk:0011aabbccddeeff0011aabbccddeeff", "name:visitor-s-phone", "apple:1005:9-26", "c01122334455",
        "iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-+100-1", "IBEACON:x", "altBeacon:e2c56db5dffb48d2b060d0f5a71096e4----100-1",
        "iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-70000-1", "eddy:0102030405060708091-a1b2c3d4e5f6", "Eddy:",
    ]]
    venue += [agent(id, kind) for id, kind in [
        ("11223344-5566-7788-99AA-BBCCDDEEFF00:7:9", "altbeacon"), ("01020304050607080910:a1b2c3d4e5f6", "eddystone-uid"),
        ("https://example.com/a", "eddystone-url"), ("tlm:C0:11:22:33:44:55", "eddystone-tlm"), ("eid:0011223344556677", "eddystone-eid"),
        ("01020304050607080910:a1b2c3d4e5f6", "ibeacon"), ("irk:0011aabb", "ibeacon"), ("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100", "ibeacon"),
        ("e2c56db5-dffb-48d2-b060-d0f5a71096e4-100-1", None), ("tlm:c0:11:22:33:44:55", "beacon"),
    ]]
    for index, (choice, payload) in enumerate(venue):
        seeds["fuzz-venue"][f"venue-{index}"] = bytes([choice]) + payload
    # Venue recordings the product wrote (Tests/VenueRecordings): the first MAX_LEN bytes, and the
    # header with windows of whole lines from further in (the beacons' readings, not only statuses).
    for path in files(os.path.join(ROOT, "Tests", "VenueRecordings"), ".ndjson"):
        data, base = read(path), os.path.basename(path)
        header, _, body = data.partition(b"\n")
        lines = body.split(b"\n")
        seeds["fuzz-venue-recording"][base] = data[:MAX_LEN]
        for start in range(0, len(lines), max(1, len(lines) // 6)):
            window, count = header + b"\n", start
            while count < len(lines) and len(window) + len(lines[count]) + 1 <= MAX_LEN:
                window += lines[count] + b"\n"
                count += 1
            seeds["fuzz-venue-recording"][f"{base}-line-{start + 2}"] = window
    # The writer's other shapes: a payload that is not UTF-8 (payloadHex), the clock set back, a
    # torn last line, a line the reader refuses half way.
    head = b'{"beacontopVenueRecording":1,"prefix":"site/"}\n'
    reading = b'{"t":%s,"topic":"site/espresense/devices/iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-100-1/hall","payload":"{\\"id\\":\\"iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-100-1\\",\\"rssi\\":-61,\\"distance\\":1.5}"}\n'
    seeds["fuzz-venue-recording"]["crafted-hex-payload"] = head + b'{"t":1795411724.5,"topic":"site/beacontop/scanners/pi-a/readings","payloadHex":"ff00c0af7b"}\n' + reading % b"1795411725"
    seeds["fuzz-venue-recording"]["crafted-clock-back"] = head + reading % b"1795411800" + reading % b"1795411700.25" + reading % b"1795411701"
    seeds["fuzz-venue-recording"]["crafted-torn"] = head + reading % b"1795411724" + (reading % b"1795411725")[:60]
    seeds["fuzz-venue-recording"]["crafted-bad-line"] = head + reading % b"1795411724" + b'{"t":"soon","topic":"x","payload":""}\n' + reading % b"1795411726"
    # Survey files the product wrote (Tests/SurveyFiles, held to SurveyLog's output by SurveyLogTests).
    for path in files(os.path.join(ROOT, "Tests", "SurveyFiles"), ".ndjson"):
        data, base = read(path), os.path.basename(path)
        # Cut at the last whole line that fits: a cut line is refused, which stops the read there.
        for label, text in [("", data), ("-crlf", data.replace(b"\n", b"\r\n"))]:
            seeds["fuzz-survey"][base + label] = text[:text.rfind(b"\n", 0, MAX_LEN) + 1] if len(text) > MAX_LEN else text
        seeds["fuzz-survey"][base + "-header"] = data.partition(b"\n")[0] + b"\n"
    for harness, entries in seeds.items():
        directory = os.path.join(out, harness)
        os.makedirs(directory, exist_ok=True)
        for name, data in entries.items():
            with open(os.path.join(directory, name), "wb") as f:
                f.write(data)
        print(f"seeds: {harness}: {len(entries)} files")


if __name__ == "__main__":
    main(sys.argv[1])
