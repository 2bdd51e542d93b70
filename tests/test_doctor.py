"""``senet-companion doctor`` against simulated machines: each failure is staged by one probe."""

import errno
import json
import socket
import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from companion import doctor
from companion.cli import main
from companion.doctor import (
    Choices,
    Finding,
    Status,
    exit_status,
    format_report,
    read_deployment,
    run_checks,
)
from companion.doctor_probes import PortInfo, Probes, bind, can_write_in, load_pin_factory

PI = "Raspberry Pi 4 Model B Rev 1.4"
BOARD = PortInfo("/dev/ttyACM0", 0x2E8A, 0x0005, "Board CDC")


def _no_module(module: str, name: str) -> Any:
    return None


@pytest.fixture
def state(tmp_path: Path) -> Path:
    directory = tmp_path / "state"
    directory.mkdir()
    return directory


@pytest.fixture
def config(tmp_path: Path, state: Path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text('[logging]\nlevel = "info"\n')
    return path


@pytest.fixture
def healthy(tmp_path: Path, state: Path) -> Probes:
    """A Raspberry Pi where everything is right."""

    def bind_ok(host: str, port: int) -> None:
        return None

    return Probes(
        python_version=(3, 11, 2),
        board_model=lambda: PI,
        gpio_chips=lambda: [Path("/dev/gpiochip0"), Path("/dev/gpiochip4")],
        can_access=lambda path, mode: True,
        load_pin_factory=lambda name: name or "lgpio",
        serial_ports=lambda: [PortInfo("/dev/ttyAMA0"), BOARD],
        bind=bind_ok,
        service_active=lambda: False,
        hostname=lambda: "senet",
        avahi_running=lambda: True,
        disk_free=lambda path: 8 * 1024**3,
        can_write_in=lambda path: None,
        user_name=lambda: "senet",
        working_directory=lambda: Path("/var/lib/senet-companion"),
        environ={"LG_WD": "/run/senet-companion", "STATE_DIRECTORY": str(state)},
        deployment_file=tmp_path / "no-deployment-file",
        import_attribute=_no_module,
    )


def _by_check(findings: list[Finding]) -> dict[str, Finding]:
    return {f.check: f for f in findings}


def _finding(
    config: Path,
    probes: Probes,
    check: str,
    hardware: str | None = None,
    host: str | None = "127.0.0.1",
    port: int | None = 8080,
) -> Finding:
    findings = run_checks(config, probes, Choices(hardware, host, port))
    return _by_check(findings)[check]


def test_a_healthy_pi_passes_every_check(config: Path, healthy: Probes) -> None:
    findings = run_checks(config, healthy, Choices(hardware="gpio", port=8080))
    assert [f.status for f in findings] == [Status.OK] * 7, format_report(findings)
    assert [f.check for f in findings] == [
        "configuration",
        "python",
        "gpio",
        "serial",
        "journal",
        "port",
        "network name",
    ]
    assert exit_status(findings) == 0
    assert "pin library lgpio" in _by_check(findings)["gpio"].summary


def test_old_python_fails(config: Path, healthy: Probes) -> None:
    found = _finding(config, replace(healthy, python_version=(3, 9, 2)), "python")
    assert found.status is Status.FAIL
    assert "3.9.2 is too old" in found.summary
    assert "Bookworm" in found.fix


# --- GPIO ---------------------------------------------------------------------------------


def test_off_a_pi_the_doctor_says_so_instead_of_crashing(config: Path, healthy: Probes) -> None:
    probes = replace(healthy, board_model=lambda: None, gpio_chips=lambda: [])
    unknown = _finding(config, probes, "gpio")
    assert unknown.status is Status.WARN
    assert "not a Raspberry Pi" in unknown.summary
    assert "--hardware sim" in unknown.fix
    assert _finding(config, probes, "gpio", hardware="gpio").status is Status.FAIL
    assert _finding(config, probes, "gpio", hardware="sim").status is Status.OK


def test_no_gpio_chip_fails(config: Path, healthy: Probes) -> None:
    found = _finding(config, replace(healthy, gpio_chips=lambda: []), "gpio")
    assert found.status is Status.FAIL
    assert "no /dev/gpiochip" in found.summary


def test_a_user_outside_the_gpio_group_is_told_to_join(config: Path, healthy: Probes) -> None:
    def no_gpio(path: Path, mode: int) -> bool:
        return not str(path).startswith("/dev/gpiochip")

    found = _finding(config, replace(healthy, can_access=no_gpio, user_name=lambda: "pi"), "gpio")
    assert found.status is Status.FAIL
    assert "pi may not open /dev/gpiochip0, /dev/gpiochip4" in found.summary
    assert "usermod -aG gpio pi" in found.fix


def test_a_missing_pin_library_points_at_python3_lgpio(config: Path, healthy: Probes) -> None:
    def broken(name: str) -> str:
        raise RuntimeError("lgpio: No module named 'lgpio'")

    found = _finding(config, replace(healthy, load_pin_factory=broken), "gpio")
    assert found.status is Status.FAIL
    assert "No module named 'lgpio'" in found.summary
    assert "python3-lgpio" in found.fix and "--system-site-packages" in found.fix


def test_lgpio_without_a_writable_directory_warns(config: Path, healthy: Probes) -> None:
    def read_only(path: Path) -> None:
        raise PermissionError(errno.EACCES, "Permission denied")

    probes = replace(
        healthy, environ={}, can_write_in=read_only, working_directory=lambda: Path("/")
    )
    found = _finding(config, probes, "gpio")
    assert found.status is Status.WARN
    assert "in /, which is not writable" in found.summary
    assert "LG_WD" in found.fix


def test_the_configured_pin_factory_is_the_one_loaded(
    tmp_path: Path, state: Path, healthy: Probes
) -> None:
    path = tmp_path / "pins.toml"
    path.write_text('[hardware]\npin_factory = "rpigpio"\n')
    asked = []

    def remember(name: str) -> str:
        asked.append(name)
        return name

    found = _finding(path, replace(healthy, load_pin_factory=remember), "gpio")
    assert asked == ["rpigpio"]
    assert found.status is Status.OK


def test_the_real_pin_factory_probe_explains_every_failure() -> None:
    with pytest.raises(RuntimeError, match="nosuch: gpiozero knows no such pin library"):
        load_pin_factory("nosuch")
    assert load_pin_factory("mock") == "mock"


# --- serial board ---------------------------------------------------------------------------


def test_the_board_is_found_by_its_usb_ids(config: Path, healthy: Probes) -> None:
    found = _finding(config, healthy, "serial", hardware="serial")
    assert found.status is Status.OK
    assert found.summary == "board on /dev/ttyACM0 (Board CDC)"


def test_a_missing_board_lists_the_ports_present(config: Path, healthy: Probes) -> None:
    probes = replace(healthy, serial_ports=lambda: [PortInfo("/dev/ttyAMA0")])
    needed = _finding(config, probes, "serial", hardware="serial")
    assert needed.status is Status.FAIL
    assert "2E8A:0005" in needed.summary and "/dev/ttyAMA0" in needed.summary
    assert _finding(config, probes, "serial").status is Status.WARN
    assert _finding(config, probes, "serial", hardware="gpio").status is Status.OK


def test_a_board_the_user_may_not_open_needs_dialout(config: Path, healthy: Probes) -> None:
    def no_tty(path: Path, mode: int) -> bool:
        return not str(path).startswith("/dev/tty")

    found = _finding(config, replace(healthy, can_access=no_tty), "serial", hardware="serial")
    assert found.status is Status.FAIL
    assert "usermod -aG dialout senet" in found.fix


def test_a_port_named_on_the_command_line_is_looked_for(config: Path, healthy: Probes) -> None:
    assert _finding(config, healthy, "serial", "serial:/dev/ttyAMA0").status is Status.OK
    missing = _finding(config, healthy, "serial", "serial:/dev/ttyUSB7")
    assert missing.status is Status.FAIL
    assert "/dev/ttyUSB7" in missing.summary
    assert _finding(config, healthy, "serial", "serial:socket://board:7000").status is Status.OK
    assert _finding(config, healthy, "serial", "serial:sim").status is Status.OK


def test_configured_usb_ids_are_used(tmp_path: Path, state: Path, healthy: Probes) -> None:
    path = tmp_path / "ids.toml"
    path.write_text('[serial]\nvid = "2341"\npid = "8036"\n')
    probes = replace(healthy, serial_ports=lambda: [PortInfo("/dev/ttyACM1", 0x2341, 0x8036)])
    assert _finding(path, probes, "serial", "serial").summary.startswith("board on /dev/ttyACM1")


# --- configuration ----------------------------------------------------------------------------


def test_a_missing_configuration_file_fails(tmp_path: Path, healthy: Probes) -> None:
    found = _finding(tmp_path / "nowhere.toml", healthy, "configuration")
    assert found.status is Status.FAIL
    assert "does not exist" in found.summary


def test_broken_toml_names_the_line(tmp_path: Path, healthy: Probes) -> None:
    path = tmp_path / "broken.toml"
    path.write_text("[logging]\nlevel = \n")
    findings = run_checks(path, healthy)
    found = _by_check(findings)["configuration"]
    assert found.status is Status.FAIL
    assert "line 2" in found.summary
    # The other checks still run, on the defaults.
    assert len(findings) == 7


def test_wrong_values_are_each_named(tmp_path: Path, healthy: Probes) -> None:
    path = tmp_path / "wrong.toml"
    path.write_text('logging = "loud"\n')
    found = _finding(path, healthy, "configuration")
    assert found.status is Status.FAIL
    assert "logging must be a table ([logging]), got 'loud'" in found.summary
    path.write_text('[logging]\nlevel = "loud"\n')
    found = _finding(path, healthy, "configuration")
    assert "unknown log level 'loud'" in found.summary


def test_an_unreadable_configuration_fails(
    monkeypatch: pytest.MonkeyPatch, config: Path, healthy: Probes
) -> None:
    real_read_text = Path.read_text

    def forbidden(self: Path, *args: Any, **kwargs: Any) -> str:
        if self == config:
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real_read_text(self, *args, **kwargs)

    monkeypatch.setattr(Path, "read_text", forbidden)
    found = _finding(config, replace(healthy, user_name=lambda: "pi"), "configuration")
    assert found.status is Status.FAIL
    assert found.summary == f"pi may not read {config}"
    assert "chmod 640" in found.fix


def test_the_hardware_web_and_serial_readers_are_borrowed(config: Path, healthy: Probes) -> None:
    seen: list[str] = []

    class SerialConfig:
        @classmethod
        def from_table(cls, table: object) -> None:
            seen.append(f"serial {table}")

    class WebConfig:
        @classmethod
        def from_mapping(cls, table: object) -> None:
            seen.append(f"web {table}")
            raise ValueError("[web] pin must be 4 to 12 digits, written as a string")

    def parse_config(text: str, source: str) -> None:
        seen.append(f"hardware {source}")
        raise ValueError(f"{source}, line 3: unknown key 'pins' in [hardware]")

    def modules(module: str, name: str) -> Any:
        return {
            ("hardware.config", "parse_config"): parse_config,
            ("firmware_bridge.config", "SerialConfig"): SerialConfig,
            ("companion.web.config", "WebConfig"): WebConfig,
        }.get((module, name))

    config.write_text(config.read_text() + '\n[serial]\nport = "/dev/ttyACM0"\n[web]\npin = "1"\n')
    found = _finding(config, replace(healthy, import_attribute=modules), "configuration")
    assert seen == [
        f"hardware {config}",
        "serial {'port': '/dev/ttyACM0'}",
        "web {'pin': '1'}",
    ]
    assert found.status is Status.FAIL
    assert "unknown key 'pins' in [hardware]" in found.summary
    assert "[web] pin must be 4 to 12 digits" in found.summary


def test_no_configuration_at_all_is_a_warning(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, healthy: Probes
) -> None:
    monkeypatch.setattr(doctor, "DEFAULT_CONFIG", tmp_path / "absent.toml")
    probes = replace(healthy, environ={"STATE_DIRECTORY": str(tmp_path)})
    findings = _by_check(run_checks(None, probes))
    assert findings["configuration"].status is Status.WARN
    assert findings["journal"].summary.startswith(f"{tmp_path}/journal.sqlite3 can be written")


# --- journal ------------------------------------------------------------------------------------


def test_a_missing_journal_directory_fails(tmp_path: Path, healthy: Probes) -> None:
    probes = replace(healthy, environ={"STATE_DIRECTORY": str(tmp_path / "gone")})
    found = _finding(tmp_path / "config.toml", probes, "journal")
    assert found.status is Status.FAIL
    assert "does not exist" in found.summary


def test_a_read_only_journal_directory_fails(config: Path, healthy: Probes) -> None:
    def read_only(path: Path) -> None:
        raise PermissionError(errno.EACCES, "Permission denied")

    found = _finding(
        config, replace(healthy, can_write_in=read_only, user_name=lambda: "pi"), "journal"
    )
    assert found.status is Status.FAIL
    assert "pi cannot write in" in found.summary and "Permission denied (EACCES)" in found.summary
    assert "sudo -u senet senet-companion doctor" in found.fix


def test_the_real_write_probe_leaves_nothing_behind(state: Path) -> None:
    can_write_in(state)
    assert list(state.iterdir()) == []
    with pytest.raises(OSError):
        can_write_in(state / "missing")


def test_a_damaged_journal_is_reported(config: Path, state: Path, healthy: Probes) -> None:
    (state / "journal.sqlite3").write_bytes(b"SQLite format 3\0" + b"\xff" * 4000)
    found = _finding(config, healthy, "journal")
    assert found.status is Status.FAIL
    assert "is damaged" in found.summary
    assert "move the file" in found.fix


def test_a_sound_journal_passes(config: Path, state: Path, healthy: Probes) -> None:
    with sqlite3.connect(state / "journal.sqlite3") as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE games (id INTEGER PRIMARY KEY)")
    db.close()
    assert _finding(config, healthy, "journal").status is Status.OK


def test_a_full_disk_warns(config: Path, healthy: Probes) -> None:
    found = _finding(config, replace(healthy, disk_free=lambda path: 10 * 1024 * 1024), "journal")
    assert found.status is Status.WARN
    assert "only 10 MB free" in found.summary


# --- port ---------------------------------------------------------------------------------------


@pytest.fixture
def busy_port() -> Iterator[int]:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(1)
        yield sock.getsockname()[1]


def test_a_port_held_by_another_program_fails(
    tmp_path: Path, state: Path, healthy: Probes, busy_port: int
) -> None:
    path = tmp_path / "config.toml"
    path.write_text("")
    found = _finding(path, replace(healthy, bind=bind), "port", port=busy_port)
    assert found.status is Status.FAIL
    assert f"port {busy_port} on 127.0.0.1 is in use by another program" == found.summary
    assert f"sport = :{busy_port}" in found.fix
    running = replace(healthy, bind=bind, service_active=lambda: True)
    summary = _finding(path, running, "port", port=busy_port).summary
    assert summary.endswith("is served by the running service")


def test_a_free_port_passes_with_the_real_probe(config: Path, healthy: Probes) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        free = sock.getsockname()[1]
    assert _finding(config, replace(healthy, bind=bind), "port", port=free).status is Status.OK


def test_a_privileged_port_without_the_capability_warns(config: Path, healthy: Probes) -> None:
    def denied(host: str, port: int) -> None:
        raise PermissionError(errno.EACCES, "Permission denied")

    probes = replace(healthy, bind=denied, user_name=lambda: "pi")
    found = _finding(config, probes, "port", port=80)
    assert found.status is Status.WARN
    assert "CAP_NET_BIND_SERVICE" in found.summary


def test_a_host_that_is_not_ours_fails(config: Path, healthy: Probes) -> None:
    found = _finding(config, replace(healthy, bind=bind), "port", host="192.0.2.1")
    assert found.status is Status.FAIL
    assert found.summary == "192.0.2.1 is not an address of this machine"


# --- network name ------------------------------------------------------------------------------


def test_without_avahi_phones_cannot_find_the_board(config: Path, healthy: Probes) -> None:
    found = _finding(config, replace(healthy, avahi_running=lambda: False), "network name")
    assert found.status is Status.WARN
    assert "apt install avahi-daemon" in found.fix


def test_another_hostname_is_explained(config: Path, healthy: Probes) -> None:
    found = _finding(config, replace(healthy, hostname=lambda: "raspberrypi"), "network name")
    assert found.status is Status.WARN
    assert "raspberrypi.local, not senet.local" in found.summary
    assert "hostnamectl set-hostname senet" in found.fix


# --- the report and the command ------------------------------------------------------------------


def test_a_crashing_check_becomes_a_failure(config: Path, healthy: Probes) -> None:
    def exploding(settings: object, probes: object) -> Finding:
        raise KeyError("boom")

    findings = run_checks(config, healthy, checks=[exploding])
    assert findings[-1].status is Status.FAIL
    assert "the check itself failed: KeyError" in findings[-1].summary


def test_the_report_keeps_commands_whole() -> None:
    findings = [
        Finding("python", Status.OK, "Python 3.11.2"),
        Finding(
            "journal",
            Status.FAIL,
            "cannot write",
            "sudo install -d -o senet -g senet /var/lib/senet-companion " * 3,
        ),
        Finding("network name", Status.WARN, "not senet", "rename"),
    ]
    text = format_report(findings, columns=60)
    assert "/var/lib/senet-companion" in text.replace("\n", " ")
    assert "/var/lib/senet-\n" not in text
    assert text.splitlines()[0] == "OK    python        Python 3.11.2"
    assert "1 problem(s) stop the companion, 1 warning(s)." in text
    assert exit_status(findings) == 1
    assert exit_status(findings[::2]) == 0


def test_the_command_prints_and_returns_the_status(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "missing.toml"
    assert main(["doctor", "--config", str(path), "--hardware", "sim"]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert out.startswith(f"FAIL configuration {path} does not exist")
    assert main(["doctor", "--config", str(path), "--json"]) == 1
    parsed = json.loads(capsys.readouterr().out)
    assert parsed[0] == {
        "check": "configuration",
        "status": "FAIL",
        "summary": f"{path} does not exist",
        "fix": "check the path, or copy deploy/config.example.toml there",
    }


def test_the_deployment_file_supplies_backend_and_port(config: Path, healthy: Probes) -> None:
    deployment = healthy.deployment_file
    deployment.write_text(
        "# written by deploy/install.sh\nSENET_HARDWARE=serial\nSENET_PORT='8081'\n"
        'SENET_HOST="127.0.0.1"\n; a comment\nnot a setting\n'
    )
    assert read_deployment(deployment) == {
        "SENET_HARDWARE": "serial",
        "SENET_PORT": "8081",
        "SENET_HOST": "127.0.0.1",
    }
    findings = _by_check(run_checks(config, healthy))
    assert findings["gpio"].summary == "not used by the serial backend"
    assert findings["port"].summary == "port 8081 on 127.0.0.1 is free"
    # The command line wins over the file.
    findings = _by_check(run_checks(config, healthy, Choices(hardware="sim", port=9000)))
    assert findings["serial"].summary == "not used by the sim backend"
    assert findings["port"].summary == "port 9000 on 127.0.0.1 is free"


def test_a_bad_port_on_the_command_line_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["doctor", "--port", "eighty"])
    assert exc.value.code == 2
    assert "'eighty' is not a port number from 1 to 65535" in capsys.readouterr().err


def test_the_journal_can_be_named_on_the_command_line(
    tmp_path: Path, config: Path, healthy: Probes, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "elsewhere" / "games.sqlite3"
    found = _by_check(run_checks(config, healthy, Choices(journal=journal)))["journal"]
    assert found.summary == f"the journal's directory {journal.parent} does not exist"
    main(["doctor", "--config", str(config), "--journal", str(journal), "--json"])
    parsed = {f["check"]: f for f in json.loads(capsys.readouterr().out)}
    assert parsed["journal"]["summary"] == found.summary
