"""How fast a hardware event reaches the phones, and how much memory the companion needs.

Latency: the real game loop on the simulated backend and the phone page served by waitress
on loopback, with 1, 10 and 100 live-update clients (plain HTTP streaming clients reading the
Server-Sent Events). A ``ThrowSettled`` event is put on the loop's queue exactly where a backend
puts it; the time until each client has received the resulting state is recorded.

Memory: ``senet-companion serve --hardware sim`` as its own process, followed by 100 such
clients; its resident memory (VmRSS) is read from /proc.

    python bench/web.py [--rounds 30] [--write docs/benchmarks.md]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from report import write_section

from companion.actions import PlayMove
from companion.journal import Journal
from companion.loop import GameLoop
from companion.rules import get_ruleset
from companion.web import create_app
from companion.web.server import PageServer
from hardware.backends import open_backend
from hardware.events import ThrowSettled
from hardware.simulation import SimulatedBoard

CLIENTS = (1, 10, 100)
TIMEOUT = 10.0  # seconds an update may take before the run is declared broken


class StreamClient:
    """A phone following /api/events: records when each state version arrives."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        self.sock.sendall(
            b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
        )
        self.arrived: dict[int, float] = {}
        self.cond = threading.Condition()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        buffer = b""
        with contextlib.suppress(OSError):
            while chunk := self.sock.recv(65536):
                now = time.perf_counter()
                buffer += chunk
                *lines, buffer = buffer.split(b"\n")
                for line in lines:
                    if line.startswith(b"id: "):
                        with self.cond:
                            self.arrived.setdefault(int(line[4:]), now)
                            self.cond.notify_all()

    def wait_for(self, version: int, deadline: float) -> float:
        with self.cond:
            while version not in self.arrived:
                left = deadline - time.perf_counter()
                if left <= 0:
                    raise TimeoutError(f"version {version} never arrived")
                self.cond.wait(left)
            return self.arrived[version]

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def latency(clients: int, rounds: int, tmp: Path) -> list[float]:
    board = SimulatedBoard()
    backend = open_backend("sim", board=board)
    journal = Journal(tmp / f"journal-{clients}.sqlite3")
    loop = GameLoop("playpalace", backend, journal=journal, rng=random.Random(7))
    board.arrange(i for i, c in enumerate(get_ruleset("playpalace").start().board, 1) if c != ".")
    app = create_app({"max_clients": clients + 8}, loop=loop, backend=backend, journal=journal)
    server = PageServer(app, "127.0.0.1", 0, max_clients=clients + 8)
    server.start()
    loop.start()
    followers = [StreamClient(server.port) for _ in range(clients)]
    samples: list[float] = []
    rng = random.Random(11)
    try:
        deadline = time.perf_counter() + TIMEOUT
        _await(loop, lambda state: state["phase"] == "throw")  # the sensors saw the set-up
        deadline = time.perf_counter() + TIMEOUT
        for f in followers:  # every client has the current full state: all are connected
            f.wait_for(loop.snapshot()["version"], deadline)
        for _ in range(rounds):
            while loop.snapshot()["phase"] != "throw":  # a move, made from the phone
                before = loop.snapshot()
                legal = before.get("legal") or []
                if before["phase"] == "over" or not legal:
                    raise RuntimeError(f"unexpected phase {before['phase']}")
                loop.submit(PlayMove(legal[0]["move"]))
                _await(loop, lambda state, v=before["version"]: state["version"] > v)
            version = loop.snapshot()["version"] + 1
            faces = tuple(rng.randint(0, 1) for _ in range(4))
            start = time.perf_counter()
            loop.submit(ThrowSettled(faces, at=time.monotonic()))
            deadline = start + TIMEOUT
            samples.extend(f.wait_for(version, deadline) - start for f in followers)
    finally:
        for f in followers:
            f.close()
        server.stop()
        loop.stop()
        journal.close()
    return samples


def _await(loop: GameLoop, done: Callable[[dict[str, Any]], bool]) -> None:
    subscription = loop.subscribe()
    try:
        deadline = time.monotonic() + TIMEOUT
        while not done(loop.snapshot()):
            if time.monotonic() > deadline:
                raise TimeoutError(f"the game stayed in phase {loop.snapshot()['phase']}")
            subscription.get(timeout=0.1)
    finally:
        subscription.close()


def rss_kib(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    found = re.search(r"VmRSS:\s+(\d+) kB", status)
    return int(found.group(1)) if found else 0


def memory(clients: int, tmp: Path) -> tuple[int, int]:
    """Resident memory of a ``serve`` process, idle and with ``clients`` phones following."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1"),
            *("--port", str(port), "--journal", str(tmp / "serve.sqlite3")),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    followers: list[StreamClient] = []
    try:
        assert process.stdout is not None
        process.stdout.readline()
        for _ in range(100):
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port)):
                break
            time.sleep(0.05)  # the server is starting; the benchmark may wait, tests may not
        first = StreamClient(port)
        first.wait_for(max(1, _first_version(first)), time.perf_counter() + TIMEOUT)
        idle = rss_kib(process.pid)
        followers = [first] + [StreamClient(port) for _ in range(clients - 1)]
        deadline = time.perf_counter() + TIMEOUT
        for f in followers:
            while not f.arrived and time.perf_counter() < deadline:
                with f.cond:
                    f.cond.wait(0.1)
        busy = rss_kib(process.pid)
        return idle, busy
    finally:
        for f in followers:
            f.close()
        process.terminate()
        process.wait(timeout=20)


def _first_version(client: StreamClient) -> int:
    deadline = time.perf_counter() + TIMEOUT
    with client.cond:
        while not client.arrived:
            if time.perf_counter() > deadline:
                raise TimeoutError("the server sent no state")
            client.cond.wait(0.1)
        return min(client.arrived)


def report(results: dict[int, list[float]], idle: int, busy: int, rounds: int) -> str:
    lines = [
        "## Web",
        "",
        "`bench/web.py` puts a `ThrowSettled` hardware event on the game loop's queue (where a",
        "backend puts it) and times how long until every live-update client has received the",
        "new state over Server-Sent Events: the real loop on the simulated backend, waitress on",
        "loopback, clients as plain HTTP streaming readers. Memory is the resident size of a",
        "separate `senet-companion serve --hardware sim` process with 100 clients following it.",
        "Aims: under 100 ms at the 99th percentile with 100 clients, under 80 MB.",
        "",
        f"Measured on the development machine ({os.cpu_count()} cores, Python "
        f"{platform.python_version()}, {platform.machine()}), {rounds} throws per row:",
        "",
        "| clients | updates timed | median | 99th percentile | slowest |",
        "|---:|---:|---:|---:|---:|",
    ]
    for clients, samples in results.items():
        ms = [s * 1000 for s in samples]
        lines.append(
            f"| {clients} | {len(ms)} | {statistics.median(ms):.1f} ms | "
            f"{percentile(ms, 0.99):.1f} ms | {max(ms):.1f} ms |"
        )
    lines += [
        "",
        f"Memory of the serving process: {idle / 1024:.1f} MB with one client, "
        f"{busy / 1024:.1f} MB with 100 clients.",
        "",
    ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30, help="throws timed per client count")
    parser.add_argument("--write", metavar="FILE", help="update the ## Web section of FILE")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        results = {n: latency(n, args.rounds, tmp) for n in CLIENTS}
        idle, busy = memory(100, tmp)
    section = report(results, idle, busy, args.rounds)
    print(section)
    if args.write:
        write_section("Web", section, Path(args.write))
    return 0


if __name__ == "__main__":
    sys.exit(main())
