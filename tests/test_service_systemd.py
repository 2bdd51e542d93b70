"""``senet-companion serve`` as systemd runs it: READY=1, watchdog pings, SIGTERM, STOPPING=1."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import urllib.request
from contextlib import closing
from pathlib import Path

from tests.systemd_socket import notify_socket


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_the_service_reports_ready_pings_the_watchdog_and_stops_cleanly(tmp_path: Path) -> None:
    port = _free_port()
    journal = tmp_path / "journal.sqlite3"
    with notify_socket() as systemd:
        env = {
            **os.environ,
            "NOTIFY_SOCKET": systemd.env_value,
            "WATCHDOG_USEC": "200000",  # a ping every 0.1 s
            "PYTHONUNBUFFERED": "1",
        }
        env.pop("WATCHDOG_PID", None)
        process = subprocess.Popen(
            [
                *(sys.executable, "-m", "companion", "serve", "--hardware", "sim"),
                *("--host", "127.0.0.1", "--port", str(port), "--journal", str(journal)),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        try:
            ready = systemd.receive_until("READY", timeout=60)[-1]
            assert ready["MAINPID"] == str(process.pid)
            assert f"serving http://127.0.0.1:{port}/" in ready["STATUS"]
            # READY means the port is bound: the page answers without any retry.
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as page:
                assert page.status == 200
            assert systemd.receive_until("WATCHDOG", timeout=10)[-1] == {"WATCHDOG": "1"}
            assert systemd.receive_until("WATCHDOG", timeout=10)[-1] == {"WATCHDOG": "1"}

            process.send_signal(signal.SIGTERM)
            stopping = systemd.receive_until("STOPPING", timeout=30)[-1]
            out, err = process.communicate(timeout=30)
        finally:
            if process.poll() is None:
                process.kill()
                process.communicate()
    assert stopping["STOPPING"] == "1"
    assert process.returncode == 0, err
    assert "stopping (SIGTERM)" in out
    with closing(sqlite3.connect(f"{journal.as_uri()}?mode=ro", uri=True)) as db:
        assert db.execute("PRAGMA quick_check").fetchone() == ("ok",)
