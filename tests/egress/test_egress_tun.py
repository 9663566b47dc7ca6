"""toolproof.connect.egress_tun: what the namespace observer records for each packet, and how it refuses it.

Packets are built here byte by byte; the answers are checked field by field and by
their checksums (a valid Internet checksum sums to zero over the data it covers).
"""

from __future__ import annotations

import ipaddress
import struct

from toolproof.connect import egress_tun

V4_SOURCE, V4_OUTSIDE = ipaddress.ip_address("192.0.2.1").packed, ipaddress.ip_address("203.0.113.7").packed
V6_SOURCE, V6_OUTSIDE = ipaddress.ip_address("2001:db8::1").packed, ipaddress.ip_address("2001:db8::7").packed
QUERY = (
    b"\x12\x34\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00"  # id 0x1234, RD, one question
    b"\x09analytics\x07example\x00\x00\x01\x00\x01"  # analytics.example A IN
)


def ipv4(protocol: int, payload: bytes, destination: bytes = V4_OUTSIDE) -> bytes:
    header = struct.pack(
        "!BBHHHBBH4s4s", 0x45, 0, 20 + len(payload), 0, 0, 64, protocol, 0, V4_SOURCE, destination
    )
    return header + payload


def ipv6(protocol: int, payload: bytes) -> bytes:
    return struct.pack("!IHBB16s16s", 6 << 28, len(payload), protocol, 64, V6_SOURCE, V6_OUTSIDE) + payload


def tcp(flags: int) -> bytes:
    return struct.pack("!HHIIBBHHH", 40000, 443, 1000, 0, 5 << 4, flags, 65535, 0, 0)


def udp(port: int, data: bytes) -> bytes:
    return struct.pack("!HHHH", 40001, port, 8 + len(data), 0) + data


class Log:
    def __init__(self) -> None:
        self.lines: list[tuple[str, str, str]] = []

    def __call__(self, kind: str, api: str, destination: str) -> None:
        self.lines.append((kind, api, destination))


def test_a_syn_is_recorded_and_answered_with_a_reset() -> None:
    log = Log()
    answer = egress_tun.Observer(log).handle(ipv4(6, tcp(0x02)))
    assert log.lines == [("connect", "TCP SYN seen in the namespace", "203.0.113.7:443")]
    assert answer is not None
    assert egress_tun.checksum(answer[:20]) == 0
    assert (answer[9], answer[12:16], answer[16:20]) == (6, V4_OUTSIDE, V4_SOURCE)
    segment = answer[20:]
    assert struct.unpack("!HHIIBBH", segment[:16]) == (443, 40000, 0, 1001, 5 << 4, 0x14, 0)
    pseudo = V4_OUTSIDE + V4_SOURCE + struct.pack("!xBH", 6, len(segment))
    assert egress_tun.checksum(pseudo + segment) == 0


def test_an_ipv6_syn_is_recorded_and_answered_with_a_reset() -> None:
    log = Log()
    answer = egress_tun.Observer(log).handle(ipv6(6, tcp(0x02)))
    assert log.lines == [("connect", "TCP SYN seen in the namespace", "[2001:db8::7]:443")]
    assert answer is not None
    assert (answer[0] >> 4, answer[6], answer[8:24], answer[24:40]) == (6, 6, V6_OUTSIDE, V6_SOURCE)
    segment = answer[40:]
    assert struct.unpack("!HHIIBBH", segment[:16]) == (443, 40000, 0, 1001, 5 << 4, 0x14, 0)
    pseudo = V6_OUTSIDE + V6_SOURCE + struct.pack("!IxxxB", len(segment), 6)
    assert egress_tun.checksum(pseudo + segment) == 0


def test_only_a_connections_first_packet_is_an_attempt() -> None:
    log = Log()
    observer = egress_tun.Observer(log)
    assert [observer.handle(ipv4(6, tcp(flags))) for flags in (0x12, 0x10, 0x04)] == [None, None, None]
    assert observer.handle(ipv6(58, struct.pack("!BBHI", 133, 0, 0, 0))) is None  # a router solicitation
    assert observer.handle(b"\x45\x00") is None
    assert log.lines == []


def test_a_datagram_is_recorded_and_answered_port_unreachable() -> None:
    log = Log()
    sent = ipv4(17, udp(8125, b"metric:1|c"))
    answer = egress_tun.Observer(log).handle(sent)
    assert log.lines == [("udp", "UDP datagram seen in the namespace", "203.0.113.7:8125")]
    assert answer is not None
    assert (answer[9], answer[12:16], answer[16:20]) == (1, V4_OUTSIDE, V4_SOURCE)
    message = answer[20:]
    assert (message[0], message[1], egress_tun.checksum(message)) == (3, 3, 0)
    assert message[8:] == sent[:28]  # the IP header and the first 8 bytes, as RFC 792 quotes them


def test_an_ipv6_datagram_is_answered_port_unreachable() -> None:
    log = Log()
    sent = ipv6(17, udp(8125, b"metric:1|c"))
    answer = egress_tun.Observer(log).handle(sent)
    assert log.lines == [("udp", "UDP datagram seen in the namespace", "[2001:db8::7]:8125")]
    assert answer is not None
    message = answer[40:]
    pseudo = V6_OUTSIDE + V6_SOURCE + struct.pack("!IxxxB", len(message), 58)
    assert (answer[6], message[0], message[1], egress_tun.checksum(pseudo + message)) == (58, 1, 4, 0)
    assert message[8:] == sent


def test_a_query_to_an_outside_server_names_what_was_looked_up() -> None:
    log = Log()
    egress_tun.Observer(log).handle(ipv4(17, udp(53, QUERY)))
    assert log.lines == [("dns", "DNS query to 203.0.113.7:53 seen in the namespace", "analytics.example")]


def test_multicast_is_recorded_but_not_answered() -> None:
    log = Log()
    mdns = ipaddress.ip_address("224.0.0.251").packed
    assert egress_tun.Observer(log).handle(ipv4(17, udp(5353, b"x"), destination=mdns)) is None
    assert log.lines == [("udp", "UDP datagram seen in the namespace", "224.0.0.251:5353")]


def test_the_stub_records_the_name_and_answers_nxdomain() -> None:
    log = Log()
    answer = egress_tun.Observer(log).answer_query(QUERY + b"\x00\x00\x29")  # trailing bytes are dropped
    assert log.lines == [("dns", "system resolver, seen in the namespace", "analytics.example")]
    assert answer == b"\x12\x34\x81\x83\x00\x01\x00\x00\x00\x00\x00\x00" + QUERY[12:]


def test_garbage_is_no_query() -> None:
    log = Log()
    observer = egress_tun.Observer(log)
    assert [
        observer.answer_query(data) for data in (b"", QUERY[:12], QUERY[:20], b"\x00" * 4 + b"\x00\x00")
    ] == [
        None,
        None,
        None,
        None,
    ]
    assert log.lines == []


def test_the_private_nsswitch_keeps_only_local_host_sources_then_the_stub() -> None:
    assert [
        egress_tun.hosts_line(line)
        for line in (
            "hosts:          files dns",
            "hosts: files mdns4_minimal [NOTFOUND=return] resolve [!UNAVAIL=return] myhostname dns",
            "hosts: resolve",
            "passwd:         files systemd",
        )
    ] == [
        "hosts: files dns",
        "hosts: files myhostname dns",
        "hosts: files dns",
        "passwd:         files systemd",
    ]
