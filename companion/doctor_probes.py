"""What ``senet-companion doctor`` asks of the machine, each question one small replaceable probe.

The checks in :mod:`companion.doctor` never look at the machine themselves: they call these
probes, and the tests hand them stand-ins that simulate each failure (no Raspberry Pi, a GPIO
chip the user may not open, a busy port, a missing board...).
"""

from __future__ import annotations

import errno
import getpass
import importlib
import os
import shutil
import socket
import subprocess
import sys
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from companion.locations import DEPLOYMENT_FILE

__all__ = ["PortInfo", "Probes", "SerialPort"]

DEVICE_TREE_MODELS = (
    Path("/proc/device-tree/model"),
    Path("/sys/firmware/devicetree/base/model"),
)
SERVICE_NAME = "senet-companion"
DEFAULT_PIN_FACTORIES = ("lgpio", "rpigpio", "pigpio", "native")


class SerialPort(Protocol):
    """The parts of pyserial's ``ListPortInfo`` the doctor reads."""

    device: str
    vid: int | None
    pid: int | None
    description: str


@dataclass(frozen=True, slots=True)
class PortInfo:
    """A serial port as a test describes it (pyserial's ``ListPortInfo`` in real use)."""

    device: str
    vid: int | None = None
    pid: int | None = None
    description: str = ""


def board_model() -> str | None:
    """The device-tree model string ("Raspberry Pi 4 Model B Rev 1.4"), None off a Pi."""
    for path in DEVICE_TREE_MODELS:
        try:
            return path.read_bytes().rstrip(b"\0\n").decode(errors="replace")
        except OSError:
            continue
    return None


def gpio_chips() -> list[Path]:
    return sorted(Path("/dev").glob("gpiochip*"))


def load_pin_factory(name: str) -> str:
    """Open and close a gpiozero pin factory; returns its name, raises why it cannot be used.

    ``name`` "" tries gpiozero's own order (lgpio first), as the service does.
    """
    from importlib.metadata import entry_points

    found = {ep.name: ep for ep in entry_points(group="gpiozero_pin_factories")}
    names = [name] if name else list(DEFAULT_PIN_FACTORIES)
    reasons = []
    for candidate in names:
        ep = found.get(candidate)
        if ep is None:
            reasons.append(f"{candidate}: gpiozero knows no such pin library")
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                factory = ep.load()()
        except Exception as exc:
            reasons.append(f"{candidate}: {exc}")
            continue
        factory.close()
        return candidate
    raise RuntimeError("; ".join(reasons))


def serial_ports() -> list[SerialPort]:
    from serial.tools.list_ports import comports

    return list(comports())


def bind(host: str, port: int) -> None:
    """Bind (and release) a TCP socket as the web server would; raises OSError if it cannot."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        # As the server does: a connection still in TIME_WAIT must not count as "in use".
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(1)


def service_active() -> bool:
    """True when systemd says the senet-companion service is running."""
    systemctl = shutil.which("systemctl")
    if systemctl is None:
        return False
    try:
        result = subprocess.run(
            [systemctl, "is-active", "--quiet", SERVICE_NAME], check=False, timeout=10
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return result.returncode == 0


def avahi_running() -> bool:
    """True when avahi-daemon (which answers for NAME.local) is running."""
    pid_file = Path("/run/avahi-daemon/pid")
    try:
        pid = int(pid_file.read_text().strip())
        os.kill(pid, 0)
    except (OSError, ValueError):
        return False
    return True


def disk_free(path: Path) -> int:
    return shutil.disk_usage(path).free


def can_write_in(directory: Path) -> None:
    """Create and remove a file in ``directory``; raises OSError if that is not possible."""
    probe = directory / f".senet-doctor-{os.getpid()}"
    fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.close(fd)
    os.unlink(probe)


def user_name() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return str(os.getuid())


def import_attribute(module: str, name: str) -> Any:
    """``module.name``, or None when that part of the product is not installed."""
    try:
        return getattr(importlib.import_module(module), name, None)
    except ImportError as exc:
        if exc.name is not None and module.startswith(exc.name):
            return None
        raise


@dataclass(frozen=True)
class Probes:
    """Every question the doctor asks the machine; the tests replace the ones they simulate."""

    python_version: tuple[int, int, int] = tuple(sys.version_info[:3])  # type: ignore[assignment]
    board_model: Callable[[], str | None] = board_model
    gpio_chips: Callable[[], Sequence[Path]] = gpio_chips
    can_access: Callable[[Path, int], bool] = os.access
    load_pin_factory: Callable[[str], str] = load_pin_factory
    serial_ports: Callable[[], Sequence[SerialPort]] = serial_ports
    bind: Callable[[str, int], None] = bind
    service_active: Callable[[], bool] = service_active
    hostname: Callable[[], str] = socket.gethostname
    avahi_running: Callable[[], bool] = avahi_running
    disk_free: Callable[[Path], int] = disk_free
    can_write_in: Callable[[Path], None] = can_write_in
    user_name: Callable[[], str] = user_name
    working_directory: Callable[[], Path] = Path.cwd
    environ: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    deployment_file: Path = DEPLOYMENT_FILE
    import_attribute: Callable[[str, str], Any] = import_attribute


def describe_os_error(exc: OSError) -> str:
    """``exc``'s reason in words, without the "[Errno 13]" clutter."""
    if exc.errno is not None and exc.strerror:
        return f"{exc.strerror} ({errno.errorcode.get(exc.errno, exc.errno)})"
    return str(exc)
