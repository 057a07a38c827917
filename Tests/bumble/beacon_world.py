"""A virtual radio world for beacontop's end-to-end tests, built on Bumble.

On one Bumble LocalLink (a shared virtual radio) it puts:
  - one controller per --port, each exposed as an H4 `tcp-server:127.0.0.1:PORT` for beacontop;
  - one controller per --unix, each an H4 stream on a unix socket server: the VM tests' qemu
    connects it to a virtio-serial port, and Tests/vm/vhci_relay.py joins that to the guest
    kernel's /dev/vhci (so the kernel's hciN is this controller);
  - virtual advertisers, each a Bumble Device with its own controller: an iBeacon, an AltBeacon,
    an Eddystone-UID, an Eddystone-URL and a thermometer that is no beacon;
  - with --scanner-log FILE, a passive scanner whose every report becomes a JSON line in FILE
    (address, data hex, RSSI): what a phone on the link hears;
  - with --ibeacons N, N more iBeacons; with --rssi and --swing, another RSSI than Bumble's fixed
    -50 dBm in the reports beacontop gets, swinging per advertiser; with --refuse and --ignore,
    controllers that answer a command with Command Disallowed or not at all (--refuse-times N: a
    refused command is refused its first N times only, then handled); with --withhold-credit and
    --credit-after, controllers that answer a command with Num_HCI_Command_Packets 0 and drop what
    comes until they grant credit (--withhold-first-connection: only while beacontop's first
    connection lasts; the next finds them reset, as a dongle power-cycled); with --late and --late-by, controllers that answer a command
    late, in order (what came meanwhile waits); with --command-log
    FILE, each command they get, how it was answered and their advertising sets after it.

Every controller here answers a passive scan with one report per advertisement: Bumble's adds a
fake scan response to each (two reports, doubling any rate measured), which `BeaconController` drops.

Prints `READY <port> ...` on stdout once every server listens and every advertiser advertises,
then runs until killed. SIGUSR1 stops every advertiser (the beacons leave, the controllers stay)
and prints `SILENT`. The Swift tests (Tests/SourcesTests/BumbleEndToEndTests.swift) write the
identities they expect independently of the bytes built here: the two must agree, which is the
point of the test.
"""
import argparse
import asyncio
import dataclasses
import json
import math
import signal
import sys
import time

from bumble import hci

from bumble.controller import Controller
from bumble.device import Device
from bumble.hci import Address, OwnAddressType
from bumble.host import Host
from bumble.link import LocalLink
from bumble.transport import open_transport
from bumble.transport.common import AsyncPipeSink, StreamPacketSource

IBEACON_UUID = bytes.fromhex("E2C56DB5DFFB48D2B060D0F5A71096E4")
ALTBEACON_ID = bytes.fromhex("2F234454CF6D4A0FADF2F4911BA9FFA6") + bytes([0x00, 0x01, 0x00, 0x02])
EDDYSTONE_NAMESPACE = bytes.fromhex("EDD1EBEAC04E5DEFA017")
EDDYSTONE_INSTANCE = bytes.fromhex("0BADC0FFEE01")

FLAGS = bytes([0x02, 0x01, 0x06])


def ibeacon(minor: int = 1) -> bytes:
    # Apple company 0x004C, type 0x02, length 0x15, UUID, major 100, minor 1, measured power -59
    body = bytes([0x4C, 0x00, 0x02, 0x15]) + IBEACON_UUID + bytes([0x00, 100, 0x00, minor, 0xC5])
    return FLAGS + bytes([len(body) + 1, 0xFF]) + body


def altbeacon() -> bytes:
    # Radius Networks 0x0118, beacon code 0xBEAC, 20-byte id, reference RSSI -59, reserved 0
    body = bytes([0x18, 0x01, 0xBE, 0xAC]) + ALTBEACON_ID + bytes([0xC5, 0x00])
    return FLAGS + bytes([len(body) + 1, 0xFF]) + body


def eddystone(frame: bytes) -> bytes:
    service_list = bytes([0x03, 0x03, 0xAA, 0xFE])
    body = bytes([0xAA, 0xFE]) + frame
    return FLAGS + service_list + bytes([len(body) + 1, 0x16]) + body


def eddystone_uid() -> bytes:
    # frame 0x00, TX power at 0 m -18 dBm, namespace, instance, two reserved bytes
    return eddystone(bytes([0x00, 0xEE]) + EDDYSTONE_NAMESPACE + EDDYSTONE_INSTANCE + bytes([0, 0]))


def eddystone_url() -> bytes:
    # frame 0x10, TX power -18 dBm, scheme 0x03 "https://", "example", expansion 0x07 ".com"
    return eddystone(bytes([0x10, 0xEE, 0x03]) + b"example" + bytes([0x07]))


def thermometer() -> bytes:
    # A name and Nordic (0x0059) manufacturer data: a device that is not a beacon
    name = b"Thermo-7"
    return FLAGS + bytes([len(name) + 1, 0x09]) + name + bytes([0x05, 0xFF, 0x59, 0x00, 0x12, 0x34])


ADVERTISERS = [
    ("ibeacon", "C0:00:00:00:00:01", ibeacon()),
    ("altbeacon", "C0:00:00:00:00:02", altbeacon()),
    ("eddystone-uid", "C0:00:00:00:00:03", eddystone_uid()),
    ("eddystone-url", "C0:00:00:00:00:04", eddystone_url()),
    ("not-a-beacon", "C0:00:00:00:00:05", thermometer()),
]


class BeaconController(Controller):
    """Bumble's controller without the fake scan response to a passive scan.

    The controllers beacontop talks to can also be told (`configure`) to report another RSSI than
    Bumble's fixed -50 dBm, swinging per advertiser (a visitor walking), and to answer chosen
    commands with Command Disallowed or not at all (a controller in a bad state).
    """

    rssi = -50
    swing = 0.0
    refuse: set = set()
    ignore: set = set()
    refuse_times = 0
    refused: dict = {}
    withhold: set = set()
    credit_after = 0.0
    # Num_HCI_Command_Packets is 0: commands that come now are dropped, as a busy controller does.
    no_credit = False
    withhold_first_only = False
    connections = 0
    late: set = set()
    late_by = 0.0
    answered_late: set = set()
    # The commands that came while one is answered late: a controller handles them in order.
    backlog = None
    started = time.monotonic()

    command_log = None

    def configure(self, rssi: int, swing: float, refuse: list, ignore: list, command_log=None,
                  refuse_times: int = 0, withhold: list = (), credit_after: float = 0,
                  late: list = (), late_by: float = 0, withhold_first_only: bool = False) -> "BeaconController":
        self.rssi, self.swing, self.refuse, self.ignore = rssi, swing, set(refuse), set(ignore)
        self.command_log, self.refuse_times, self.refused = command_log, refuse_times, {}
        self.withhold, self.credit_after, self.late, self.late_by = set(withhold), credit_after, set(late), late_by
        self.answered_late = set()
        self.withhold_first_only = withhold_first_only
        return self

    def connected(self) -> None:
        """beacontop connected; after its first connection, --withhold-first-connection forgets the withholding."""
        self.connections += 1
        if self.withhold_first_only and self.connections > 1:
            self.withhold, self.no_credit = set(), False

    def on_hci_command_packet(self, command) -> None:
        if self.no_credit:
            self.log(command, "dropped: no credit")
        elif self.backlog is not None:
            self.backlog.append(command)
        elif command.name in self.late and command.name not in self.answered_late:
            self.answered_late.add(command.name)
            self.backlog = []
            asyncio.get_running_loop().call_later(self.late_by, self.answer_late, command)
        else:
            self.handle(command)

    def answer_late(self, command) -> None:
        self.handle(command)
        backlog, self.backlog = self.backlog, None
        for queued in backlog:
            self.on_hci_command_packet(queued)

    def grant_credit(self) -> None:
        self.no_credit = False
        # The "NOP" Command Complete (opcode 0x0000, Core Vol 4 Part E 7.7.14): credit, no command.
        # As bytes: Bumble's packet logging cannot print a Command Complete without parameters.
        if self.host:
            self.host.on_packet(bytes([hci.HCI_EVENT_PACKET, hci.HCI_COMMAND_COMPLETE_EVENT, 3, 1, 0x00, 0x00]))

    def handle(self, command) -> None:
        if command.name in self.ignore:
            answer = "ignored"
        elif command.name in self.refuse and not (0 < self.refuse_times <= self.refused.get(command.name, 0)):
            self.refused[command.name] = self.refused.get(command.name, 0) + 1
            answer = "refused"
            self.send_hci_packet(hci.HCI_Command_Complete_Event(
                num_hci_command_packets=1, command_opcode=command.op_code,
                return_parameters=hci.HCI_StatusReturnParameters(status=hci.HCI_ErrorCode.COMMAND_DISALLOWED_ERROR)))
        elif command.name in self.withhold:
            answer = "handled, no credit"
            # The answer says Num_HCI_Command_Packets 0 (send_hci_packet); credit comes later, or never.
            self.no_credit = True
            super().on_hci_command_packet(command)
            if self.credit_after >= 0:
                asyncio.get_running_loop().call_later(self.credit_after, self.grant_credit)
        else:
            answer = "handled"
            super().on_hci_command_packet(command)
        self.log(command, answer)

    def log(self, command, answer: str) -> None:
        if self.command_log:
            # The controller's own state after the command: what a test checks beacontop left behind.
            sets = self.advertising_sets
            self.command_log.write(json.dumps({
                "controller": self.name, "command": command.name, "answer": answer,
                "sets": sorted(sets), "enabled": sorted(handle for handle, s in sets.items() if s.enabled)}) + "\n")

    def reported_rssi(self, address) -> int:
        if not self.swing:
            return self.rssi
        # Each advertiser's phase from its last address byte: they peak one after the other.
        phase = bytes(address)[0] * 1.3
        return round(self.rssi + self.swing * math.sin(2 * math.pi * (time.monotonic() - self.started) / 20 + phase))

    def on_hci_le_set_extended_scan_parameters_command(self, command):
        self.le_scan_type = command.scan_types[0] if command.scan_types else 0
        return super().on_hci_le_set_extended_scan_parameters_command(command)

    def send_hci_packet(self, packet) -> None:
        if self.no_credit and isinstance(packet, hci.HCI_Command_Complete_Event) and packet.command_opcode != 0:
            packet = hci.HCI_Command_Complete_Event(num_hci_command_packets=0, command_opcode=packet.command_opcode,
                                                    return_parameters=packet.return_parameters)
        if self.le_scan_type == 0 and self.is_scan_response(packet):
            return
        if (self.rssi != -50 or self.swing) and isinstance(
                packet, (hci.HCI_LE_Advertising_Report_Event, hci.HCI_LE_Extended_Advertising_Report_Event)):
            packet = type(packet)([dataclasses.replace(report, rssi=self.reported_rssi(report.address))
                                   for report in packet.reports])
        super().send_hci_packet(packet)

    @staticmethod
    def is_scan_response(packet) -> bool:
        if isinstance(packet, hci.HCI_LE_Advertising_Report_Event):
            scan_response = hci.HCI_LE_Advertising_Report_Event.EventType.SCAN_RSP
        elif isinstance(packet, hci.HCI_LE_Extended_Advertising_Report_Event):
            scan_response = hci.HCI_LE_Extended_Advertising_Report_Event.EventType.SCAN_RESPONSE
        else:
            return False
        return all(report.event_type == scan_response for report in packet.reports)


def on_connection(sink, callback) -> None:
    """Calls `callback` each time a client connects to a Bumble tcp-server transport: its sink's
    `transport` is set then (each tcp-server transport has a sink class of its own)."""
    def set_transport(self, value) -> None:
        self.__dict__["transport"] = value
        if value is not None:
            callback()
    type(sink).transport = property(lambda self: self.__dict__.get("transport"), set_transport)


class UnixServerSink:
    """The controller's host side on a unix socket: the one connected client (qemu), if any."""

    def __init__(self) -> None:
        self.transport = None

    def on_packet(self, packet: bytes) -> None:
        if self.transport is not None:
            self.transport.write(packet)


async def open_unix_server(path: str):
    source, sink = StreamPacketSource(), UnixServerSink()

    class Protocol(asyncio.Protocol):
        def connection_made(self, transport):
            sink.transport = transport

        def connection_lost(self, error):
            sink.transport = None

        def data_received(self, data):
            source.data_received(data)

    await asyncio.get_running_loop().create_unix_server(Protocol, path=path)
    return source, sink


async def start_scanner(link: LocalLink, path: str) -> Device:
    log = open(path, "a", buffering=1)
    controller = BeaconController("scanner", link=link, public_address="C0:00:00:00:00:FE")
    device = Device(name="scanner", address=Address("C0:00:00:00:00:FE"), host=Host(controller, AsyncPipeSink(controller)))

    def heard(advertisement) -> None:
        log.write(json.dumps({"t": round(time.time(), 6), "address": str(advertisement.address).split("/")[0],
                              "data": advertisement.data_bytes.hex(), "rssi": advertisement.rssi}) + "\n")

    device.on("advertisement", heard)
    await device.power_on()
    await device.start_scanning(active=False, filter_duplicates=False)
    return device


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, action="append", default=[],
                        help="TCP port of an H4 controller for beacontop (repeat for more)")
    parser.add_argument("--unix", action="append", default=[],
                        help="unix socket path of an H4 controller for the VM's vhci relay (repeat for more)")
    parser.add_argument("--scanner-log", help="also scan passively and log every report to this file")
    parser.add_argument("--no-advertisers", action="store_true",
                        help="only the controllers (for the advertise test)")
    parser.add_argument("--ibeacons", type=int, default=0,
                        help="this many more iBeacons (the first's UUID and major, minor 2, 3, ...)")
    parser.add_argument("--rssi", type=int, default=-50,
                        help="the RSSI beacontop's controllers report (Bumble's own is always -50)")
    parser.add_argument("--swing", type=float, default=0,
                        help="each advertiser's RSSI swings this many dB around --rssi over 20 s")
    parser.add_argument("--refuse", action="append", default=[],
                        help="a command (Bumble's name, e.g. HCI_LE_SET_SCAN_ENABLE_COMMAND) beacontop's "
                             "controllers answer with Command Disallowed (repeat for more)")
    parser.add_argument("--refuse-times", type=int, default=0,
                        help="refuse each --refuse command only its first N times, then handle it (0: always)")
    parser.add_argument("--ignore", action="append", default=[],
                        help="a command they never answer (e.g. HCI_RESET_COMMAND)")
    parser.add_argument("--withhold-credit", action="append", default=[],
                        help="a command they answer with Num_HCI_Command_Packets 0, dropping every command "
                             "until they grant credit (a NOP Command Complete) --credit-after seconds later")
    parser.add_argument("--credit-after", type=float, default=0.5,
                        help="seconds until credit withheld by --withhold-credit is granted (negative: never)")
    parser.add_argument("--withhold-first-connection", action="store_true",
                        help="withhold credit only while beacontop's first connection lasts: on the next, "
                             "the controller takes commands again (a wedged dongle power-cycled)")
    parser.add_argument("--late", action="append", default=[],
                        help="a command they answer --late-by seconds late the first time, "
                             "holding the commands that come meanwhile until then (repeat for more)")
    parser.add_argument("--late-by", type=float, default=2,
                        help="how late a --late command is answered, in seconds")
    parser.add_argument("--command-log", help="log each command beacontop's controllers get, how it was answered "
                                              "and their advertising sets after it, as JSON lines in this file")
    args = parser.parse_args()
    command_log = open(args.command_log, "a", buffering=1) if args.command_log else None
    behaviour = (args.rssi, args.swing, args.refuse, args.ignore, command_log, args.refuse_times,
                 args.withhold_credit, args.credit_after, args.late, args.late_by, args.withhold_first_connection)

    link = LocalLink()
    transports = []
    for index, port in enumerate(args.port):
        transport = await open_transport(f"tcp-server:127.0.0.1:{port}")
        transports.append(transport)
        controller = BeaconController(f"beacontop{index}", host_source=transport.source, host_sink=transport.sink,
                                      link=link, public_address=f"A0:00:00:00:00:0{index + 1}").configure(*behaviour)
        on_connection(transport.sink, controller.connected)
    for index, path in enumerate(args.unix):
        source, sink = await open_unix_server(path)
        BeaconController(f"vhci{index}", host_source=source, host_sink=sink,
                         link=link, public_address=f"B0:00:00:00:00:0{index + 1}").configure(*behaviour)
    scanner = await start_scanner(link, args.scanner_log) if args.scanner_log else None

    devices = []
    if not args.no_advertisers:
        extra = [(f"ibeacon-{minor}", f"C0:00:00:00:01:{minor:02X}", ibeacon(minor)) for minor in range(2, args.ibeacons + 2)]
        for name, address, data in ADVERTISERS + extra:
            controller = BeaconController(name, link=link, public_address=address)
            device = Device(name=name, address=Address(address),
                            host=Host(controller, AsyncPipeSink(controller)))
            await device.power_on()
            await device.start_advertising(own_address_type=OwnAddressType.PUBLIC, advertising_data=data,
                                           advertising_interval_min=100, advertising_interval_max=100)
            devices.append(device)

    async def silence() -> None:
        for device in devices:
            await device.stop_advertising()
        print("SILENT", flush=True)

    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGUSR1, lambda: loop.create_task(silence()))
    # Started by a test runner whose threads block signals, the world inherits the mask.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGUSR1})
    print("READY " + " ".join([str(port) for port in args.port] + args.unix), flush=True)
    await loop.create_future()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(0)
