"""What the VM tests need from the kernel's HCI sockets besides beacontop, standard library only
(BlueZ's tools are not installed; this is an independent second opinion on what the kernel does).

    hci_tool.py state N                 print "up" or "down" (HCIGETDEVINFO flags, bit HCI_UP)
    hci_tool.py up N | down N           HCIDEVUP / HCIDEVDOWN (needs CAP_NET_ADMIN)
    hci_tool.py wait N STATE SECONDS    wait until hciN is STATE (up, down or gone); exit 1 on time-out
    hci_tool.py listen FILE             the monitor channel (as btmon): one JSON line per packet of any
                                        adapter to FILE until SIGTERM ({"t", "index", "opcode", ...};
                                        a Command Complete of a scan or advertising enable command
                                        adds "kind", "enable" and "status"), then a summary line with
                                        each adapter's last enable values that succeeded
"""
import ctypes
import fcntl
import json
import os
import select
import signal
import socket
import struct
import sys
import time

AF_BLUETOOTH, BTPROTO_HCI = 31, 1
HCI_CHANNEL_MONITOR = 2
HCI_DEV_NONE = 0xFFFF
HCIDEVUP, HCIDEVDOWN, HCIGETDEVINFO = 0x400448C9, 0x400448CA, 0x800448D3
HCI_UP = 1 << 0

# LE commands whose last successful value says whether the controller scans or advertises.
SCAN_ENABLE = {0x200C: "LE Set Scan Enable", 0x2042: "LE Set Extended Scan Enable"}
ADVERTISING_ENABLE = {0x200A: "LE Set Advertising Enable", 0x2039: "LE Set Extended Advertising Enable"}


def hci_socket() -> socket.socket:
    return socket.socket(AF_BLUETOOTH, socket.SOCK_RAW | socket.SOCK_CLOEXEC, BTPROTO_HCI)


def state(index: int) -> str:
    if not os.path.exists(f"/sys/class/bluetooth/hci{index}"):
        return "gone"
    with hci_socket() as s:
        info = bytearray(struct.pack("<H", index) + bytes(90))
        try:
            fcntl.ioctl(s.fileno(), HCIGETDEVINFO, info)
        except OSError:
            return "gone"
        flags = struct.unpack_from("<I", info, 16)[0]
        return "up" if flags & HCI_UP else "down"


def set_power(index: int, up: bool) -> None:
    with hci_socket() as s:
        fcntl.ioctl(s.fileno(), HCIDEVUP if up else HCIDEVDOWN, index)


def listen(path: str) -> None:
    s = hci_socket()
    libc = ctypes.CDLL(None, use_errno=True)
    address = struct.pack("<HHH", AF_BLUETOOTH, HCI_DEV_NONE, HCI_CHANNEL_MONITOR)
    if libc.bind(s.fileno(), address, len(address)) != 0:
        sys.exit(f"hci_tool: bind monitor: {os.strerror(ctypes.get_errno())}")
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    signal.signal(signal.SIGINT, lambda *_: stopping.append(True))
    pending = {}  # (index, opcode) -> value of the command waiting for its Command Complete
    last = {}     # index -> {"scan": value, "advertising": value} from commands that completed
    reports = {}  # index -> LE advertising reports seen
    with open(path, "w") as out:
        print("hci_tool: listening", flush=True)
        while not stopping:
            ready, _, _ = select.select([s], [], [], 0.2)
            if not ready:
                continue
            data = s.recv(65536)
            opcode, index, length = struct.unpack_from("<HHH", data)
            payload = data[6:6 + length]
            record = {"t": round(time.time(), 6), "index": index, "opcode": opcode}
            if opcode == 2 and len(payload) >= 3:  # command
                command = int.from_bytes(payload[0:2], "little")
                record["command"] = f"0x{command:04x}"
                if command in SCAN_ENABLE or command in ADVERTISING_ENABLE:
                    pending[(index, command)] = payload[3]
                    record["enable"] = payload[3]
            elif opcode == 3 and len(payload) >= 2:  # event
                code = payload[0]
                record["event"] = f"0x{code:02x}"
                if code == 0x0E and len(payload) >= 6:  # Command Complete
                    command = int.from_bytes(payload[3:5], "little")
                    status = payload[5]
                    record["complete"] = f"0x{command:04x}"
                    record["status"] = status
                    value = pending.pop((index, command), None)
                    if value is not None:
                        record["enable"] = value
                        record["kind"] = "scan" if command in SCAN_ENABLE else "advertising"
                    if value is not None and status == 0:
                        key = "scan" if command in SCAN_ENABLE else "advertising"
                        last.setdefault(index, {})[key] = value
                elif code == 0x3E and len(payload) >= 3 and payload[2] in (0x02, 0x0D):
                    reports[index] = reports.get(index, 0) + 1
                    record["report"] = True
            out.write(json.dumps(record) + "\n")
        summary = {"summary": True,
                   "adapters": {f"hci{i}": dict(v, reports=reports.get(i, 0)) for i, v in last.items()}}
        out.write(json.dumps(summary) + "\n")


def main() -> None:
    command = sys.argv[1]
    if command == "state":
        print(state(int(sys.argv[2])))
    elif command in ("up", "down"):
        set_power(int(sys.argv[2]), command == "up")
    elif command == "wait":
        index, wanted, limit = int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
        deadline = time.time() + limit
        while state(index) != wanted:
            if time.time() > deadline:
                sys.exit(f"hci_tool: hci{index} is {state(index)}, not {wanted}, after {limit} s")
            time.sleep(0.1)
    elif command == "listen":
        listen(sys.argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
