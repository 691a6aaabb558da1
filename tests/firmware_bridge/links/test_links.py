"""Links with real parts only: pyserial ``loop://`` and a real pty, real TCP and UDP
sockets on 127.0.0.1, a real pipe for stdin; no mocks of serial or sockets."""

from __future__ import annotations

import os
import select
import socket
import threading
import time
import tty
from collections.abc import Iterator

import pytest

from rulec.firmware_bridge.links.base import Chunk, Link, LinkEvent, parse_host_port
from rulec.firmware_bridge.links.serial import SerialLink
from rulec.firmware_bridge.links.sockets import TcpListenLink, UdpListenLink
from rulec.firmware_bridge.links.stdin import StdinLink
from rulec.firmware_bridge.links.supervisor import Backoff, LinkSupervisor
from rulec.firmware_bridge.links.text_samples import LineSplitter, TextSamples

pytestmark = pytest.mark.compiled  # runs compiled C: the sanitizer and coverage runs select it


def read_until(link: Link | LinkSupervisor, want: int, timeout: float = 3.0) -> bytes:
    """Read from a link until ``want`` bytes came (or fail after ``timeout``)."""
    data = bytearray()
    deadline = time.monotonic() + timeout
    while len(data) < want and time.monotonic() < deadline:
        for chunk in link.read(0.05):
            data += chunk.data
    return bytes(data)


@pytest.fixture
def pty_pair() -> Iterator[tuple[int, str]]:
    master, slave = os.openpty()
    tty.setraw(slave)
    try:
        yield master, os.ttyname(slave)
    finally:
        os.close(slave)
        try:
            os.close(master)
        except OSError:
            pass


# --------------------------------------------------------------------------- serial


def test_loop_url_returns_what_was_written() -> None:
    link = SerialLink("loop://", max_read=64)
    link.open()
    assert [e.state for e in link.events] == ["up"]
    payload = bytes(range(256)) * 2
    assert link.write(payload)
    got = bytearray()
    deadline = time.monotonic() + 2
    while len(got) < len(payload) and time.monotonic() < deadline:
        chunks = link.read(0.05)
        assert all(len(c.data) <= 64 for c in chunks), "reads are bounded by max_read"
        got += b"".join(c.data for c in chunks)
    assert bytes(got) == payload
    assert link.read(0.01) == []
    link.close()


def test_pty_bytes_both_ways_through_pyserial(pty_pair: tuple[int, str]) -> None:
    master, path = pty_pair
    link = SerialLink(path)
    link.open()
    try:
        os.write(master, b"\x00\x01frame\x00\xff")
        assert read_until(link, 9) == b"\x00\x01frame\x00\xff"
        link.write(b"advisory\x00")
        got = b""
        deadline = time.monotonic() + 2
        while len(got) < 9 and time.monotonic() < deadline:
            if select.select([master], [], [], 0.05)[0]:
                got += os.read(master, 64)
        assert got == b"advisory\x00"
    finally:
        link.close()


def test_pty_write_larger_than_the_tty_buffer_arrives_whole(pty_pair: tuple[int, str]) -> None:
    """One write(2) takes what fits; the rest goes through pyserial as the far end reads."""
    master, path = pty_pair
    link = SerialLink(path, write_timeout=5.0)
    link.open()
    blob = bytes(range(256)) * 1024  # 256 KiB: far more than a pty holds
    got = bytearray()
    done = threading.Event()

    def drain() -> None:
        while not done.is_set() or select.select([master], [], [], 0)[0]:
            if select.select([master], [], [], 0.05)[0]:
                got.extend(os.read(master, 65536))

    reader = threading.Thread(target=drain)
    reader.start()
    try:
        assert link.write(blob)
        deadline = time.monotonic() + 5
        while len(got) < len(blob) and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        done.set()
        reader.join()
        link.close()
    assert bytes(got) == blob and link.write_timeouts == 0


def test_pty_write_to_a_far_end_that_never_reads_times_out(pty_pair: tuple[int, str]) -> None:
    """The buffer fills, pyserial's write timeout ends the write; the link stays up."""
    _, path = pty_pair
    link = SerialLink(path, write_timeout=0.2)
    link.open()
    try:
        started = time.monotonic()
        assert not link.write(bytes(1024 * 1024))
        assert 0.15 < time.monotonic() - started < 3
        assert link.write_timeouts == 1 and link.connected
    finally:
        link.close()


def test_pty_read_takes_what_waits_in_one_bounded_chunk(pty_pair: tuple[int, str]) -> None:
    """A POSIX port is read straight from its descriptor: all that waits, up to max_read."""
    master, path = pty_pair
    link = SerialLink(path, max_read=100)
    link.open()
    try:
        os.write(master, bytes(range(1, 251)))
        port = link._port
        assert port is not None
        deadline = time.monotonic() + 5
        while port.in_waiting < 250 and time.monotonic() < deadline:
            time.sleep(0.005)  # the pty moves the bytes to the reader's side asynchronously
        sizes = []
        got = bytearray()
        deadline = time.monotonic() + 2
        while len(got) < 250 and time.monotonic() < deadline:
            for chunk in link.read(0.05):
                sizes.append(len(chunk.data))
                got += chunk.data
        assert bytes(got) == bytes(range(1, 251))
        assert sizes == [100, 100, 50]
        assert link.read(0.01) == []
    finally:
        link.close()


def test_pty_hangup_is_link_down_and_reopen_backs_off(pty_pair: tuple[int, str]) -> None:
    master, path = pty_pair
    clock = [100.0]
    sup = LinkSupervisor(SerialLink(path), Backoff(0.5, 2.0), clock=lambda: clock[0])
    assert sup.read(0.01) == []
    assert sup.is_open
    os.close(master)  # the far end goes away: reading the slave now fails (EIO)
    for _ in range(20):
        sup.read(0.01)
        if not sup.is_open:
            break
    states = [e.state for e in sup.events()]
    assert states[0] == "up" and "down" in states
    assert not sup.is_open


def test_backoff_doubles_and_caps() -> None:
    b = Backoff(0.1, 1.0)
    assert [round(b.next_delay(), 3) for _ in range(6)] == [0.1, 0.2, 0.4, 0.8, 1.0, 1.0]
    b.reset()
    assert b.next_delay() == 0.1


def test_serial_socket_url_reconnects_with_backoff() -> None:
    """``socket://`` through pyserial: a dropped server connection is a down link that
    comes back once the server accepts again; refused attempts back off, capped."""
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    sup = LinkSupervisor(SerialLink(f"socket://127.0.0.1:{port}"), Backoff(0.02, 0.08))
    sup.ensure_open()
    conn, _ = server.accept()
    conn.sendall(b"hello")
    assert read_until(sup, 5) == b"hello"
    conn.close()
    server.close()  # nobody listens any more: reconnects are refused
    deadline = time.monotonic() + 3
    retries: list[LinkEvent] = []
    while time.monotonic() < deadline and len(retries) < 4:
        sup.read(0.02)
        retries += [e for e in sup.events() if e.state == "retry"]
    delays = [e.retry_in_s for e in retries]
    assert delays[:4] == [0.04, 0.08, 0.08, 0.08], delays  # 0.02 went to the "down"
    server = socket.create_server(("127.0.0.1", port))
    deadline = time.monotonic() + 3
    while not sup.is_open and time.monotonic() < deadline:
        sup.read(0.02)
    assert sup.is_open
    conn, _ = server.accept()
    conn.sendall(b"back")
    assert read_until(sup, 4) == b"back"
    assert [e.state for e in sup.events()][-1] == "up"
    sup.close()
    conn.close()
    server.close()


# --------------------------------------------------------------------------- TCP / UDP


def test_tcp_listener_one_connection_at_a_time() -> None:
    link = TcpListenLink("127.0.0.1", 0, takeover_s=0.3)
    link.open()
    host, port = link.address
    assert port != 0 and link.name == f"tcp://127.0.0.1:{port}"
    first = socket.create_connection((host, port))
    link.read(0.2)
    assert link.connected
    first.sendall(b"one")
    assert read_until(link, 3) == b"one"
    assert link.write(b"back")
    assert first.recv(16) == b"back"
    second = socket.create_connection((host, port))  # waits while the first is talking
    first.sendall(b"x")
    assert read_until(link, 1) == b"x"
    first_name = _local(first)
    assert link.peer == first_name
    first.close()  # drop: the waiting connection is taken next
    deadline = time.monotonic() + 2
    while link.peer != _local(second) and time.monotonic() < deadline:
        link.read(0.05)
    second.sendall(b"two")
    assert read_until(link, 3) == b"two"
    states = [(e.state, e.peer) for e in link.events]
    assert states == [
        ("listening", None),
        ("up", first_name),
        ("down", first_name),
        ("up", _local(second)),
    ]
    # a silent connection is replaced by a waiting one after takeover_s
    third = socket.create_connection((host, port))
    time.sleep(0.4)
    deadline = time.monotonic() + 2
    while link.peer != _local(third) and time.monotonic() < deadline:
        link.read(0.05)
    assert link.peer == _local(third)
    for s in (second, third):
        s.close()
    link.close()


def test_a_connection_waiting_behind_an_active_one_does_not_wake_the_reader() -> None:
    link = TcpListenLink("127.0.0.1", 0, takeover_s=0.5)
    link.open()
    first = socket.create_connection(link.address)
    accept(link)
    first.sendall(b"x")
    assert read_until(link, 1) == b"x"
    second = socket.create_connection(link.address)
    with first, second:
        fds = link.read_fds()
        assert fds is not None and fds[1] == -1  # the listener is not watched yet
        start = time.monotonic()
        assert link.read(0.2) == []  # waits its timeout instead of spinning on the backlog
        assert time.monotonic() - start >= 0.15
        time.sleep(0.4)  # now the first has been silent past takeover_s
        fds = link.read_fds()
        assert fds is not None and fds[1] >= 0
        deadline = time.monotonic() + 2
        while link.peer != _local(second) and time.monotonic() < deadline:
            link.read(0.05)
        assert link.peer == _local(second)
    link.close()


def accept(link: TcpListenLink) -> None:
    deadline = time.monotonic() + 3
    while not link.connected and time.monotonic() < deadline:
        link.read(0.05)
    assert link.connected


def test_tcp_write_larger_than_the_socket_buffer_arrives_whole() -> None:
    link = TcpListenLink("127.0.0.1", 0, write_timeout=5.0)
    link.open()
    peer = socket.create_connection(link.address)
    accept(link)
    blob = bytes(range(256)) * 16384  # 4 MiB: more than the send and receive buffers
    got = bytearray()

    def drain() -> None:
        while len(got) < len(blob):
            data = peer.recv(1 << 20)
            if not data:
                return
            got.extend(data)

    reader = threading.Thread(target=drain)
    reader.start()
    try:
        assert link.write(blob)
        reader.join(10)
    finally:
        peer.close()
        link.close()
    assert bytes(got) == blob


def test_tcp_write_to_a_peer_that_never_reads_drops_it_after_the_timeout() -> None:
    link = TcpListenLink("127.0.0.1", 0, write_timeout=0.2)
    link.open()
    peer = socket.create_connection(link.address)
    accept(link)
    try:
        started = time.monotonic()
        assert not link.write(bytes(32 * 1024 * 1024))
        assert 0.15 < time.monotonic() - started < 5
        assert not link.connected
        assert link.events[-1].state == "down" and "write failed" in (link.events[-1].error or "")
    finally:
        peer.close()
        link.close()


def _local(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"{host}:{port}"


def test_udp_replies_to_the_sender() -> None:
    link = UdpListenLink("127.0.0.1", 0)
    link.open()
    assert not link.connected
    a = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    b = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    a.bind(("127.0.0.1", 0))
    b.bind(("127.0.0.1", 0))
    a.sendto(b"from-a", link.address)
    b.sendto(b"from-b", link.address)
    chunks: list[Chunk] = []
    deadline = time.monotonic() + 2
    while len(chunks) < 2 and time.monotonic() < deadline:
        chunks += link.read(0.05)
    assert {(c.data, c.peer) for c in chunks} == {(b"from-a", _local(a)), (b"from-b", _local(b))}
    assert link.write(b"to-a", _local(a))
    assert link.write(b"to-last")  # no peer given: the last sender
    a.settimeout(2)
    b.settimeout(2)
    assert a.recv(16) == b"to-a"
    assert b.recv(16) == b"to-last"
    a.close()
    b.close()
    link.close()


def test_bind_failure_is_a_link_error() -> None:
    taken = socket.create_server(("127.0.0.1", 0))
    port = taken.getsockname()[1]
    sup = LinkSupervisor(TcpListenLink("127.0.0.1", port), Backoff(0.01, 0.01))
    sup.read(0.01)
    events = sup.events()
    assert events[0].state == "retry" and "cannot listen" in (events[0].error or "")
    taken.close()


@pytest.mark.parametrize("text", ["7700", ":7700", "127.0.0.1:7700", "[::1]:7700"])
def test_parse_host_port(text: str) -> None:
    host, port = parse_host_port(text)
    assert port == 7700 and host in ("127.0.0.1", "::1")


@pytest.mark.parametrize("text", ["", "host:", "host:x", "70000"])
def test_parse_host_port_refuses(text: str) -> None:
    with pytest.raises(ValueError):
        parse_host_port(text)


# --------------------------------------------------------------------------- text input


def test_stdin_link_reads_a_pipe_until_eof() -> None:
    r, w = os.pipe()
    link = StdinLink(r, max_read=4)
    link.open()
    os.write(w, b"abcdefgh")
    os.close(w)
    got = b""
    for _ in range(10):
        got += b"".join(c.data for c in link.read(0.05))
    assert got == b"abcdefgh"
    assert [e.state for e in link.events] == ["up", "eof"]
    os.close(r)


def test_line_splitter_is_bounded() -> None:
    s = LineSplitter(max_line=8)
    assert s.feed(b"ab\r\ncd") == [b"ab"]
    assert s.feed(b"e\n" + b"x" * 20) == [b"cde"]
    assert s.feed(b"yy\nok\n") == [b"ok"]  # the overlong line is dropped whole
    assert s.overlong == 1
    assert s.feed(b"tail") == [] and s.flush() == [b"tail"]


def test_text_samples_csv_skips_bad_lines_never_raises() -> None:
    known = {"a", "b"}.__contains__
    p = TextSamples("auto", known)
    out = p.feed(b"time,a,b,zz\n0,1,2,3\n0.5,,x,4\n0.2,1,1,1\nbad\n1,nan,5,6")
    out += p.finish()
    assert out == [
        (0.0, {"a": 1.0, "b": 2.0}),
        (0.5, {}),
        (1.0, {"a": pytest.approx(float("nan"), nan_ok=True), "b": 5.0}),
    ]
    assert p.fmt == "csv"
    assert any("unknown parameter 'zz'" in e for e in p.errors)
    assert any("stdin:3: b value 'x'" in e for e in p.errors)
    assert any("goes back" in e for e in p.errors)
    assert any("stdin:5: 1 cells" in e for e in p.errors)


def test_text_samples_jsonl() -> None:
    p = TextSamples("auto", {"a"}.__contains__)
    lines = [
        b'{"t": 0, "values": {"a": 1}}',
        b'{"t": 1, "values": {"a": null, "b": 2}}',
        b'{"t": "x", "values": {}}',
        b"not json",
        b'{"t": 2, "values": {"a": true}}',
    ]
    out = p.feed(b"\n".join(lines) + b"\n")
    assert p.fmt == "jsonl"
    assert out == [(0.0, {"a": 1.0}), (1.0, {}), (2.0, {})]
    assert len(p.errors) == 4  # unknown b, bad t, not JSON, boolean value
