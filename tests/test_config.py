"""Loading and validating the [hardware] configuration; writing calibrated thresholds back."""

from __future__ import annotations

from pathlib import Path

import pytest

from hardware.config import (
    default_config_text,
    load_config,
    parse_config,
    write_stick_thresholds,
)
from hardware.errors import ConfigError, HardwareError

DEFAULT = default_config_text()


def line_of(text: str, fragment: str) -> int:
    for number, line in enumerate(text.splitlines(), start=1):
        if fragment in line:
            return number
    raise AssertionError(f"{fragment!r} not in the text")


def error_for(text: str) -> ConfigError:
    with pytest.raises(ConfigError) as info:
        parse_config(text, source="senet.toml")
    return info.value


def test_the_default_configuration_is_valid() -> None:
    config = load_config()
    assert config.matrix.rows == (5, 6, 13)
    assert len(config.matrix.columns) == 10
    assert sorted(config.matrix.keys) == list(range(1, 31))
    assert config.matrix.key_of(1) == (0, 0)
    assert config.matrix.key_of(11) == (1, 9)  # the middle row runs right to left
    assert config.matrix.key_of(30) == (2, 9)
    assert [s.kind for s in config.sticks] == ["tilt"] * 4
    assert config.throw.settle_ms == 400
    assert config.throw.button == 3
    assert config.squares == "presence"
    assert config.mcp3008 is None


def test_config_errors_are_value_errors_of_the_hardware_tree() -> None:
    assert issubclass(ConfigError, HardwareError)
    assert issubclass(ConfigError, ValueError)


def test_tables_owned_by_others_are_ignored() -> None:
    text = DEFAULT + '\n[web]\nport = 8080\nwhatever = "x"\n\n[serial]\nport = "/dev/ttyACM0"\n'
    assert parse_config(text).matrix.scan_hz == 200


def test_unknown_key_names_its_line() -> None:
    text = DEFAULT.replace("scan_hz = 200", "scan_hz = 200\nscan_speed = 5")
    error = error_for(text)
    assert error.line == line_of(text, "scan_speed")
    assert "unknown key 'scan_speed' in [hardware.matrix]" in str(error)
    assert str(error).startswith(f"senet.toml, line {error.line}: ")


def test_unknown_key_in_a_stick_table_names_its_line() -> None:
    text = DEFAULT.replace("pin = 22\n", "pin = 22\ncolour = 'red'\n")
    error = error_for(text)
    assert error.line == line_of(text, "colour")


def test_a_pin_used_twice_is_named() -> None:
    text = DEFAULT.replace("pin = 27", "pin = 12")
    error = error_for(text)
    assert "GPIO 12 is used twice: by matrix column 1 and by stick 2" in str(error)
    assert error.line == line_of(text, "pin = 12")


def test_a_pin_that_does_not_exist_is_named() -> None:
    text = DEFAULT.replace("rows = [5, 6, 13]", "rows = [5, 6, 40]")
    error = error_for(text)
    assert "GPIO 40 does not exist" in str(error)
    assert "2 to 27" in str(error)
    assert error.line == line_of(text, "rows = [5, 6, 40]")


def test_a_pin_that_is_not_a_number() -> None:
    error = error_for(DEFAULT.replace("button = 3", 'button = "GPIO3"'))
    assert "button must be a BCM GPIO number" in str(error)


def test_a_geometry_too_small_for_30_squares() -> None:
    text = DEFAULT.replace(
        "columns = [12, 16, 19, 20, 21, 26, 18, 25, 24, 23]",
        "columns = [12, 16, 19, 20, 21, 26, 18, 25, 24]",
    )
    error = error_for(text)
    assert "3 rows x 9 columns give 27 switches" in str(error)
    assert error.line == line_of(text, "columns = ")


def test_a_layout_that_misses_squares() -> None:
    text = DEFAULT.replace(
        "[21, 22, 23, 24, 25, 26, 27, 28, 29, 30]", "[21, 22, 23, 24, 25, 26, 27, 28, 29, 0]"
    )
    error = error_for(text)
    assert "does not cover all 30 squares; missing: 30" in str(error)
    assert error.line == line_of(text, "layout = [")


def test_a_layout_with_a_square_twice() -> None:
    text = DEFAULT.replace(
        "[21, 22, 23, 24, 25, 26, 27, 28, 29, 30]", "[21, 22, 23, 24, 25, 26, 27, 28, 29, 1]"
    )
    assert "square 1 appears twice" in str(error_for(text))


def test_a_layout_row_of_the_wrong_length() -> None:
    text = DEFAULT.replace("[21, 22, 23, 24, 25, 26, 27, 28, 29, 30]", "[21, 22, 23]")
    assert "layout row 3 must list 10 squares" in str(error_for(text))


def test_a_five_by_six_matrix_without_layout_numbers_squares_in_order() -> None:
    start = DEFAULT.index("[hardware.matrix]")
    end = DEFAULT.index("[hardware.throw]")
    matrix = "[hardware.matrix]\nrows = [5, 6, 13, 19, 26]\ncolumns = [12, 16, 20, 21, 18, 25]\n\n"
    config = parse_config(DEFAULT[:start] + matrix + DEFAULT[end:])
    assert config.matrix.key_of(1) == (0, 0)
    assert config.matrix.key_of(7) == (1, 0)
    assert config.matrix.key_of(30) == (4, 5)


def test_scan_rate_must_be_at_least_100_hz() -> None:
    error = error_for(DEFAULT.replace("scan_hz = 200", "scan_hz = 50"))
    assert "scan_hz must be between 100 and 2000, got 50" in str(error)


def test_settle_and_motion_times_must_make_sense() -> None:
    text = DEFAULT.replace("max_motion_ms = 5000", "max_motion_ms = 300")
    assert "max_motion_ms must be longer than settle_ms" in str(error_for(text))


def test_four_sticks_are_required() -> None:
    text = DEFAULT[: DEFAULT.rindex("[[hardware.stick]]")]
    error = error_for(text)
    assert "four [[hardware.stick]] tables" in str(error)


def test_stick_kind_must_be_known() -> None:
    error = error_for(DEFAULT.replace('kind = "tilt"\npin = 27', 'kind = "magnet"\npin = 27', 1))
    assert "kind must be one of 'tilt', 'light', 'analog', got 'magnet'" in str(error)


def analog_config() -> str:
    """The default file with stick 2 on MCP3008 channel 5 instead of a pin."""
    return DEFAULT.replace(
        'kind = "tilt"\npin = 27\nlight_level = "low"',
        '# the second stick has an analogue sensor\nkind = "analog"\nchannel = 5',
    )


def test_an_analog_stick_uses_the_mcp3008_on_default_spi_pins() -> None:
    config = parse_config(analog_config())
    assert config.sticks[1].kind == "analog"
    assert config.sticks[1].channel == 5
    assert config.sticks[1].light_level == "high"
    assert config.mcp3008 is not None and config.mcp3008.pins == (11, 10, 9, 8)


def test_an_analog_stick_needs_a_channel() -> None:
    text = analog_config().replace("channel = 5", "")
    assert "give its MCP3008 channel" in str(error_for(text))


def test_mcp3008_pins_clash_with_other_pins() -> None:
    text = analog_config() + "\n[hardware.mcp3008]\nclock = 17\n"
    error = error_for(text)
    assert "GPIO 17 is used twice: by stick 1 and by the MCP3008 clock pin" in str(error)


def test_invalid_toml_is_reported_with_its_position() -> None:
    error = error_for(DEFAULT.replace("scan_hz = 200", "scan_hz = = 200"))
    assert "not valid TOML" in str(error)
    assert "line" in str(error)


def test_a_missing_hardware_table() -> None:
    assert "no [hardware] table" in str(error_for("[web]\nport = 1\n"))


def test_a_missing_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(tmp_path / "nope.toml")


def test_calibration_writes_thresholds_and_keeps_comments(tmp_path: Path) -> None:
    path = tmp_path / "senet.toml"
    path.write_text(analog_config() + "\n[web]\nport = 8080\n", encoding="utf-8")
    write_stick_thresholds(path, {1: (0.4321, 0.1, "low")})
    text = path.read_text(encoding="utf-8")
    assert "# the second stick has an analogue sensor" in text
    assert "[web]\nport = 8080" in text
    config = load_config(path)
    assert config.sticks[1].threshold == pytest.approx(0.4321)
    assert config.sticks[1].hysteresis == pytest.approx(0.1)
    assert config.sticks[1].light_level == "low"
    assert not list(tmp_path.glob("*.new"))


def test_sticks_must_be_tables() -> None:
    text = DEFAULT[: DEFAULT.index("[[hardware.stick]]")].replace(
        'squares = "presence"', 'squares = "presence"\nstick = [1, 2, 3, 4]'
    )
    error = error_for(text)
    assert "each stick is a [[hardware.stick]] table" in str(error)
