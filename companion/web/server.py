"""Serving the phone page with waitress in a thread of its own, and stopping it cleanly."""

from __future__ import annotations

import threading
from typing import Any

from waitress import wasyncore
from waitress.server import create_server

__all__ = ["PageServer"]


class PageServer:
    """The app on ``host:port`` (port 0: any free one), with a thread per live-update phone.

    ``stop`` ends the phones' streams, lets the running requests finish, then closes every
    connection from inside the server's own loop, so the loop ends without touching a closed
    socket.
    """

    def __init__(self, app: Any, host: str, port: int, *, max_clients: int = 200) -> None:
        self.app = app
        self._server = create_server(
            app,
            host=host,
            port=port,
            threads=max_clients + 8,  # each phone's live stream holds one thread
            connection_limit=max_clients + 50,
            send_bytes=1,  # send every live update at once instead of gathering 18 kB
            ident="senet-companion",
            clear_untrusted_proxy_headers=True,
        )
        self._thread = threading.Thread(target=self._server.run, name="web-server", daemon=True)

    @property
    def port(self) -> int:
        return int(self._server.effective_port)

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self.app.extensions["senet"].broker.stop()
        self._server.task_dispatcher.shutdown(timeout=timeout)
        if self._thread.is_alive():
            connections = self._server._map  # waitress keeps its sockets here
            self._server.trigger.pull_trigger(
                lambda: wasyncore.close_all(connections, ignore_all=True)
            )
            self._thread.join(timeout)
        else:
            self._server.close()
