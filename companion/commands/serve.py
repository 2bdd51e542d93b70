"""``senet-companion serve``: the game loop, the hardware and the phone page in one process.

    serve [--hardware sim|gpio|plain|serial[:PORT]] [--config FILE] [--host H] [--port P]
          [--ruleset R] [--board presence|buttons|none] [--journal FILE]

Prints the page's address and a QR code for it, serves it with waitress, and on SIGTERM or
SIGINT (Ctrl-C) closes the phones' streams, stops the loop and the hardware and closes the
journal before exiting with status 0.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import socket
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import Any, TextIO

from companion.cli import UsageError

DEFAULT_PORT = 8000


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "serve",
        help="run the companion: game loop, hardware and the phone page",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--hardware", default="sim", metavar="SPEC", help="sim (default), gpio, plain, serial:PORT"
    )
    parser.add_argument("--config", metavar="FILE", help="the TOML configuration file")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (all by default)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="port (default 8000)")
    parser.add_argument("--ruleset", default="playpalace", help="the ruleset of the first game")
    parser.add_argument(
        "--board",
        choices=("presence", "buttons", "none"),
        help="what the squares sense: pieces, button presses or nothing "
        "(default: the configuration's squares setting)",
    )
    parser.add_argument(
        "--journal",
        metavar="FILE",
        help="the SQLite game journal (default: the user's state directory)",
    )
    parser.set_defaults(func=run)


def default_journal() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(Path.home(), ".local", "state")
    return Path(base) / "senet-companion" / "journal.sqlite3"


def show_address(url: str, hardware: str, out: TextIO) -> None:
    """Print the page's address, and a QR code for it when a person is at the terminal (under
    systemd the code would only fill the log; a terminal that cannot draw it has the address)."""
    import segno

    print(f"Senet companion: open {url} on a phone (hardware: {hardware})", file=out)
    if out.isatty():
        with contextlib.suppress(OSError, ValueError, UnicodeEncodeError):
            segno.make(url, error="m").terminal(out=out, compact=True)
    out.flush()


def page_url(host: str, port: int) -> str:
    """The address phones should open: the machine's LAN address when listening on all."""
    if host in ("0.0.0.0", "::", ""):
        host = _lan_address()
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def _lan_address() -> str:
    # A UDP "connection" sends nothing; it only asks the kernel which interface it would use.
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def run(args: argparse.Namespace) -> int:

    from companion.journal import Journal, JournalError
    from companion.logging_setup import configure_logging, level_from_config
    from companion.loop import GameLoop, LoopError
    from companion.rules import RULESETS
    from companion.systemd import ServiceLink
    from companion.web import create_app
    from companion.web.config import WebConfig
    from companion.web.errors import WebConfigError
    from companion.web.server import PageServer
    from hardware.backends import open_backend
    from hardware.errors import HardwareError

    configure_logging(level_from_config(args.config))
    if args.ruleset not in RULESETS:
        raise UsageError(f"--ruleset must be one of {', '.join(RULESETS)}, got {args.ruleset!r}")
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be between 0 and 65535, got {args.port}")
    try:
        web = WebConfig.from_file(args.config) if args.config else WebConfig()
    except WebConfigError as exc:
        raise UsageError(str(exc)) from None
    try:
        backend = open_backend(args.hardware, args.config)
    except HardwareError as exc:
        raise UsageError(str(exc)) from None

    backend_config = getattr(backend, "config", None)
    journal_path = Path(args.journal) if args.journal else default_journal()
    try:
        journal_path.parent.mkdir(parents=True, exist_ok=True)
        journal = Journal(journal_path)
    except (OSError, JournalError) as exc:
        raise UsageError(f"cannot open the journal {journal_path}: {exc}") from None

    from companion.game import TableSettings

    try:
        loop = GameLoop(
            args.ruleset,
            backend,
            journal=journal,
            board_kind=args.board or getattr(backend_config, "squares", "presence"),
            phone_input=web.phone_input,
            settings=TableSettings(idle_after=web.idle_after, idle_reset=web.idle_reset),
        )
    except LoopError as exc:
        journal.close()
        raise UsageError(str(exc)) from None
    _set_up_simulated_board(backend, loop)
    app = create_app(web, loop=loop, backend=backend, journal=journal, config_path=args.config)
    try:
        server = PageServer(app, args.host, args.port, max_clients=web.max_clients)
    except OSError as exc:
        loop.stop()
        journal.close()
        raise UsageError(f"cannot listen on {args.host}:{args.port}: {exc.strerror}") from None

    url = page_url(args.host, server.port)
    show_address(url, backend.name, sys.stdout)

    # The server's loop runs in its own thread; the main thread only waits for a signal, so a
    # signal never interrupts the server half-way through serving a request.
    stopping = threading.Event()
    reason: list[str] = []

    def stop(signum: int, frame: FrameType | None) -> None:
        reason.append(signal.Signals(signum).name)
        stopping.set()

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    loop.start()
    server.start()
    # Under systemd: READY=1 (the port is bound), watchdog pings while the server's thread runs,
    # STOPPING=1 on the way out. Run by hand, these do nothing.
    link = ServiceLink.from_environment(healthy=lambda: server.running)
    link.start()
    link.ready(f"serving {url} (hardware: {backend.name})")
    try:
        while not stopping.wait(0.5):
            if not server.running:
                reason.append("the web server stopped")
                break
        print(f"Senet companion: stopping ({', '.join(reason)})", flush=True)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        link.close()
        server.stop()
        loop.stop()
        journal.close()
    return 0


def _set_up_simulated_board(backend: Any, loop: Any) -> None:
    """On the simulated board, put the pieces where the game has them, as a player would."""
    board = getattr(backend, "board", None)
    if board is None:
        return
    state = loop.snapshot()
    if state.get("phase") == "setup":
        from companion.rules import get_ruleset

        start = get_ruleset(state["ruleset"]["name"]).start().board
    else:
        start = str(state.get("board", ""))
    board.arrange(i for i, cell in enumerate(start, start=1) if cell in "WB")
