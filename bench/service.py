"""How the service behaves under systemd's clock: start, watchdog pings, stop, housekeeping.

Starts ``senet-companion serve --hardware sim`` as its own process, as systemd does, with a
notification socket of our own in ``$NOTIFY_SOCKET`` and a 2-second watchdog, and times:

- from the start of the process to ``READY=1`` (what ``TimeoutStartSec=`` must cover);
- from ``READY=1`` to the first answer of the page;
- the longest gap between two watchdog pings, against the 1-second interval it aims for;
- from SIGTERM to ``STOPPING=1`` and to the process's exit (what ``TimeoutStopSec=`` must cover).

Then the housekeeping commands: one ``senet-companion doctor`` run, and the daily clean-up the
timer runs (``senet-companion games --journal FILE clean``) on a journal of 200 finished games
with 100 events each.

    python bench/service.py [--rounds 10] [--write docs/benchmarks.md]
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from report import write_section

from companion.journal import Journal
from companion.rules import get_ruleset

WATCHDOG_SECONDS = 2.0
PINGS = 10


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _receive(sock: socket.socket, key: str, timeout: float = 120.0) -> float:
    """Wait for a message carrying ``key``; the time it arrived."""
    sock.settimeout(timeout)
    while True:
        message = sock.recv(4096).decode()
        if any(line.startswith(key + "=") for line in message.split("\n")):
            return time.perf_counter()


def one_round(directory: Path) -> dict[str, float]:
    address = str(directory / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(address)
        port = _free_port()
        env = {
            **os.environ,
            "NOTIFY_SOCKET": address,
            "WATCHDOG_USEC": str(int(WATCHDOG_SECONDS * 1_000_000)),
        }
        env.pop("WATCHDOG_PID", None)
        started = time.perf_counter()
        process = subprocess.Popen(
            [
                *(sys.executable, "-m", "companion", "serve", "--hardware", "sim"),
                *("--host", "127.0.0.1", "--port", str(port)),
                *("--journal", str(directory / "journal.sqlite3")),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        try:
            ready = _receive(sock, "READY")
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as page:
                page.read()
            answered = time.perf_counter()
            pings = [_receive(sock, "WATCHDOG") for _ in range(PINGS)]
            term = time.perf_counter()
            process.send_signal(signal.SIGTERM)
            stopping = _receive(sock, "STOPPING")
            process.wait(timeout=60)
            exited = time.perf_counter()
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
        os.unlink(address)
    gaps = [b - a for a, b in itertools.pairwise(pings)]
    return {
        "ready": ready - started,
        "page": answered - ready,
        "gap": max(gaps),
        "stopping": stopping - term,
        "exit": exited - term,
        "status": float(process.returncode),
    }


def timed_command(*args: str, env: dict[str, str] | None = None) -> float:
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "companion", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
        check=False,
    )
    return time.perf_counter() - started


def filled_journal(path: Path) -> None:
    start = get_ruleset("basic").start()
    with Journal(path) as journal:
        for game in range(200):
            name = f"g{game}"
            journal.begin_game(name, "basic", {}, start, "2020-01-01T10-00-00", {})
            for n in range(100):
                journal.record(name, [{"type": "throw", "n": n}], float(n), [], {})
            journal.record(name, [], 100.0, [], {}, finished=("2020-01-01T11-00-00", "W", "race"))


def report(rounds: list[dict[str, float]], doctor: float, maintain: float, size: int) -> str:
    def row(label: str, key: str, unit: str = "s") -> str:
        values = [r[key] for r in rounds]
        scale, suffix = (1000, " ms") if unit == "ms" else (1, " s")
        median, worst = statistics.median(values) * scale, max(values) * scale
        digits = 1 if unit == "ms" else 2
        return f"| {label} | {median:.{digits}f}{suffix} | {worst:.{digits}f}{suffix} |"

    clean = sum(r["status"] == 0 for r in rounds)
    lines = [
        "## Service",
        "",
        "`bench/service.py` starts `senet-companion serve --hardware sim` as systemd does, with",
        f"a notification socket of its own and a {WATCHDOG_SECONDS:g}-second watchdog, and times "
        "what",
        "the unit's timeouts must cover. `deploy/senet-companion.service` allows 90 s to start,",
        "20 s to stop and 30 s between watchdog pings, for a Raspberry Pi several times slower",
        "than the machine measured here.",
        "",
        f"Measured on the development machine ({os.cpu_count()} cores, Python "
        f"{platform.python_version()}, {platform.machine()}), {len(rounds)} starts:",
        "",
        "| step | median | slowest |",
        "|---|---:|---:|",
        row("process start to READY=1", "ready"),
        row("READY=1 to the page's first answer", "page", "ms"),
        row(f"longest gap between watchdog pings (aim {WATCHDOG_SECONDS / 2:g} s)", "gap"),
        row("SIGTERM to STOPPING=1", "stopping", "ms"),
        row("SIGTERM to exit", "exit", "ms"),
        "",
        f"{clean} of {len(rounds)} stops exited with status 0.",
        f"`senet-companion doctor`: {doctor:.2f} s. The daily clean-up (`senet-companion games",
        "--journal FILE clean`) on a journal of 200 finished games with 100 events each",
        f"({size // 1024} KiB): {maintain:.2f} s.",
    ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10, help="service starts to time")
    parser.add_argument("--write", metavar="FILE", help="update the ## Service section of FILE")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="sb") as tmp:
        directory = Path(tmp)
        rounds = []
        for _ in range(args.rounds):
            rounds.append(one_round(directory))
            (directory / "journal.sqlite3").unlink(missing_ok=True)
        env = {**os.environ, "STATE_DIRECTORY": tmp}
        doctor = timed_command("doctor", "--hardware", "sim", "--port", str(_free_port()), env=env)
        journal = directory / "games.sqlite3"
        filled_journal(journal)
        size = journal.stat().st_size
        maintain = timed_command("games", "--journal", str(journal), "clean")
    section = report(rounds, doctor, maintain, size)
    print(section)
    if args.write:
        write_section("Service", section, Path(args.write))
    return 0


if __name__ == "__main__":
    sys.exit(main())
