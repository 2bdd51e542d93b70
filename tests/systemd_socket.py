"""A stand-in for systemd's notification socket, shared by the tests that need one."""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager


class NotifySocket:
    """A unix datagram socket bound where ``$NOTIFY_SOCKET`` will point, read like systemd."""

    def __init__(self, sock: socket.socket, env_value: str) -> None:
        self.sock = sock
        self.env_value = env_value

    def receive(self, timeout: float = 10.0) -> dict[str, str]:
        """The next message as a dict; raises TimeoutError if none comes within ``timeout``."""
        self.sock.settimeout(timeout)
        data = self.sock.recv(4096)
        fields: dict[str, str] = {}
        for line in data.decode().split("\n"):
            key, _, value = line.partition("=")
            fields[key] = value
        return fields

    def receive_until(self, key: str, timeout: float = 10.0) -> list[dict[str, str]]:
        """Every message up to and including the first one that carries ``key``."""
        seen = []
        while True:
            message = self.receive(timeout)
            seen.append(message)
            if key in message:
                return seen


@contextmanager
def notify_socket(abstract: bool = False) -> Iterator[NotifySocket]:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    # A short directory of our own: unix socket paths are limited to 107 bytes.
    directory = tempfile.mkdtemp(prefix="sdn")
    try:
        if abstract:
            name = f"senet-test-{os.getpid()}-{os.path.basename(directory)}"
            sock.bind(b"\0" + name.encode())
            env_value = "@" + name
        else:
            env_value = os.path.join(directory, "notify")
            sock.bind(env_value)
        yield NotifySocket(sock, env_value)
    finally:
        sock.close()
        shutil.rmtree(directory, ignore_errors=True)
