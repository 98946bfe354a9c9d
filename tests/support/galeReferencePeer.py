#!/usr/bin/env python3
"""A stand-in for a gale.net v1 peer, written only from the wire facts in gale-wire-v1.md.

Interoperability tests run it where the real Python library is not installed:

    galeReferencePeer.py server [--max-peers N]
    galeReferencePeer.py client HOST PORT

It talks JSON lines: commands on stdin, events on stdout. Like the reference it looks only at a
message's `type` (extra payload fields, such as a native offer, are ignored), answers pings, acks
reliable data, resends it until acknowledged, and sends what it is told to. It refuses non-loopback
addresses, and exits when stdin closes or after a hard deadline.

Commands: {"cmd": "send", "type": t, "payload": {...}, "channel": 0|1|2[, "peer": id]}
          {"cmd": "stats"}   {"cmd": "disconnect"[, "peer": id]}   {"cmd": "quit"}
Events:   ready {port}, connected {peer, token}, message {peer, type, payload, channel},
          disconnected {peer, reason}, connect_failed, stats {...}, error {reason}
"""
import json
import os
import select
import socket
import struct
import sys
import time

HEADER = struct.Struct(">BQIII")  # channel, token, sequence, ack, ack_bitfield
MAX_BODY = 1200
READ_SIZE = 21 + 1200 + 64
MOD = 2**32
UNRELIABLE, RELIABLE_ORDERED, RELIABLE_UNORDERED = 0, 1, 2
RESERVED = {
    "__connect_request__",
    "__connect_accepted__",
    "__ping__",
    "__pong__",
    "__ack__",
    "__disconnect__",
}
HEARTBEAT = 1.0
TIMEOUT = 5.0
CONNECT_RETRY = 0.5
CONNECT_TIMEOUT = 5.0
# Set only by the namespace lab (see main()): the stand-in's own address inside a test's namespace.
LAB_ADDRESS = os.environ.get("GALE_STANDIN_NAMESPACE_ADDRESS", "")
TICK = 0.01
MAX_ATTEMPTS = 10
MAX_UNACKED = 256
LIFETIME = 120.0


def emit(event, **fields):
    fields["event"] = event
    sys.stdout.write(json.dumps(fields) + "\n")
    sys.stdout.flush()


def newer(a, b):
    """Whether sequence a is newer than b, modulo 2^32."""
    d = (a - b) % MOD
    return d != 0 and d < MOD // 2


def encode(channel, token, sequence, ack, bits, msg_type, payload):
    # The reference's JSON: json.dumps defaults (", " and ": " separators, ASCII escapes).
    body = json.dumps({"type": msg_type, "payload": payload}).encode("utf-8")
    if len(body) > MAX_BODY:
        raise ValueError("body of %d bytes exceeds %d" % (len(body), MAX_BODY))
    return HEADER.pack(channel, token, sequence, ack, bits) + body


class ReliableChannel:
    """One reliable channel of one connection: numbering, resending, receiving, acknowledging."""

    def __init__(self, ordered):
        self.ordered = ordered
        self.next_send = 0
        self.pending = {}  # seq -> [datagram builder args, last_sent, attempts]
        self.received = set()  # recent sequences, for duplicates and the ack bitfield
        self.newest = None
        self.expected = 0  # ordered: next sequence to deliver
        self.held = {}  # ordered: early arrivals

    def ack_fields(self):
        # Nothing received yet: (0, 0), the header's zero values.
        if self.newest is None:
            return 0, 0
        bits = 0
        for i in range(32):
            if (self.newest - 1 - i) % MOD in self.received:
                bits |= 1 << i
        return self.newest, bits

    def on_ack(self, ack, bits):
        self.pending.pop(ack, None)
        for i in range(32):
            if bits & (1 << i):
                self.pending.pop((ack - 1 - i) % MOD, None)

    def on_data(self, seq, message, deliver):
        if seq in self.received or (self.ordered and not newer(seq, (self.expected - 1) % MOD)):
            return
        if self.ordered and (seq - self.expected) % MOD >= 1024:
            return  # far ahead of anything deliverable: not held (bounded memory)
        self.received.add(seq)
        if self.newest is None or newer(seq, self.newest):
            self.newest = seq
        # forget sequences far behind the newest (bounded memory)
        if len(self.received) > 2048:
            self.received = {s for s in self.received if (self.newest - s) % MOD < 1024}
        if not self.ordered:
            deliver(message)
            return
        self.held[seq] = message
        while self.expected in self.held:
            deliver(self.held.pop(self.expected))
            self.expected = (self.expected + 1) % MOD


class Connection:
    """The state of one v1 connection, on either side."""

    def __init__(self, peer_id, address, token, now):
        self.peer_id = peer_id
        self.address = address
        self.token = token
        self.last_seen = now
        self.last_ping = now - HEARTBEAT
        self.ping_id = 0
        self.pings = {}
        self.rtt = None
        self.channels = {RELIABLE_ORDERED: ReliableChannel(True), RELIABLE_UNORDERED: ReliableChannel(False)}


class Peer:
    """A server or a client; both share the connection machinery."""

    def __init__(self, mode, sock, server_address=None, max_peers=None):
        self.mode = mode
        self.sock = sock
        self.server_address = server_address
        self.max_peers = max_peers
        self.connections = {}  # address -> Connection
        self.next_peer_id = 1
        self.first_bytes = {}
        self.datagrams = 0
        self.dropped = 0
        self.sent = 0
        self.connect_started = None
        self.last_request = None

    def transmit(self, conn_or_address, datagram):
        address = conn_or_address.address if isinstance(conn_or_address, Connection) else conn_or_address
        self.sock.sendto(datagram, address)
        self.sent += 1

    def send_message(self, conn, channel, msg_type, payload, now):
        if channel == UNRELIABLE:
            self.transmit(conn, encode(UNRELIABLE, conn.token, 0, 0, 0, msg_type, payload))
            return
        ch = conn.channels[channel]
        seq = ch.next_send
        ch.next_send = (seq + 1) % MOD
        ch.pending[seq] = [(msg_type, payload), now, 1]
        if len(ch.pending) > MAX_UNACKED:
            self.drop_connection(conn, "too many unacknowledged messages")
            return
        ack, bits = ch.ack_fields()
        self.transmit(conn, encode(channel, conn.token, seq, ack, bits, msg_type, payload))

    def receive(self, data, address, now):
        self.datagrams += 1
        if data:
            key = str(data[0])
            self.first_bytes[key] = self.first_bytes.get(key, 0) + 1
        if not (address[0].startswith("127.") or (LAB_ADDRESS and address[0].startswith("203.0.113."))):
            return self.count_drop()
        if len(data) < HEADER.size:
            return self.count_drop()
        channel, token, seq, ack, bits = HEADER.unpack_from(data)
        if channel > RELIABLE_UNORDERED:
            return self.count_drop()
        try:
            message = json.loads(data[HEADER.size :].decode("utf-8"))
            msg_type, payload = message["type"], message["payload"]
            if not isinstance(msg_type, str) or not isinstance(payload, dict):
                raise ValueError("not a message")
        except (ValueError, KeyError, TypeError):
            return self.count_drop()
        if self.mode == "server":
            self.server_receive(address, channel, token, seq, ack, bits, msg_type, payload, now)
        else:
            self.client_receive(address, channel, token, seq, ack, bits, msg_type, payload, now)

    def count_drop(self):
        self.dropped += 1

    def server_receive(self, address, channel, token, seq, ack, bits, msg_type, payload, now):
        conn = self.connections.get(address)
        if msg_type == "__connect_request__" and channel == UNRELIABLE and token == 0:
            # Only the type matters: whatever else the payload carries is ignored.
            if conn is None:
                if self.max_peers is not None and len(self.connections) >= self.max_peers:
                    return
                token = 0
                while token == 0:
                    token = int.from_bytes(os.urandom(8), "big")
                conn = Connection(self.next_peer_id, address, token, now)
                self.next_peer_id += 1
                self.connections[address] = conn
                emit("connected", peer=conn.peer_id, token=str(conn.token))
            self.transmit(conn, encode(0, conn.token, 0, 0, 0, "__connect_accepted__", {"peer_id": conn.peer_id}))
            return
        if conn is None or token != conn.token:
            return self.count_drop()
        self.on_connection_datagram(conn, channel, seq, ack, bits, msg_type, payload, now)

    def client_receive(self, address, channel, token, seq, ack, bits, msg_type, payload, now):
        if address != self.server_address:
            return self.count_drop()
        conn = self.connections.get(address)
        if conn is None:
            if msg_type == "__connect_accepted__" and channel == UNRELIABLE and self.connect_started is not None:
                peer_id = payload.get("peer_id")
                conn = Connection(peer_id, address, token, now)
                self.connections[address] = conn
                self.connect_started = None
                emit("connected", peer=peer_id, token=str(token))
            else:
                self.count_drop()
            return
        if token != conn.token:
            return self.count_drop()
        if msg_type == "__connect_accepted__":
            return  # a repeat of the accept
        self.on_connection_datagram(conn, channel, seq, ack, bits, msg_type, payload, now)

    def on_connection_datagram(self, conn, channel, seq, ack, bits, msg_type, payload, now):
        conn.last_seen = now
        deliver = lambda ch: lambda m: emit("message", peer=conn.peer_id, type=m[0], payload=m[1], channel=ch)
        if channel == UNRELIABLE:
            if msg_type == "__ping__":
                self.transmit(conn, encode(0, conn.token, 0, 0, 0, "__pong__", payload))
            elif msg_type == "__pong__":
                sent = conn.pings.pop(payload.get("id"), None)
                if sent is not None:
                    sample = now - sent
                    conn.rtt = sample if conn.rtt is None else 0.875 * conn.rtt + 0.125 * sample
            elif msg_type == "__disconnect__":
                self.forget(conn, "disconnected by the other side")
            elif msg_type not in RESERVED:
                deliver(UNRELIABLE)((msg_type, payload))
            return
        ch = conn.channels[channel]
        ch.on_ack(ack, bits)
        if msg_type == "__ack__":
            return
        if msg_type in RESERVED:
            return self.count_drop()
        ch.on_data(seq, (msg_type, payload), deliver(channel))

    def update(self, now):
        if self.mode == "client" and self.connect_started is not None:
            if now - self.connect_started > CONNECT_TIMEOUT:
                self.connect_started = None
                emit("connect_failed")
            elif now - self.last_request >= CONNECT_RETRY:
                self.request(now)
        for conn in list(self.connections.values()):
            if now - conn.last_seen > TIMEOUT:
                self.forget(conn, "timed out")
                continue
            if now - conn.last_ping >= HEARTBEAT:
                conn.ping_id += 1
                conn.pings[conn.ping_id] = now
                conn.last_ping = now
                self.transmit(conn, encode(0, conn.token, 0, 0, 0, "__ping__", {"id": conn.ping_id}))
            for channel, ch in conn.channels.items():
                # 0.1 s until measured (the reference's floor). A loopback RTT of microseconds would make this
                # stand-in give up on a healthy but busy peer within milliseconds, so it never counts below 20 ms.
                rtt = max(conn.rtt, 0.02) if conn.rtt is not None else 0.1
                for seq, entry in list(ch.pending.items()):
                    (msg_type, payload), last_sent, attempts = entry
                    if now - last_sent < 2 * rtt * attempts:
                        continue
                    if attempts >= MAX_ATTEMPTS:
                        self.drop_connection(conn, "reliable message not acknowledged")
                        break
                    entry[1], entry[2] = now, attempts + 1
                    ack, bits = ch.ack_fields()
                    self.transmit(conn, encode(channel, conn.token, seq, ack, bits, msg_type, payload))
                if conn.address not in self.connections:
                    break
                # A bare ack on every update once anything arrived on the channel, as the reference does.
                if ch.newest is not None:
                    ack, bits = ch.ack_fields()
                    self.transmit(conn, encode(channel, conn.token, 0, ack, bits, "__ack__", {}))

    def request(self, now):
        self.last_request = now
        self.transmit(self.server_address, encode(0, 0, 0, 0, 0, "__connect_request__", {}))

    def drop_connection(self, conn, reason):
        self.transmit(conn, encode(0, conn.token, 0, 0, 0, "__disconnect__", {}))
        self.forget(conn, reason)

    def forget(self, conn, reason):
        if self.connections.pop(conn.address, None) is not None:
            emit("disconnected", peer=conn.peer_id, reason=reason)

    def command(self, line, now):
        try:
            cmd = json.loads(line)
        except ValueError:
            return emit("error", reason="bad command")
        kind = cmd.get("cmd")
        targets = [c for c in self.connections.values() if cmd.get("peer") in (None, c.peer_id)]
        if kind == "send":
            channel = cmd.get("channel", UNRELIABLE)
            if channel not in (UNRELIABLE, RELIABLE_ORDERED, RELIABLE_UNORDERED):
                return emit("error", reason="no channel %r in v1" % channel)
            if not targets:
                return emit("error", reason="not connected")
            for conn in targets:
                try:
                    self.send_message(conn, channel, cmd["type"], cmd.get("payload", {}), now)
                except ValueError as error:
                    emit("error", reason=str(error))
        elif kind == "disconnect":
            for conn in targets:
                self.drop_connection(conn, "disconnected by this side")
        elif kind == "stats":
            emit(
                "stats",
                datagrams=self.datagrams,
                dropped=self.dropped,
                sent=self.sent,
                first_bytes=self.first_bytes,
                peers=[c.peer_id for c in self.connections.values()],
                rtt={str(c.peer_id): c.rtt for c in self.connections.values()},
            )
        elif kind == "quit":
            return "quit"
        else:
            emit("error", reason="unknown command %r" % kind)


def main(argv):
    mode = argv[1] if len(argv) > 1 else ""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    # Inside a test's own network namespace the lab names the stand-in's address: it may then talk to the
    # documentation range 203.0.113.0/24, which exists only inside those namespaces. Otherwise loopback only.
    lab_address = LAB_ADDRESS
    if lab_address and not lab_address.startswith("203.0.113."):
        sys.exit("GALE_STANDIN_NAMESPACE_ADDRESS must be in 203.0.113.0/24")
    sock.bind((lab_address or "127.0.0.1", 0))
    if mode == "server":
        max_peers = int(argv[3]) if len(argv) > 3 and argv[2] == "--max-peers" else None
        peer = Peer("server", sock, max_peers=max_peers)
    elif mode == "client" and len(argv) == 4:
        host, port = argv[2], int(argv[3])
        if not (host.startswith("127.") or (lab_address and host.startswith("203.0.113."))):
            sys.exit("refusing a non-loopback server")
        peer = Peer("client", sock, server_address=(host, port))
    else:
        sys.exit(__doc__)
    emit("ready", port=sock.getsockname()[1])
    now = time.monotonic()
    deadline = now + LIFETIME
    if mode == "client":
        peer.connect_started = now
        peer.request(now)
    pending = b""
    last_update = now
    while now < deadline:
        ready, _, _ = select.select([sock, sys.stdin], [], [], TICK)
        now = time.monotonic()
        if sys.stdin in ready:
            chunk = os.read(sys.stdin.fileno(), 65536)
            if not chunk:
                break
            pending += chunk
            *lines, pending = pending.split(b"\n")
            if any(peer.command(line.decode("utf-8"), now) == "quit" for line in lines if line.strip()):
                break
        if sock in ready:
            for _ in range(256):  # drain what is waiting, bounded
                try:
                    data, address = sock.recvfrom(READ_SIZE, socket.MSG_DONTWAIT)
                except BlockingIOError:
                    break
                peer.receive(data, address, now)
        if now - last_update >= TICK:
            last_update = now
            peer.update(now)
    for conn in list(peer.connections.values()):
        peer.drop_connection(conn, "quit")
    sock.close()


if __name__ == "__main__":
    main(sys.argv)
