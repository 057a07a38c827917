#!/usr/bin/env python3
"""Writes the crafted hostile inputs in this folder (run it from anywhere; the files are committed).

Each file reproduces one finding of issue 12 in a few hundred bytes. The unit and end-to-end tests
read them, and the fuzz harnesses start from them as regression seeds (docs/fuzzing.md).
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
BTSNOOP_EPOCH_US = 0x00DCDDB30F2F8000
T0 = 1_700_000_000  # 2023-11-14, an ordinary capture time


def ibeacon_event(minor=1, rssi=-60, address=b"\x01\x02\x03\x04\x05\xc0"):
    uuid = bytes.fromhex("E2C56DB5DFFB48D2B060D0F5A71096E4")
    data = bytes([2, 1, 6, 26, 0xFF, 0x4C, 0, 2, 21]) + uuid + struct.pack(">HHb", 1, minor, -59)
    return le_report(data, rssi, address)


def eddystone_url_event(body):
    frame = bytes([0xAA, 0xFE, 0x10, 0xEB, 0x03]) + body  # https://
    data = bytes([3, 3, 0xAA, 0xFE, 1 + len(frame), 0x16]) + frame
    return le_report(data, -70, b"\x0a\x0b\x0c\x0d\x0e\xc1")


def le_report(data, rssi, address):
    report = bytes([1, 0x03, 1]) + address + bytes([len(data)]) + data + struct.pack("b", rssi)
    params = bytes([0x02]) + report
    return bytes([0x04, 0x3E, len(params)]) + params  # H4: indicator, LE Meta event


def btsnoop(records):
    out = b"btsnoop\0" + struct.pack(">II", 1, 1002)
    for micros_field, packet in records:
        out += struct.pack(">IIIIQ", len(packet), len(packet), 3, 0, micros_field) + packet
    return out


def block(kind, body):
    body += b"\0" * (-len(body) % 4)
    length = 12 + len(body)
    return struct.pack("<II", kind, length) + body + struct.pack("<I", length)


def pcapng(interfaces, packets):
    """interfaces: [(tsresol byte or None, tsoffset seconds or None)]; packets: [(interface, ticks, h4 bytes)]."""
    out = block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1))
    for resolution, offset in interfaces:
        body = struct.pack("<HHI", 201, 0, 0)
        if resolution is not None:
            body += struct.pack("<HH", 9, 1) + bytes([resolution, 0, 0, 0])
        if offset is not None:
            body += struct.pack("<HHq", 14, 8, offset)
        out += block(1, body + struct.pack("<HH", 0, 0))
    for interface, ticks, packet in packets:
        data = struct.pack(">I", 1) + packet  # LINKTYPE_BLUETOOTH_HCI_H4_WITH_PHDR: direction 1 = received
        out += block(6, struct.pack("<IIIII", interface, ticks >> 32, ticks & 0xFFFFFFFF, len(data), len(data)) + data)
    return out


def micros(seconds):
    return seconds * 1_000_000


FILES = {
    # Interface 0 is ordinary (microseconds); interface 1 carries the hostile clock. One good packet
    # before and after, so a reader that refuses the bad one still delivers the rest.
    "pcapng-tsoffset-positive.pcapng": pcapng([(None, None), (None, 2**62)],
        [(0, micros(T0), ibeacon_event(1)), (1, micros(1), ibeacon_event(2)), (0, micros(T0 + 1), ibeacon_event(3))]),
    "pcapng-tsoffset-negative.pcapng": pcapng([(None, None), (None, -(2**62))],
        [(0, micros(T0), ibeacon_event(1)), (1, micros(1), ibeacon_event(2)), (0, micros(T0 + 1), ibeacon_event(3))]),
    "pcapng-tsresol-seconds-max-ticks.pcapng": pcapng([(None, None), (0, None)],
        [(0, micros(T0), ibeacon_event(1)), (1, 2**64 - 1, ibeacon_event(2)), (0, micros(T0 + 1), ibeacon_event(3))]),
    # Capture time jumps from 2023 past 2^53 s (where adding a 1 s tick changes nothing), then back;
    # then forward 150 years, which is inside the accepted range, with a beacon still tracked.
    "pcapng-time-jump.pcapng": pcapng([(None, None), (0, None)],
        [(0, micros(T0), ibeacon_event(1)), (1, 2**60, ibeacon_event(2)), (0, micros(T0 + 2), ibeacon_event(3)),
         (0, micros(T0 + 150 * 365 * 86400), ibeacon_event(4))]),
    # Raw btsnoop times: year 0 exactly, the sign bit alone (2^63 us after year 0 once read unsigned:
    # it printed "t":9161203780854.775808), and all ones. One good record first and last.
    "btsnoop-extreme-times.btsnoop": btsnoop([
        (BTSNOOP_EPOCH_US + micros(T0), ibeacon_event(1)), (0, ibeacon_event(2)), (2**63, ibeacon_event(3)),
        (2**64 - 1, ibeacon_event(4)), (BTSNOOP_EPOCH_US + micros(T0 + 1), ibeacon_event(5))]),
    # An Eddystone-URL frame whose URL bytes hold ESC [ 2 J, BEL and a C1 CSI: text from the air.
    "btsnoop-eddystone-url-controls.btsnoop": btsnoop([
        (BTSNOOP_EPOCH_US + micros(T0), eddystone_url_event(b"x\x1b[2J\x07\x9b.co"))]),
}

TEXT_FILES = {
    "script-t-huge.ndjson": (
        '{"t": 0.5, "address": "C0:00:00:00:00:01", "rssi": -60, "ibeacon": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:1"}\n'
        '{"t": 1e300, "address": "C0:00:00:00:00:01", "rssi": -60, "ibeacon": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:2"}\n'
        '{"t": -1, "address": "C0:00:00:00:00:01", "rssi": -60, "ibeacon": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:3"}\n'
        '{"t": 1.5, "address": "C0:00:00:00:00:01", "rssi": 1e300, "ibeacon": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:4"}\n'
        '{"t": 2.5, "address": "C0:00:00:00:00:01", "rssi": -60, "ibeacon": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:5"}\n'),
    # Values that are echoed back in error messages: ESC sequences, an OSC title change ended by
    # BEL, an 8-bit CSI, a right-to-left override, a zero-width joiner.
    "script-escapes.ndjson": (
        '{"t": 0, "address": "C0:00:00:00:00:01", "addressType": "\\u001b]0;owned\\u0007", "ibeacon": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:1"}\n'
        '{"t": 1, "address": "C0:00:00:00:00:01", "event": "\\u009b31m\\u202eevil\\u200d", "ibeacon": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:1"}\n'
        '{"t": 2, "address": "C0:00:00:00:00:01", "ibeacon": "\\u001b[2J:1:1"}\n'),
    "script-measured-power.ndjson": (
        '{"t": 0, "address": "C0:00:00:00:00:01", "measuredPower": 300, "ibeacon": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:1"}\n'
        '{"t": 1, "address": "C0:00:00:00:00:01", "measuredPower": 100, "eddystoneUrl": "https://a.co"}\n'
        '{"t": 2, "address": "C0:00:00:00:00:01", "measuredPower": 1e300, "ibeacon": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:1"}\n'),
    # Catalog names with every class of terminal control; ids of the beacons in
    # ../shared/data/captures/horizon74.btsnoop, so `report` lists them.
    "catalog-escapes.yaml": (
        'title: "Hall \\e]0;owned\\a"\n'
        'exhibits:\n'
        '  - id: "494E5445-4C4C-495F-524F-434B535F4857:20594:62207"\n'
        '    name: "Clear \\e[2J\\e[31mred\\e[0m, bell \\a, 8-bit CSI \\x9b31m"\n'
        '  - id: "494E5445-4C4C-495F-524F-434B535F4857:20597:62207"\n'
        '    name: "Row\\r\\nbreak, \\u202Eright-to-left, a\\u200Djoined, \\u2067isolate"\n'),
}

BINARY_TEXT = {
    # Latin-1 "Musée" on line 3: not UTF-8.
    "catalog-not-utf8.yaml": b'exhibits:\n  - id: "494E5445-4C4C-495F-524F-434B535F4857:20594:62207"\n    name: "Mus\xe9e"\n',
}

if __name__ == "__main__":
    for name, data in FILES.items():
        with open(os.path.join(HERE, name), "wb") as f:
            f.write(data)
    for name, text in TEXT_FILES.items():
        with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
            f.write(text)
    for name, data in BINARY_TEXT.items():
        with open(os.path.join(HERE, name), "wb") as f:
            f.write(data)
