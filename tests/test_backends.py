"""Opening backends by spec, and the registry other packages plug into."""

from __future__ import annotations

import queue
from collections.abc import Iterator
from pathlib import Path

import pytest

from hardware import backends
from hardware.backend import Backend
from hardware.backends import open_backend, register_backend
from hardware.config import HardwareConfig, default_config_text
from hardware.errors import BackendUnavailable, ConfigError
from hardware.plain import PlainBackend
from hardware.simulation import ManualClock, SimulatedBoard


@pytest.fixture
def restore_registry() -> Iterator[None]:
    saved = dict(backends.BACKENDS)
    yield
    backends.BACKENDS.clear()
    backends.BACKENDS.update(saved)


@pytest.mark.parametrize("spec", ["sim", "plain"])
def test_simulated_backends_create_a_board_when_none_is_given(spec: str) -> None:
    backend = open_backend(spec)
    assert isinstance(backend, Backend)
    assert isinstance(backend.board, SimulatedBoard)  # type: ignore[attr-defined]
    assert backend.name == spec


def test_the_board_and_its_clock_are_used() -> None:
    clock = ManualClock(3.0)
    board = SimulatedBoard(clock)
    board.arrange({8})
    backend = open_backend("sim", board=board)
    events: queue.Queue[object] = queue.Queue()
    backend.start(events, thread=False)  # type: ignore[call-arg]
    try:
        snapshot = events.get_nowait()
        assert snapshot.occupied == {8}  # type: ignore[attr-defined]
        assert snapshot.at == 3.0  # type: ignore[attr-defined]
    finally:
        backend.stop()


def test_a_configuration_file_path_is_loaded(tmp_path: Path) -> None:
    path = tmp_path / "senet.toml"
    path.write_text(default_config_text().replace("scan_hz = 200", "scan_hz = 150"))
    backend = open_backend("plain", path)
    assert isinstance(backend, PlainBackend)
    assert backend.config.matrix.scan_hz == 150


def test_a_bad_configuration_file_is_a_config_error(tmp_path: Path) -> None:
    path = tmp_path / "senet.toml"
    path.write_text("[hardware]\n")
    with pytest.raises(ConfigError, match=r"hardware\.matrix"):
        open_backend("sim", path)


def test_an_unknown_backend_lists_the_known_ones() -> None:
    with pytest.raises(
        BackendUnavailable, match=r"no hardware backend 'usb'.*gpio, plain, serial, sim"
    ):
        open_backend("usb")


def test_the_serial_backend_says_what_is_missing_until_it_exists(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(backends, "SERIAL_MODULE", "firmware_bridge.no_such_module")
    with pytest.raises(BackendUnavailable, match="serial backend is not installed"):
        open_backend("serial:/dev/ttyACM0")


def test_arguments_are_refused_where_none_is_expected() -> None:
    with pytest.raises(BackendUnavailable, match="takes no argument"):
        open_backend("sim:fast")


def test_the_gpio_backend_refuses_a_simulated_board() -> None:
    with pytest.raises(BackendUnavailable, match="cannot take a simulated board"):
        open_backend("gpio", board=SimulatedBoard())


def test_registered_backends_get_the_argument_config_board_and_clock(
    restore_registry: None,
) -> None:
    calls = []

    def factory(argument: str, config: HardwareConfig, board: object, clock: object) -> Backend:
        calls.append((argument, config, board, clock))
        return PlainBackend(config, SimulatedBoard())

    register_backend("serial", factory)
    board = SimulatedBoard()
    backend = open_backend("serial:loop://", board=board)
    assert isinstance(backend, PlainBackend)
    argument, config, got_board, clock = calls[0]
    assert argument == "loop://"
    assert isinstance(config, HardwareConfig)
    assert got_board is board
    assert clock is board.clock


def test_backend_names_are_plain_words() -> None:
    with pytest.raises(ValueError):
        register_backend("serial:x", lambda *a: None)  # type: ignore[arg-type,return-value]
