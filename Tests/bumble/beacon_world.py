"""A virtual radio world for beacontop's end-to-end tests, built on Bumble.

On one Bumble LocalLink (a shared virtual radio) it puts:
  - one controller per --port, each exposed as an H4 `tcp-server:127.0.0.1:PORT` for beacontop;
  - virtual advertisers, each a Bumble Device with its own controller: an iBeacon, an AltBeacon,
    an Eddystone-UID, an Eddystone-URL and a thermometer that is no beacon.

Prints `READY <port> ...` on stdout once every server listens and every advertiser advertises,
then runs until killed. The Swift tests (Tests/SourcesTests/BumbleEndToEndTests.swift) write the
identities they expect independently of the bytes built here: the two must agree, which is the
point of the test.
"""
import argparse
import asyncio
import sys

from bumble.controller import Controller
from bumble.device import Device
from bumble.hci import Address, OwnAddressType
from bumble.host import Host
from bumble.link import LocalLink
from bumble.transport import open_transport
from bumble.transport.common import AsyncPipeSink

IBEACON_UUID = bytes.fromhex("E2C56DB5DFFB48D2B060D0F5A71096E4")
ALTBEACON_ID = bytes.fromhex("2F234454CF6D4A0FADF2F4911BA9FFA6") + bytes([0x00, 0x01, 0x00, 0x02])
EDDYSTONE_NAMESPACE = bytes.fromhex("EDD1EBEAC04E5DEFA017")
EDDYSTONE_INSTANCE = bytes.fromhex("0BADC0FFEE01")

FLAGS = bytes([0x02, 0x01, 0x06])


def ibeacon() -> bytes:
    # Apple company 0x004C, type 0x02, length 0x15, UUID, major 100, minor 1, measured power -59
    body = bytes([0x4C, 0x00, 0x02, 0x15]) + IBEACON_UUID + bytes([0x00, 100, 0x00, 1, 0xC5])
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


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, action="append", required=True,
                        help="TCP port of an H4 controller for beacontop (repeat for more)")
    parser.add_argument("--no-advertisers", action="store_true",
                        help="only the controllers (for the advertise test)")
    args = parser.parse_args()

    link = LocalLink()
    transports = []
    for index, port in enumerate(args.port):
        transport = await open_transport(f"tcp-server:127.0.0.1:{port}")
        transports.append(transport)
        Controller(f"beacontop{index}", host_source=transport.source, host_sink=transport.sink,
                   link=link, public_address=f"A0:00:00:00:00:0{index + 1}")

    devices = []
    if not args.no_advertisers:
        for name, address, data in ADVERTISERS:
            controller = Controller(name, link=link, public_address=address)
            device = Device(name=name, address=Address(address),
                            host=Host(controller, AsyncPipeSink(controller)))
            await device.power_on()
            await device.start_advertising(own_address_type=OwnAddressType.PUBLIC, advertising_data=data,
                                           advertising_interval_min=100, advertising_interval_max=100)
            devices.append(device)

    print("READY " + " ".join(str(port) for port in args.port), flush=True)
    await asyncio.get_running_loop().create_future()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(0)
