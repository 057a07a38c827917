"""Guest side of a virtual controller: joins the kernel's /dev/vhci to a Bumble controller on the host.

Runs inside the test VM with the standard library only (Python starts in about 2 s there; importing
Bumble under software emulation took 55 s, so the Bumble controllers run on the host at full speed and
reach the guest over a virtio-serial port, one per controller).

Opening /dev/vhci registers a new hciN; closing it unregisters it (the adapter vanishes). /dev/vhci
takes exactly one H4 packet per write, so the port's byte stream is cut into packets here. While hciN
is down the kernel refuses every packet with ENXIO (Bumble's own vhci transport closes the device on
that); the relay drops such a packet, counts it, and goes on, so a controller that still advertises or
scans cannot make the adapter vanish behind a test's back.

    vhci_relay.py PORT_NAME [--index-file FILE]

PORT_NAME is the virtserialport's name (qemu -device virtserialport,name=...). Prints
"vhci_relay: hciN" once the adapter exists and writes N to FILE; runs until SIGTERM.
"""
import errno
import os
import select
import signal
import sys

VENDOR_PACKET = 0xFF
HCI_PRIMARY = 0x00
# H4 packet indicator -> (header length, offset and size of the length field)
HEADERS = {0x01: (3, 2, 1), 0x02: (4, 2, 2), 0x03: (3, 2, 1), 0x04: (2, 1, 1), 0x05: (4, 2, 2)}


def find_port(name: str) -> str:
    base = "/sys/class/virtio-ports"
    for entry in os.listdir(base):
        with open(os.path.join(base, entry, "name")) as f:
            if f.read().strip() == name:
                return "/dev/" + entry
    sys.exit(f"vhci_relay: no virtio port named {name}")


def packets(buffer: bytearray):
    """Cuts whole H4 packets off the front of `buffer`."""
    while buffer:
        header = HEADERS.get(buffer[0])
        if header is None:
            print(f"vhci_relay: skipping byte 0x{buffer[0]:02x}", file=sys.stderr, flush=True)
            del buffer[0]
            continue
        size, at, width = header
        if len(buffer) < 1 + size:
            return
        length = int.from_bytes(buffer[1 + at:1 + at + width], "little")
        if len(buffer) < 1 + size + length:
            return
        packet = bytes(buffer[:1 + size + length])
        del buffer[:1 + size + length]
        yield packet


def main() -> None:
    name = sys.argv[1]
    index_file = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--index-file" else None
    port = os.open(find_port(name), os.O_RDWR)
    vhci = os.open("/dev/vhci", os.O_RDWR)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    os.write(vhci, bytes([VENDOR_PACKET, HCI_PRIMARY]))
    reply = os.read(vhci, 16)
    if len(reply) != 4 or reply[0] != VENDOR_PACKET:
        sys.exit(f"vhci_relay: unexpected vhci reply {reply.hex()}")
    index = int.from_bytes(reply[2:4], "little")
    if index_file:
        with open(index_file, "w") as f:
            f.write(f"{index}\n")
    print(f"vhci_relay: hci{index}", flush=True)
    pending = bytearray()
    refused = 0
    while True:
        ready, _, _ = select.select([vhci, port], [], [])
        if vhci in ready:
            os.write(port, os.read(vhci, 4096))
        if port in ready:
            pending += os.read(port, 65536)
            for packet in packets(pending):
                try:
                    os.write(vhci, packet)
                except OSError as error:
                    if error.errno != errno.ENXIO:
                        raise
                    refused += 1
                    if refused in (1, 10, 100, 1000):
                        print(f"vhci_relay: hci{index} is down, {refused} packet(s) from the controller dropped (ENXIO)",
                              file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
