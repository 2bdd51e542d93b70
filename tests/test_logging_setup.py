import io
import logging
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.logging_setup import (
    JournalFormatter,
    configure_logging,
    level_from_config,
    parse_level,
    stream_is_journal,
)


@pytest.fixture(autouse=True)
def restore_root_logger() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    for handler in list(root.handlers):
        if handler not in handlers:
            root.removeHandler(handler)
    root.setLevel(level)
    logging.captureWarnings(False)


def _record(level: int, message: str) -> logging.LogRecord:
    return logging.LogRecord("companion.loop", level, __file__, 1, message, None, None)


@pytest.mark.parametrize(
    ("text", "level"),
    [("debug", logging.DEBUG), ("INFO", logging.INFO), (" warn ", logging.WARNING), (40, 40)],
)
def test_levels_are_read_by_name_or_number(text: str | int, level: int) -> None:
    assert parse_level(text) == level


def test_an_unknown_level_names_the_choices() -> None:
    with pytest.raises(ValueError, match="choose one of DEBUG, INFO"):
        parse_level("loud")


def test_journal_lines_carry_the_syslog_priority() -> None:
    formatter = JournalFormatter()
    assert formatter.format(_record(logging.WARNING, "stick 3 unsettled")) == (
        "<4>companion.loop: stick 3 unsettled"
    )
    assert formatter.format(_record(logging.ERROR, "a\nb")) == ("<3>companion.loop: a\n<3>b")
    assert formatter.format(_record(logging.DEBUG, "x")).startswith("<7>")
    assert formatter.format(_record(logging.CRITICAL, "x")).startswith("<2>")


def test_the_journal_stream_is_recognised_by_device_and_inode(tmp_path: Path) -> None:
    with open(tmp_path / "stream", "w") as stream:
        stat = os.fstat(stream.fileno())
        env = {"JOURNAL_STREAM": f"{stat.st_dev}:{stat.st_ino}"}
        assert stream_is_journal(stream, env)
        assert not stream_is_journal(stream, {"JOURNAL_STREAM": f"{stat.st_dev}:1"})
        assert not stream_is_journal(stream, {"JOURNAL_STREAM": "garbage"})
        assert not stream_is_journal(stream, {})
    assert not stream_is_journal(io.StringIO(), env)


def test_under_the_journal_lines_are_prefixed(tmp_path: Path) -> None:
    with open(tmp_path / "stream", "w+") as stream:
        stat = os.fstat(stream.fileno())
        configure_logging(stream=stream, environ={"JOURNAL_STREAM": f"{stat.st_dev}:{stat.st_ino}"})
        logging.getLogger("companion.web").warning("phone left")
        stream.seek(0)
        assert stream.read() == "<4>companion.web: phone left\n"


def test_by_hand_lines_carry_time_and_level() -> None:
    out = io.StringIO()
    configure_logging("debug", stream=out, environ={})
    logging.getLogger("companion.web").debug("hello")
    line = out.getvalue()
    assert line.endswith(" DEBUG   companion.web: hello\n")
    assert line[:4].isdigit()


def test_environment_overrides_configuration() -> None:
    out = io.StringIO()
    configure_logging("ERROR", stream=out, environ={"SENET_LOG_LEVEL": "info"})
    assert logging.getLogger().level == logging.INFO


def test_a_bad_level_falls_back_and_says_so() -> None:
    out = io.StringIO()
    configure_logging("chatty", stream=out, environ={})
    assert logging.getLogger().level == logging.INFO
    assert "ignoring log level from configuration: unknown log level 'chatty'" in out.getvalue()


def test_configuring_twice_keeps_one_handler() -> None:
    first, second = io.StringIO(), io.StringIO()
    configure_logging(stream=first, environ={})
    configure_logging(stream=second, environ={})
    logging.getLogger("companion").info("once")
    assert first.getvalue() == ""
    assert second.getvalue().count("once") == 1


def test_library_warnings_reach_the_log() -> None:
    import warnings

    out = io.StringIO()
    configure_logging(stream=out, environ={})
    warnings.warn("Falling back from lgpio", UserWarning, stacklevel=1)
    assert "Falling back from lgpio" in out.getvalue()


def test_the_level_is_read_from_the_configuration_file(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[web]\npin = "2468"\n[logging]\nlevel = "debug"\n')
    assert level_from_config(config) == "debug"
    config.write_text("[logging\n")
    assert level_from_config(config) is None
    config.write_text("[logging]\nlevel = true\n")
    assert level_from_config(config) is None
    assert level_from_config(tmp_path / "missing.toml") is None
    assert level_from_config(None) is None
