"""A real companion on the simulated board, served by waitress on loopback, for browser tests
and the web benchmark; with a proxy in front that can drop every connection like a pulled plug."""

from __future__ import annotations

import contextlib
import random
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.journal import Journal
from companion.loop import GameLoop
from companion.web import create_app
from companion.web.server import PageServer
from hardware.backends import open_backend
from hardware.simulation import SimulatedBoard


class Proxy:
    """Forwards loopback TCP to ``target``; ``cut()`` drops every connection and refuses new
    ones until ``mend()``."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self.up = threading.Event()
        self.up.set()
        self.open: set[socket.socket] = set()
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.up.is_set():
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                client.close()
                continue
            with self.lock:
                self.open.update((client, upstream))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        for s in (source, sink):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        self.up.clear()
        with self.lock:
            sockets, self.open = list(self.open), set()
        for s in sockets:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()

    def mend(self) -> None:
        self.up.set()

    def close(self) -> None:
        self.cut()
        self.listener.close()


@dataclass
class Companion:
    loop: GameLoop
    board: SimulatedBoard
    backend: Any
    app: Any
    server: Any
    port: int
    journal: Journal

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"


@contextlib.contextmanager
def running_companion(
    tmp: Path,
    *,
    web: dict[str, Any] | None = None,
    threads: int = 16,
    ruleset: str = "playpalace",
    seed: int = 3,
    board_kind: str = "presence",
) -> Iterator[Companion]:
    """The whole companion on the simulated board, its pieces set up, serving on loopback."""
    board = SimulatedBoard()
    backend = open_backend("sim", board=board)
    journal = Journal(tmp / "journal.sqlite3")
    config = {"pin": "2468", **(web or {})}
    loop = GameLoop(
        ruleset,
        backend,
        journal=journal,
        phone_input=config.get("phone_input", True),
        rng=random.Random(seed),
        board_kind=board_kind,
    )
    start = loop.snapshot()["ruleset"]["name"]
    from companion.rules import get_ruleset

    board.arrange(i for i, c in enumerate(get_ruleset(start).start().board, 1) if c in "WB")
    app = create_app(config, loop=loop, backend=backend, journal=journal, keepalive=5.0)
    server = PageServer(app, "127.0.0.1", 0, max_clients=threads)
    loop.start()
    server.start()
    companion = Companion(loop, board, backend, app, server, server.port, journal)
    with loop.subscribe() as states:  # the sensors have seen the set-up: the game is on
        while (state := states.get(timeout=10)) is not None and state["phase"] == "setup":
            pass
    try:
        yield companion
    finally:
        server.stop()
        loop.stop()
        journal.close()
