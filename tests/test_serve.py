"""``senet-companion serve`` as a real process: it serves the page and stops cleanly."""

from __future__ import annotations

import io
import json
import os
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from companion.commands.serve import page_url


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(tmp_path: Path, *extra: str) -> tuple[subprocess.Popen[str], int]:
    port = free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1"),
            *("--port", str(port), "--journal", str(tmp_path / "journal.sqlite3"), *extra),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert process.stdout is not None
    first = process.stdout.readline()  # blocks until the server is about to listen
    assert f"http://127.0.0.1:{port}/" in first, first + process.stderr.read()
    return process, port


def get(port: int, path: str) -> tuple[int, bytes]:
    for _ in range(50):  # the socket listens before the line above; retry only refusals
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as r:
                return r.status, r.read()
        except ConnectionRefusedError:
            continue
        except urllib.error.URLError as exc:
            if isinstance(exc.reason, ConnectionRefusedError):
                continue
            raise
    raise AssertionError("the server never answered")


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_serve_answers_and_exits_cleanly(tmp_path: Path, sig: signal.Signals) -> None:
    process, port = start(tmp_path)
    try:
        status, body = get(port, "/")
        assert status == 200 and b"<svg" in body
        status, body = get(port, "/api/state")
        state = json.loads(body)["state"]
        assert state["ruleset"]["name"] == "playpalace" and state["phase"] in ("setup", "throw")
        process.send_signal(sig)
        out, err = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, err
    assert "stopping" in out and "Traceback" not in err
    assert (tmp_path / "journal.sqlite3").exists()


def test_serve_refuses_a_bad_configuration(tmp_path: Path) -> None:
    config = tmp_path / "bad.toml"
    config.write_text("[web]\npin = 12\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "companion", "serve", "--config", str(config)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 2
    assert "pin must be a string" in result.stderr and "Traceback" not in result.stderr


def test_page_url_names_the_machine_when_listening_everywhere() -> None:
    assert page_url("127.0.0.1", 8000) == "http://127.0.0.1:8000/"
    assert page_url("::1", 80) == "http://[::1]:80/"
    assert page_url("0.0.0.0", 8000).startswith("http://")


class _Terminal(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def test_the_qr_code_is_drawn_only_for_a_person_at_a_terminal() -> None:
    from companion.commands.serve import show_address

    for tty in (True, False):
        out = _Terminal(tty)
        show_address("http://192.0.2.7:8080/", "sim", out)
        lines = out.getvalue().splitlines()
        assert lines[0] == "Senet companion: open http://192.0.2.7:8080/ on a phone (hardware: sim)"
        # A QR code of that address is at least 21 modules square, drawn two rows a line.
        assert (len(lines) > 10) is tty
