"""The ``[serial]`` configuration, finding the board by USB ids, and opening the backend by spec."""

from __future__ import annotations

import queue
from dataclasses import dataclass
from pathlib import Path

import pytest

from firmware_bridge.backend import SimulatedSerialBackend, open_serial_backend, serial_table
from firmware_bridge.config import SerialConfig, find_board_port
from firmware_bridge.errors import BoardNotFound, BridgeError, ConfigError
from firmware_bridge.link import SerialBackend
from hardware.backends import open_backend
from hardware.config import default_config_text, load_config
from hardware.errors import BackendUnavailable
from hardware.events import BoardSnapshot, HardwareEvent
from hardware.simulation import SimulatedBoard


@dataclass
class Port:
    device: str
    vid: int | None
    pid: int | None


def write_config(tmp_path: Path, serial_text: str) -> Path:
    path = tmp_path / "senet.toml"
    path.write_text(default_config_text() + "\n[serial]\n" + serial_text, encoding="utf-8")
    return path


def test_defaults_look_for_a_pico_running_micropython() -> None:
    config = SerialConfig.from_table(None)
    assert (config.port, config.vid, config.pid, config.baud) == (None, 0x2E8A, 0x0005, 115200)


def test_the_table_accepts_hex_ids_and_the_port_argument_wins() -> None:
    table = {"port": "/dev/ttyACM1", "vid": "239A", "pid": 32780, "backoff_max": 4}
    config = SerialConfig.from_table(table, port="socket://localhost:7000")
    assert config.port == "socket://localhost:7000"
    assert (config.vid, config.pid, config.backoff_max) == (0x239A, 32780, 4.0)


@pytest.mark.parametrize(
    ("table", "words"),
    [
        ({"prot": "/dev/ttyACM0"}, "no setting 'prot'"),
        ({"vid": "pico"}, "hex USB id"),
        ({"vid": 70000}, "not a USB id"),
        ({"baud": "fast"}, "whole number"),
        ({"baud": 12}, "between 300"),
        ({"backoff_initial": 5, "backoff_max": 1}, "at most backoff_max"),
        ({"silence": 0}, "positive"),
        ({"port": 7}, "must be text"),
        ({"port": " "}, "empty"),
    ],
)
def test_mistakes_are_named(table: dict[str, object], words: str) -> None:
    with pytest.raises(ConfigError, match=words) as caught:
        SerialConfig.from_table(table)
    assert isinstance(caught.value, BridgeError) and isinstance(caught.value, ValueError)


def test_the_board_is_found_among_the_usb_ports() -> None:
    ports = [
        Port("/dev/ttyUSB0", 0x0403, 0x6001),
        Port("/dev/ttyS0", None, None),
        Port("/dev/ttyACM3", 0x2E8A, 0x0005),
        Port("/dev/ttyACM1", 0x2E8A, 0x0005),
    ]
    assert find_board_port(0x2E8A, 0x0005, list_ports=lambda: ports) == "/dev/ttyACM1"


def test_a_missing_board_says_what_is_there_and_what_to_do() -> None:
    ports = [Port("/dev/ttyUSB0", 0x0403, 0x6001), Port("/dev/ttyS0", None, None)]
    with pytest.raises(BoardNotFound) as caught:
        find_board_port(0x2E8A, 0x0005, list_ports=lambda: ports)
    message = str(caught.value)
    assert "2E8A:0005" in message and "/dev/ttyUSB0 (0403:6001)" in message
    assert "serial:PORT" in message
    assert isinstance(caught.value, LookupError)


def test_the_serial_table_comes_from_the_same_file(tmp_path: Path) -> None:
    path = write_config(tmp_path, 'port = "/dev/ttyACM7"\nbackoff_max = 3\n')
    config = load_config(path)
    assert serial_table(config) == {"port": "/dev/ttyACM7", "backoff_max": 3}
    backend = open_backend("serial", path)
    assert isinstance(backend, SerialBackend)
    assert backend.config.port == "/dev/ttyACM7" and backend.config.backoff_max == 3.0
    assert open_backend("serial:loop://", path).config.port == "loop://"  # type: ignore[attr-defined]


def test_a_bad_serial_table_is_a_clear_backend_error(tmp_path: Path) -> None:
    path = write_config(tmp_path, "baud = 7\n")
    with pytest.raises(BackendUnavailable, match="baud 7"):
        open_backend("serial", path)


def test_the_shipped_default_has_no_serial_table() -> None:
    backend = open_backend("serial")
    assert isinstance(backend, SerialBackend) and backend.config.port is None
    assert backend.board is None


def test_a_simulated_board_takes_no_port() -> None:
    with pytest.raises(BackendUnavailable, match="serial:sim"):
        open_serial_backend("/dev/ttyACM0", load_config(), SimulatedBoard(), lambda: 0.0)


def test_serial_sim_runs_the_whole_link_on_a_simulated_board() -> None:
    backend = open_backend("serial:sim")
    assert isinstance(backend, SimulatedSerialBackend) and backend.board is not None
    backend.board.arrange({2, 4})
    events: queue.Queue[HardwareEvent] = queue.Queue()
    backend.start(events)
    try:
        first = events.get(timeout=10)
        assert isinstance(first, BoardSnapshot) and first.occupied == {2, 4}
        assert backend.status()["simulated"] is True
    finally:
        backend.stop()
