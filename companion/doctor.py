"""``senet-companion doctor``: is this machine ready to run the board, and if not, what to do.

Each check returns a :class:`Finding`: OK, WARN (works, but not as a museum would want) or
FAIL (the service will not work), with a sentence saying what was seen and, when it is not OK,
one saying how to fix it. The checks read the machine only through :class:`Probes`, so every
failure can be simulated.

Besides the configuration file, the doctor reads the deployment's choices where the service's
unit reads them, ``/etc/default/senet-companion``: ``SENET_HARDWARE`` (the backend: ``gpio``,
``serial``, ``serial:PORT``, ``sim``), ``SENET_HOST`` and ``SENET_PORT`` (where the page
listens). A missing Raspberry Pi is a failure for ``gpio`` but only a warning when the backend
is not known.
"""

from __future__ import annotations

import enum
import errno
import os
import socket
import sqlite3
import textwrap
import tomllib
from collections.abc import Callable, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.doctor_probes import Probes, describe_os_error
from companion.locations import DEFAULT_CONFIG, journal_path
from companion.logging_setup import parse_level

__all__ = [
    "DEFAULT_CONFIG",
    "Choices",
    "Finding",
    "Settings",
    "Status",
    "exit_status",
    "format_report",
    "load_settings",
    "read_deployment",
    "run_checks",
]

DEFAULT_WEB_HOST = "0.0.0.0"
DEFAULT_WEB_PORT = 80
BOARD_VID, BOARD_PID = 0x2E8A, 0x0005  # a Raspberry Pi Pico running MicroPython
MINIMUM_PYTHON = (3, 11)
LOW_DISK_BYTES = 100 * 1024 * 1024
NETWORK_NAME = "senet"
INSTALL_DOC = "docs/install-pi.md"


class Status(enum.Enum):
    OK = "OK"
    WARN = "WARN"
    FAIL = "FAIL"


@dataclass(frozen=True, slots=True)
class Finding:
    """The outcome of one check: ``summary`` says what was seen, ``fix`` what to do about it."""

    check: str
    status: Status
    summary: str
    fix: str = ""

    def as_dict(self) -> dict[str, str]:
        return {
            "check": self.check,
            "status": self.status.value,
            "summary": self.summary,
            "fix": self.fix,
        }


@dataclass(frozen=True, slots=True)
class Settings:
    """What the checks need: from the configuration file, the deployment file and the command
    line, with the installed service's defaults."""

    path: Path | None = None
    data: Mapping[str, Any] = field(default_factory=dict)
    hardware: str | None = None
    web_host: str = DEFAULT_WEB_HOST
    web_port: int = DEFAULT_WEB_PORT
    journal: Path = field(default_factory=journal_path)
    serial_port: str | None = None
    board_ids: tuple[int, int] = (BOARD_VID, BOARD_PID)
    pin_factory: str = ""


# A validator reads the parsed file and raises ValueError naming what is wrong. The hardware
# and serial parts of the product validate their own tables; the doctor borrows their readers.
Validator = Callable[[str, Mapping[str, Any], str, Probes], None]


def _validate_hardware(text: str, data: Mapping[str, Any], source: str, probes: Probes) -> None:
    parse = probes.import_attribute("hardware.config", "parse_config")
    if parse is not None:
        parse(text, source)


def _validate_serial(text: str, data: Mapping[str, Any], source: str, probes: Probes) -> None:
    config_class = probes.import_attribute("firmware_bridge.config", "SerialConfig")
    if config_class is not None and "serial" in data:
        config_class.from_table(data["serial"])


def _validate_web(text: str, data: Mapping[str, Any], source: str, probes: Probes) -> None:
    config_class = probes.import_attribute("companion.web.config", "WebConfig")
    if config_class is not None and "web" in data:
        config_class.from_mapping(_table(data, "web"))


def _validate_logging(text: str, data: Mapping[str, Any], source: str, probes: Probes) -> None:
    logging_table = _table(data, "logging")
    if "level" in logging_table:
        parse_level(logging_table["level"])


VALIDATORS: tuple[Validator, ...] = (
    _validate_hardware,
    _validate_serial,
    _validate_web,
    _validate_logging,
)


def _table(data: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    value = data.get(name, {})
    if not isinstance(value, Mapping):
        raise ValueError(f"{name} must be a table ([{name}]), got {value!r}")
    return value


def _usb_id(value: object, default: int) -> int:
    if isinstance(value, str):
        try:
            return int(value, 16)
        except ValueError:
            return default
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def read_deployment(path: Path) -> dict[str, str]:
    """The ``KEY=VALUE`` lines of a systemd environment file; {} when there is none."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return {}
    values = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;" or "=" not in line:
            continue
        key, _, value = line.partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        values[key.strip()] = value
    return values


@dataclass(frozen=True, slots=True)
class Choices:
    """What the command line says, overriding the deployment file."""

    hardware: str | None = None
    host: str | None = None
    port: int | None = None
    journal: Path | None = None


def _settings_from(
    path: Path | None, data: Mapping[str, Any], probes: Probes, choices: Choices
) -> Settings:
    """Read what the checks use, leniently: a wrong value was already reported by validation."""
    environ = probes.environ
    deployment = read_deployment(probes.deployment_file)

    def table(name: str) -> Mapping[str, Any]:
        value = data.get(name)
        return value if isinstance(value, Mapping) else {}

    serial, hardware = table("serial"), table("hardware")
    try:
        port = int(deployment.get("SENET_PORT", DEFAULT_WEB_PORT))
    except ValueError:
        port = DEFAULT_WEB_PORT
    port = choices.port or port
    serial_port = serial.get("port")
    return Settings(
        path=path,
        data=data,
        hardware=choices.hardware or deployment.get("SENET_HARDWARE") or None,
        web_host=choices.host or deployment.get("SENET_HOST") or DEFAULT_WEB_HOST,
        web_port=port if 1 <= port <= 65535 else DEFAULT_WEB_PORT,
        journal=choices.journal or journal_path(environ),
        serial_port=serial_port if isinstance(serial_port, str) and serial_port else None,
        board_ids=(_usb_id(serial.get("vid"), BOARD_VID), _usb_id(serial.get("pid"), BOARD_PID)),
        pin_factory=hardware["pin_factory"] if isinstance(hardware.get("pin_factory"), str) else "",
    )


def load_settings(
    path: Path | None,
    probes: Probes,
    choices: Choices | None = None,
    validators: Sequence[Validator] = VALIDATORS,
) -> tuple[Settings, Finding]:
    """Read and validate the configuration file; the finding says whether it is usable."""
    name = "configuration"
    example = "deploy/config.example.toml"
    choices = Choices() if choices is None else choices

    def settings(data: Mapping[str, Any]) -> Settings:
        return _settings_from(path, data, probes, choices)

    if path is None:
        if not DEFAULT_CONFIG.exists():
            return settings({}), Finding(
                name,
                Status.WARN,
                f"no configuration file at {DEFAULT_CONFIG}: the built-in defaults are used",
                f"sudo install -D -m 644 {example} {DEFAULT_CONFIG}, then edit it "
                "(deploy/install.sh does this), or give --config FILE",
            )
        path = DEFAULT_CONFIG
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return settings({}), Finding(
            name, Status.FAIL, f"{path} does not exist", f"check the path, or copy {example} there"
        )
    except PermissionError:
        return settings({}), Finding(
            name,
            Status.FAIL,
            f"{probes.user_name()} may not read {path}",
            f"sudo chgrp senet {path} && sudo chmod 640 {path} (it may hold the PIN)",
        )
    except (OSError, UnicodeDecodeError) as exc:
        return settings({}), Finding(
            name, Status.FAIL, f"{path} cannot be read: {exc}", "save it again as UTF-8 text"
        )
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return settings({}), Finding(
            name,
            Status.FAIL,
            f"{path} is not valid TOML: {exc}",
            "correct the line named (quotes around text, [table] headers, key = value)",
        )
    problems = []
    for validate in validators:
        try:
            validate(text, data, str(path), probes)
        except ValueError as exc:
            problems.append(str(exc))
    if problems:
        return settings(data), Finding(
            name,
            Status.FAIL,
            f"{path}: " + "; ".join(problems),
            f"edit {path} as the message says; {example} shows every table",
        )
    return settings(data), Finding(name, Status.OK, f"{path} is valid")


def check_python(settings: Settings, probes: Probes) -> Finding:
    version = ".".join(str(n) for n in probes.python_version)
    if tuple(probes.python_version[:2]) < MINIMUM_PYTHON:
        return Finding(
            "python",
            Status.FAIL,
            f"Python {version} is too old: the companion needs 3.11 or newer",
            "use Raspberry Pi OS Bookworm (Python 3.11) or newer, and reinstall",
        )
    return Finding("python", Status.OK, f"Python {version}")


def check_gpio(settings: Settings, probes: Probes) -> Finding:
    name = "gpio"
    hardware = settings.hardware
    needed = hardware is None or hardware == "gpio"
    if not needed or settings.pin_factory == "mock":
        return Finding(name, Status.OK, f"not used by the {hardware or 'mock'} backend")
    model = probes.board_model()
    if model is None or "Raspberry Pi" not in model:
        return Finding(
            name,
            Status.FAIL if hardware == "gpio" else Status.WARN,
            "this machine is not a Raspberry Pi (no Raspberry Pi model in the device tree): "
            "its pins cannot read the board",
            "run the companion on the Raspberry Pi under the board, or use the simulated board "
            "(--hardware sim) or the serial bridge (--hardware serial)",
        )
    chips = list(probes.gpio_chips())
    if not chips:
        return Finding(
            name,
            Status.FAIL,
            f"{model}, but there is no /dev/gpiochip device",
            "sudo apt full-upgrade and reboot: the GPIO device comes with the current kernel",
        )
    user = probes.user_name()
    closed = [str(chip) for chip in chips if not probes.can_access(chip, os.R_OK | os.W_OK)]
    if len(closed) == len(chips):
        return Finding(
            name,
            Status.FAIL,
            f"{user} may not open {', '.join(closed)}",
            f"sudo usermod -aG gpio {user}, then log out and in (the service's unit already "
            "adds the gpio group)",
        )
    try:
        library = probes.load_pin_factory(settings.pin_factory)
    except Exception as exc:
        return Finding(
            name,
            Status.FAIL,
            f"gpiozero cannot use a pin library: {exc}",
            "sudo apt install python3-lgpio, and make the virtual environment with "
            "--system-site-packages so it sees it (deploy/install.sh does both)",
        )
    if library == "lgpio":
        workdir = Path(probes.environ.get("LG_WD") or probes.working_directory())
        try:
            probes.can_write_in(workdir)
        except OSError as exc:
            return Finding(
                name,
                Status.WARN,
                f"lgpio keeps its notification files in {workdir}, which is not writable "
                f"({describe_os_error(exc)})",
                "set LG_WD to a writable directory (the unit sets LG_WD=/run/senet-companion)",
            )
    return Finding(name, Status.OK, f"{model}: {len(chips)} GPIO chip(s), pin library {library}")


def check_serial(settings: Settings, probes: Probes) -> Finding:
    name = "serial"
    hardware = settings.hardware
    needed = hardware is not None and hardware.split(":", 1)[0] == "serial"
    explicit = hardware.split(":", 1)[1] if needed and hardware and ":" in hardware else None
    wanted = explicit or settings.serial_port
    if hardware is not None and not needed:
        return Finding(name, Status.OK, f"not used by the {hardware} backend")
    if explicit == "sim":
        return Finding(
            name, Status.OK, "a simulated board behind a pseudo-terminal: nothing to find"
        )
    if wanted and "://" in wanted:
        return Finding(name, Status.OK, f"the board is reached at {wanted} (not checked here)")
    ports = list(probes.serial_ports())
    vid, pid = settings.board_ids
    if wanted:
        found = [p for p in ports if p.device == wanted]
        why = f"{wanted} (from the configuration)" if not explicit else wanted
    else:
        found = [p for p in ports if p.vid == vid and p.pid == pid]
        why = f"a USB device {vid:04X}:{pid:04X}"
    if not found:
        present = ", ".join(p.device for p in ports) or "none"
        return Finding(
            name,
            Status.FAIL if needed else Status.WARN,
            f"no board found: looked for {why}; serial ports present: {present}",
            "plug the board's USB cable into the Raspberry Pi and flash its firmware "
            "(firmware_bridge/README.md); without it use --hardware gpio or sim",
        )
    device = found[0].device
    user = probes.user_name()
    if not probes.can_access(Path(device), os.R_OK | os.W_OK):
        return Finding(
            name,
            Status.FAIL if needed else Status.WARN,
            f"board on {device}, but {user} may not open it",
            f"sudo usermod -aG dialout {user}, then log out and in (the service's unit already "
            "adds the dialout group)",
        )
    description = found[0].description or "serial device"
    return Finding(name, Status.OK, f"board on {device} ({description})")


def check_journal(settings: Settings, probes: Probes) -> Finding:
    name = "journal"
    journal = settings.journal
    directory = journal.parent
    user = probes.user_name()
    run_as = f"sudo -u senet senet-companion doctor --config {settings.path or DEFAULT_CONFIG}"
    if not directory.is_dir():
        return Finding(
            name,
            Status.FAIL,
            f"the journal's directory {directory} does not exist",
            f"sudo install -d -o senet -g senet {directory} (the unit's StateDirectory= makes "
            "/var/lib/senet-companion)",
        )
    try:
        probes.can_write_in(directory)
    except OSError as exc:
        return Finding(
            name,
            Status.FAIL,
            f"{user} cannot write in {directory} ({describe_os_error(exc)}): games would not "
            "be saved",
            f"check as the service's user: {run_as}; or sudo chown -R senet: {directory}",
        )
    if journal.exists():
        if not probes.can_access(journal, os.R_OK | os.W_OK):
            return Finding(
                name,
                Status.FAIL,
                f"{user} cannot write {journal}",
                f"sudo chown senet: {journal}*, or check as the service's user: {run_as}",
            )
        damage = _quick_check(journal)
        if damage:
            return Finding(
                name,
                Status.FAIL,
                f"{journal} is damaged: {damage}",
                "sudo systemctl stop senet-companion; move the file (and its -wal and -shm) "
                "aside; start the service again: it makes a new, empty journal",
            )
    free = probes.disk_free(directory)
    if free < LOW_DISK_BYTES:
        return Finding(
            name,
            Status.WARN,
            f"only {free // (1024 * 1024)} MB free beside {journal}",
            "free some space (sudo journalctl --vacuum-size=50M; sudo apt clean)",
        )
    return Finding(name, Status.OK, f"{journal} can be written ({free // (1024 * 1024)} MB free)")


def _quick_check(journal: Path) -> str:
    """SQLite's own consistency check, read-only; "" when the file is sound."""
    try:
        with closing(sqlite3.connect(f"{journal.as_uri()}?mode=ro", uri=True, timeout=5)) as db:
            rows = db.execute("PRAGMA quick_check").fetchall()
    except sqlite3.Error as exc:
        return str(exc)
    result = "; ".join(str(row[0]) for row in rows)
    return "" if result == "ok" else result


def check_port(settings: Settings, probes: Probes) -> Finding:
    name = "port"
    host, port = settings.web_host, settings.web_port
    where = f"port {port} on {host}"
    try:
        probes.bind(host, port)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            if probes.service_active():
                return Finding(name, Status.OK, f"{where} is served by the running service")
            return Finding(
                name,
                Status.FAIL,
                f"{where} is in use by another program",
                f"find it with: sudo ss -ltnp 'sport = :{port}'; stop it, or choose another "
                "[web] port",
            )
        if exc.errno == errno.EACCES and port < 1024:
            return Finding(
                name,
                Status.WARN,
                f"{probes.user_name()} may not open {where}: ports below 1024 need a "
                "privilege that only the service gets (its unit grants CAP_NET_BIND_SERVICE)",
                "run the doctor with sudo to check the port itself, or use [web] port = 8000",
            )
        if isinstance(exc, socket.gaierror) or exc.errno in (
            errno.EADDRNOTAVAIL,
            errno.EAFNOSUPPORT,
        ):
            return Finding(
                name,
                Status.FAIL,
                f"{host} is not an address of this machine",
                'set [web] host = "0.0.0.0" to listen on every network',
            )
        return Finding(name, Status.FAIL, f"{where} cannot be opened: {describe_os_error(exc)}", "")
    return Finding(name, Status.OK, f"{where} is free")


def check_network_name(settings: Settings, probes: Probes) -> Finding:
    name = "network name"
    host = probes.hostname().split(".")[0]
    if not probes.avahi_running():
        return Finding(
            name,
            Status.WARN,
            f"avahi-daemon is not running: phones cannot find {host}.local",
            "sudo apt install avahi-daemon && sudo systemctl enable --now avahi-daemon",
        )
    if host != NETWORK_NAME:
        return Finding(
            name,
            Status.WARN,
            f"this machine is called {host}: phones reach it as {host}.local, not "
            f"{NETWORK_NAME}.local",
            f"sudo hostnamectl set-hostname {NETWORK_NAME}, then reboot (or keep the name and "
            f"use {host}.local)",
        )
    return Finding(name, Status.OK, f"phones reach this machine as {NETWORK_NAME}.local")


Check = Callable[[Settings, Probes], Finding]
CHECKS: tuple[Check, ...] = (
    check_python,
    check_gpio,
    check_serial,
    check_journal,
    check_port,
    check_network_name,
)


def run_checks(
    config: Path | None,
    probes: Probes | None = None,
    choices: Choices | None = None,
    checks: Sequence[Check] = CHECKS,
    validators: Sequence[Validator] = VALIDATORS,
) -> list[Finding]:
    """Every finding, the configuration's first; a check that breaks is a FAIL, not a crash."""
    probes = Probes() if probes is None else probes
    settings, config_finding = load_settings(config, probes, choices, validators)
    findings = [config_finding]
    for check in checks:
        try:
            findings.append(check(settings, probes))
        except Exception as exc:
            label = check.__name__.removeprefix("check_").replace("_", " ")
            findings.append(
                Finding(
                    label,
                    Status.FAIL,
                    f"the check itself failed: {type(exc).__name__}: {exc}",
                    "please report this, with the output of senet-companion doctor",
                )
            )
    return findings


def exit_status(findings: Sequence[Finding]) -> int:
    return 1 if any(f.status is Status.FAIL for f in findings) else 0


def _wrap(text: str, columns: int, initial_indent: str, subsequent_indent: str) -> list[str]:
    # Never break inside a path or a command: they are meant to be copied.
    return textwrap.wrap(
        text,
        columns,
        initial_indent=initial_indent,
        subsequent_indent=subsequent_indent,
        break_on_hyphens=False,
        break_long_words=False,
    )


def format_report(findings: Sequence[Finding], columns: int = 100) -> str:
    """The findings as text for a terminal: one block per check, wrapped to ``columns``."""
    width = max(len(f.check) for f in findings)
    indent = " " * (width + 8)
    lines = []
    for f in findings:
        head = f"{f.status.value:<4}  {f.check:<{width}}  "
        lines.extend(_wrap(f.summary, columns, initial_indent=head, subsequent_indent=indent))
        if f.fix and f.status is not Status.OK:
            lines.extend(
                _wrap(
                    f"fix: {f.fix}",
                    columns,
                    initial_indent=indent,
                    subsequent_indent=indent + "     ",
                )
            )
    fails = sum(f.status is Status.FAIL for f in findings)
    warns = sum(f.status is Status.WARN for f in findings)
    if fails:
        lines.append(f"\n{fails} problem(s) stop the companion, {warns} warning(s).")
    elif warns:
        lines.append(f"\nReady, with {warns} warning(s).")
    else:
        lines.append("\nReady.")
    lines.append(f"Installing on a Raspberry Pi: {INSTALL_DOC}")
    return "\n".join(lines)
