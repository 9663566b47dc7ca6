"""The namespace observer of ``--toolproof-netns``: every attempt to leave loopback is recorded and refused.

Inside the candidate's network namespace (set up by ``egress.relay_main``)
the default routes, IPv4 and IPv6, point at a TUN device whose other end is
this module, and the resolver is pointed at a stub on 127.0.0.1:53. So,
whatever language the candidate is written in:

- a TCP connection outside loopback sends its SYN into the TUN: recorded as
  ``connect <address>:<port>`` and answered with a RST (the connect fails at
  once with "connection refused");
- a UDP datagram outside loopback: recorded as ``udp <address>:<port>`` (a DNS
  query to an outside server as ``dns <name>``) and answered with ICMP port
  unreachable;
- a name lookup through the system resolver (glibc, c-ares, Go's resolver all
  read /etc/resolv.conf) reaches the stub: recorded as ``dns <name>`` and
  answered NXDOMAIN. The namespace also has a mount namespace of its own, in
  which a private resolv.conf (only the stub) and nsswitch.conf (hosts: the
  local sources `files` and `myhostname`, then dns, so no lookup goes to a
  resolver daemon over a Unix socket outside the namespace) are bind-mounted
  over the machine's.

Every record is written before the answer is sent, so an attempt the candidate
has seen fail is always in the log. Each setup step that fails is reported
(``Setup.problem``), and the harness then says why it cannot observe.

Standard library only: ``egress.py``'s relay loads this file by path.
"""

from __future__ import annotations

import ctypes
import fcntl
import ipaddress
import os
import socket
import struct
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

#: (kind, api, destination): one attempt, as the egress log records it.
Record = Callable[[str, str, str], None]

DEVICE = "tpegress0"
#: The TUN's own addresses: documentation ranges (RFC 5737, RFC 3849), never a real destination.
V4_ADDRESS = "192.0.2.1"
V6_ADDRESS = "2001:db8::1"
STUB = ("127.0.0.1", 53)
RESOLV_CONF = "nameserver 127.0.0.1\n"

_TUNSETIFF = 0x400454CA
_IFF_TUN, _IFF_NO_PI = 0x0001, 0x1000
_TCP, _UDP = 6, 17
_SYN, _RST, _ACK = 0x02, 0x04, 0x10


# -- setting the namespace up --------------------------------------------------------------------


def link_up(name: str) -> None:
    """`ip link set <name> up` without the ip program (SIOCSIFFLAGS)."""
    siocgifflags, siocsifflags, iff_up = 0x8913, 0x8914, 0x1
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        request = struct.pack("16sh", name.encode(), 0)
        flags = struct.unpack("16sh", fcntl.ioctl(sock.fileno(), siocgifflags, request))[1]
        fcntl.ioctl(sock.fileno(), siocsifflags, struct.pack("16sh", name.encode(), flags | iff_up))


def _attribute(kind: int, data: bytes) -> bytes:
    length = 4 + len(data)
    return struct.pack("=HH", length, kind) + data + b"\0" * (-length % 4)


def _netlink(message_type: int, body: bytes, attributes: list[tuple[int, bytes]]) -> None:
    """Send one rtnetlink request and raise OSError unless the kernel acknowledges it."""
    request, ack, excl, create = 0x1, 0x4, 0x200, 0x400
    payload = body + b"".join(_attribute(kind, data) for kind, data in attributes)
    header = struct.pack("=IHHII", 16 + len(payload), message_type, request | ack | excl | create, 1, 0)
    with socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0) as sock:
        sock.settimeout(5)
        sock.bind((0, 0))
        sock.send(header + payload)
        answer = sock.recv(65536)
    nlmsg_error = 2
    if struct.unpack_from("=H", answer, 4)[0] == nlmsg_error:
        code = struct.unpack_from("=i", answer, 16)[0]
        if code:
            raise OSError(-code, os.strerror(-code))


def add_address(index: int, address: str) -> None:
    """`ip addr add <address>/32|128 dev <index>` (IPv6 without duplicate detection: usable at once)."""
    ip = ipaddress.ip_address(address)
    family = socket.AF_INET if ip.version == 4 else socket.AF_INET6
    rtm_newaddr, ifa_local, ifa_address, ifa_f_nodad = 20, 2, 1, 0x02
    flags = 0 if ip.version == 4 else ifa_f_nodad
    body = struct.pack("=BBBBI", family, ip.max_prefixlen, flags, 0, index)
    _netlink(rtm_newaddr, body, [(ifa_local, ip.packed), (ifa_address, ip.packed)])


def add_default_route(index: int, version: int) -> None:
    """`ip [-6] route add default dev <index>`."""
    rtm_newroute, rta_oif, main_table, static, unicast = 24, 4, 254, 4, 1
    family, scope = (socket.AF_INET, 253) if version == 4 else (socket.AF_INET6, 0)  # link / universe
    body = struct.pack("=BBBBBBBBI", family, 0, 0, 0, main_table, static, scope, unicast, 0)
    _netlink(rtm_newroute, body, [(rta_oif, struct.pack("=I", index))])


def open_tun(name: str = DEVICE) -> int:
    """A TUN device `name` carrying both default routes; its file descriptor (raw IP packets)."""
    fd = os.open("/dev/net/tun", os.O_RDWR)
    try:
        fcntl.ioctl(fd, _TUNSETIFF, struct.pack("16sH", name.encode(), _IFF_TUN | _IFF_NO_PI))
        link_up(name)
        index = socket.if_nametoindex(name)
        add_address(index, V4_ADDRESS)
        add_default_route(index, 4)
        add_address(index, V6_ADDRESS)
        add_default_route(index, 6)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _bind_over(source: str, target: str) -> None:
    ms_bind = 4096
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.mount(source.encode(), target.encode(), None, ms_bind, None) != 0:
        code = ctypes.get_errno()
        raise OSError(code, f"bind-mounting over {target}: {os.strerror(code)}")


def private_resolver(directory: str) -> None:
    """Bind a resolv.conf naming only the stub (and an nsswitch.conf asking it, `hosts_line`) over ours.

    Needs the mount namespace `unshare -m` gives. Without /etc/resolv.conf glibc
    already asks 127.0.0.1, the stub, so only an existing file is covered.
    """
    if os.path.exists("/etc/resolv.conf"):
        path = os.path.join(directory, "resolv.conf")
        with open(path, "w", encoding="utf-8") as stream:
            stream.write(RESOLV_CONF)
        _bind_over(path, "/etc/resolv.conf")
    if os.path.exists("/etc/nsswitch.conf"):
        with open("/etc/nsswitch.conf", encoding="utf-8") as stream:
            lines = stream.read().splitlines()
        path = os.path.join(directory, "nsswitch.conf")
        with open(path, "w", encoding="utf-8") as stream:
            stream.write("\n".join([*(hosts_line(line) for line in lines), ""]))
        _bind_over(path, "/etc/nsswitch.conf")


def hosts_line(line: str) -> str:
    """nsswitch.conf's `hosts:` line with only local sources kept, then dns (the stub); others unchanged.

    `myhostname` answers the machine's own name without asking anyone; `resolve`, `mdns*`,
    `wins` and the like would ask a daemon or the network outside the namespace.
    """
    if not line.strip().startswith("hosts:"):
        return line
    local = [name for name in ("files", "myhostname") if name in line.split(":", 1)[1].split()]
    return "hosts: " + " ".join([*(local or ["files"]), "dns"])


# -- reading packets, answering them ---------------------------------------------------------------


def checksum(data: bytes) -> int:
    """The Internet checksum (RFC 1071)."""
    if len(data) % 2:
        data += b"\0"
    total = int(sum(struct.unpack(f"!{len(data) // 2}H", data)))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


@dataclass(frozen=True)
class Packet:
    """One IPv4 or IPv6 packet's addresses and transport (extension headers are not followed)."""

    version: int
    source: bytes
    destination: bytes
    protocol: int
    header: bytes  # the IP header
    payload: bytes  # the transport segment

    @property
    def where(self) -> str:
        """`address:port` of the destination (IPv6 bracketed)."""
        port = struct.unpack_from("!H", self.payload, 2)[0]
        address = ipaddress.ip_address(self.destination)
        return f"[{address}]:{port}" if self.version == 6 else f"{address}:{port}"


def parse(raw: bytes) -> Packet | None:
    """The packet, or None for anything that is not IPv4/IPv6 TCP or UDP with a full header."""
    if len(raw) < 20:
        return None
    version = raw[0] >> 4
    if version == 4:
        length = (raw[0] & 0x0F) * 4
        packet = Packet(4, raw[12:16], raw[16:20], raw[9], raw[:length], raw[length:])
    elif version == 6 and len(raw) >= 40:
        packet = Packet(6, raw[8:24], raw[24:40], raw[6], raw[:40], raw[40:])
    else:
        return None
    needed = {_TCP: 20, _UDP: 8}.get(packet.protocol)
    return packet if needed is not None and len(packet.payload) >= needed else None


def _ip(version: int, source: bytes, destination: bytes, protocol: int, payload: bytes) -> bytes:
    if version == 6:
        return struct.pack("!IHBB16s16s", 6 << 28, len(payload), protocol, 64, source, destination) + payload
    header = struct.pack(
        "!BBHHHBBH4s4s", 0x45, 0, 20 + len(payload), 0, 0x4000, 64, protocol, 0, source, destination
    )
    return header[:10] + struct.pack("!H", checksum(header)) + header[12:] + payload


def _pseudo(version: int, source: bytes, destination: bytes, protocol: int, length: int) -> bytes:
    if version == 6:
        return source + destination + struct.pack("!IxxxB", length, protocol)
    return source + destination + struct.pack("!xBH", protocol, length)


def reset(packet: Packet) -> bytes:
    """The RST|ACK refusing a SYN (what a closed port answers)."""
    source_port, destination_port, sequence = struct.unpack_from("!HHI", packet.payload)
    segment = struct.pack(
        "!HHIIBBHHH",
        destination_port,
        source_port,
        0,
        (sequence + 1) & 0xFFFFFFFF,
        5 << 4,
        _RST | _ACK,
        0,
        0,
        0,
    )
    pseudo = _pseudo(packet.version, packet.destination, packet.source, _TCP, len(segment))
    segment = segment[:16] + struct.pack("!H", checksum(pseudo + segment)) + segment[18:]
    return _ip(packet.version, packet.destination, packet.source, _TCP, segment)


def unreachable(packet: Packet) -> bytes:
    """ICMP (v4 type 3 code 3, v6 type 1 code 4) port unreachable for a UDP datagram."""
    quoted = packet.header + packet.payload
    if packet.version == 4:
        message = struct.pack("!BBHI", 3, 3, 0, 0) + quoted[: len(packet.header) + 8]
        message = message[:2] + struct.pack("!H", checksum(message)) + message[4:]
        return _ip(4, packet.destination, packet.source, 1, message)
    message = struct.pack("!BBHI", 1, 4, 0, 0) + quoted[:1232]  # the whole reply within the IPv6 minimum MTU
    pseudo = _pseudo(6, packet.destination, packet.source, 58, len(message))
    message = message[:2] + struct.pack("!H", checksum(pseudo + message)) + message[4:]
    return _ip(6, packet.destination, packet.source, 58, message)


def question(query: bytes) -> tuple[str, int] | None:
    """(name looked up, end offset of the question) of a DNS query, or None when it is not one."""
    if len(query) < 12 or struct.unpack_from("!H", query, 4)[0] < 1:
        return None
    labels, offset = [], 12
    while offset < len(query) and query[offset]:
        length = query[offset]
        if length > 63 or offset + 1 + length > len(query):
            return None
        labels.append(query[offset + 1 : offset + 1 + length].decode("ascii", "replace"))
        offset += 1 + length
    end = offset + 5  # the root label, QTYPE, QCLASS
    if end > len(query):
        return None
    return ".".join(labels) or ".", end


def nxdomain(query: bytes, end: int) -> bytes:
    """The answer NXDOMAIN to a query whose question ends at `end` (question echoed, nothing else)."""
    flags = struct.unpack_from("!H", query, 2)[0]
    answer_flags = 0x8000 | (flags & 0x7900) | 0x0080 | 3  # QR, the opcode and RD asked, RA, NXDOMAIN
    return query[:2] + struct.pack("!HHHHH", answer_flags, 1, 0, 0, 0) + query[12:end]


@dataclass
class Observer:
    """Reads the TUN and the resolver stub; records each attempt, then refuses it."""

    record: Record
    tun: int | None = None
    _sockets: list[socket.socket] = field(default_factory=list)

    def handle(self, raw: bytes) -> bytes | None:
        """Record one packet that left through the TUN; the answer to write back, if any."""
        packet = parse(raw)
        if packet is None:
            return None  # the kernel's own ICMPv6 (router solicitation, MLD), or a non-TCP/UDP packet
        if packet.protocol == _TCP:
            if packet.payload[13] & (_SYN | _ACK) != _SYN:
                return None  # only a connection's first packet is an attempt; nothing else follows a RST
            self.record("connect", "TCP SYN seen in the namespace", packet.where)
            return reset(packet)
        asked = question(packet.payload[8:]) if packet.where.endswith(":53") else None
        if asked is not None:
            self.record("dns", f"DNS query to {packet.where} seen in the namespace", asked[0])
        else:
            self.record("udp", "UDP datagram seen in the namespace", packet.where)
        if ipaddress.ip_address(packet.destination).is_multicast:
            return None  # no ICMP error for multicast (RFC 1122 3.2.2)
        return unreachable(packet)

    def answer_query(self, query: bytes) -> bytes | None:
        """Record one query the stub received; NXDOMAIN for it, or None for garbage."""
        asked = question(query)
        if asked is None:
            return None
        self.record("dns", "system resolver, seen in the namespace", asked[0])
        return nxdomain(query, asked[1])

    def start(self, tun: int) -> None:
        """Serve the TUN `tun` and the stub (daemon threads: they end with the relay)."""
        self.tun = tun
        stub = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        stub.bind(STUB)
        self._sockets.append(stub)
        threading.Thread(target=self._read_tun, daemon=True).start()
        threading.Thread(target=self._serve_stub, args=(stub,), daemon=True).start()

    def _read_tun(self) -> None:
        assert self.tun is not None
        while True:
            try:
                raw = os.read(self.tun, 65535)
            except OSError:
                return
            reply = self.handle(raw)
            if reply is not None:
                os.write(self.tun, reply)

    def _serve_stub(self, stub: socket.socket) -> None:
        while True:
            try:
                query, peer = stub.recvfrom(65535)
            except OSError:
                return
            reply = self.answer_query(query)
            if reply is not None:
                stub.sendto(reply, peer)


def setup(record: Record, directory: str) -> str | None:
    """Route everything off loopback into an observer (started here); None, or why nothing is observed."""
    try:
        tun = open_tun()
    except OSError as exc:
        return f"the TUN device cannot be set up ({exc})"
    try:
        private_resolver(directory)
    except OSError as exc:
        os.close(tun)
        return f"the resolver cannot be pointed at the observer ({exc})"
    try:
        Observer(record).start(tun)
    except OSError as exc:
        os.close(tun)
        return f"the resolver stub cannot listen on {STUB[0]}:{STUB[1]} ({exc})"
    return None
