"""``senet-companion hardware``: the self-test, calibration and the default configuration."""

from __future__ import annotations

import argparse
import io
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.commands import hardware as command
from companion.commands.hardware import run_check
from hardware.check import describe_event, render_board, render_report
from hardware.config import default_config_text, load_config, parse_config
from hardware.events import HardwareFault, SquareChanged, ThrowSettled

ANALOG = default_config_text()
for _pin, _channel in ((17, 0), (27, 1), (22, 2), (4, 3)):
    ANALOG = ANALOG.replace(
        f'kind = "tilt"\npin = {_pin}\nlight_level = "low"',
        f'kind = "analog"  # stick {_channel + 1}\nchannel = {_channel}',
    )


def test_check_prints_the_board_the_sticks_and_the_scan_rate(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = main(["hardware", "check", "--hardware", "sim", "--once", "--demo"])
    out = capsys.readouterr().out
    assert status == 0
    assert "[##] " * 9 + "[##]" in out  # squares 1..10 hold the starting pieces
    assert "[20] [19] [18]" in out
    assert "stick 1 (tilt, pin 17): dark face up" in out
    assert "throw button (pin 3): released" in out
    assert "Scan rate:" in out and "Faults: none" in out
    assert "board at start: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10" in out


def test_check_redraws_on_a_terminal_until_the_time_is_up() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    out = Terminal()
    args = argparse.Namespace(hardware="plain", config=None, once=False, seconds=0.0, demo=False)
    assert run_check(args, out) == 0
    assert out.getvalue().startswith("\x1b[H\x1b[2J")
    assert "(Ctrl-C to stop)" in out.getvalue()


def test_check_exits_1_when_a_fault_is_found(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "senet.toml"
    path.write_text(ANALOG)
    real_open = command._open

    def open_with_unplugged_stick(args: argparse.Namespace) -> tuple[Any, Any]:
        config, backend = real_open(args)
        backend.board.unplug_stick(2)  # an unplugged analogue sensor reads full scale
        return config, backend

    monkeypatch.setattr(command, "_open", open_with_unplugged_stick)
    args = argparse.Namespace(hardware="sim", config=str(path), once=True, seconds=None, demo=False)
    assert run_check(args) == 1
    out = capsys.readouterr().out
    assert "stick 3 (analog, MCP3008 channel 2): NO SENSIBLE READING, reads 1.000" in out
    assert "sensor-range: stick sensor 3 reads a value no stick can give" in out


def test_check_with_a_bad_configuration_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "senet.toml"
    path.write_text(default_config_text().replace("rows = [5, 6, 13]", "rows = [5, 6, 5]"))
    assert main(["hardware", "check", "--hardware", "sim", "--config", str(path)]) == 2
    err = capsys.readouterr().err
    assert "GPIO 5 is used twice" in err
    assert "Traceback" not in err


def test_demo_needs_a_simulated_board(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hardware", "check", "--hardware", "gpio", "--demo"]) == 2
    assert "--demo needs a simulated board" in capsys.readouterr().err


def test_calibration_writes_thresholds_into_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "senet.toml"
    path.write_text(ANALOG + "\n[web]\nport = 8080\n")
    status = main(
        ["hardware", "calibrate", "--hardware", "sim", "--config", str(path), "--samples", "3"]
    )
    out = capsys.readouterr().out
    assert status == 0, out
    assert "stick 4: threshold 0.500, hysteresis 0.150, light face reads high" in out
    config = load_config(path)
    assert [s.threshold for s in config.sticks] == pytest.approx([0.5] * 4, abs=0.002)
    text = path.read_text()
    assert "# stick 2" in text and "[web]" in text


def test_calibration_needs_a_file_and_analogue_sticks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["hardware", "calibrate", "--hardware", "sim"]) == 2
    assert "give --config FILE" in capsys.readouterr().err
    path = tmp_path / "senet.toml"
    path.write_text(default_config_text())
    assert main(["hardware", "calibrate", "--hardware", "sim", "--config", str(path)]) == 2
    assert "no stick is an analog sensor" in capsys.readouterr().err
    assert path.read_text() == default_config_text()


def test_default_config_is_printed_and_valid(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hardware", "default-config"]) == 0
    assert parse_config(capsys.readouterr().out).matrix.rows == (5, 6, 13)


def test_the_board_is_drawn_as_the_players_see_it() -> None:
    lines = render_board({1, 11, 30})
    assert lines[0].startswith("[##] [ 2]")
    assert lines[1].endswith("[12] [##]")
    assert lines[2].endswith("[##]")


def test_events_are_described_in_words() -> None:
    assert describe_event(SquareChanged(4, True)) == "square 4: piece placed"
    assert describe_event(ThrowSettled((1, 0, 0, 1))) == "sticks settled: light dark dark light"
    fault = HardwareFault("phantom-squares", "check the diodes")
    assert describe_event(fault) == "FAULT phantom-squares: check the diodes"


def test_a_slow_scan_is_flagged() -> None:
    config = load_config()
    status = {
        "backend": "gpio",
        "closed": [],
        "sticks": [0, 0, 0, 0],
        "moving": False,
        "throw_button": False,
        "scans": 50,
        "scan_hz": 60.0,
        "faults": [],
    }
    assert "(below 100 Hz!)" in render_report(status, config)
