"""The firmware's own tests, run under CPython here and under MicroPython through Node.js."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from firmware_bridge.firmware import firmware_tests

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = (
    ROOT / ".micropython" / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
)
RUNNER = Path(__file__).resolve().parent / "micropython" / "run_module.mjs"
FIRMWARE = ROOT / "firmware_bridge" / "firmware"
# What the board holds, plus the test module and its simulated pins.
FILES = [
    FIRMWARE / "framing.py",
    FIRMWARE / "wire.py",
    FIRMWARE / "scanner.py",
    FIRMWARE / "device.py",
    FIRMWARE / "pico.py",
    FIRMWARE / "board_config.py",
    ROOT / "hardware" / "sensing.py",
    FIRMWARE / "simpins.py",
    FIRMWARE / "firmware_tests.py",
]
TEST_NAMES = sorted(name for name in vars(firmware_tests) if name.startswith("test_"))


def _unavailable(reason: str) -> None:
    message = f"{reason}; run firmware_bridge/tests-setup (make test does) to install it"
    if os.environ.get("CI") == "true":
        pytest.fail(f"MicroPython firmware tests cannot run: {message}")
    pytest.skip(message)


@pytest.fixture(scope="module")
def micropython_results() -> dict[str, str]:
    node = shutil.which("node")
    if node is None:
        _unavailable("node is not installed")
    if not (PACKAGE / "micropython.mjs").is_file():
        _unavailable("MicroPython for Node.js is not installed in .micropython/")
    assert node is not None
    run = subprocess.run(
        [node, str(RUNNER), str(PACKAGE), "firmware_tests", *map(str, FILES)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if "IMPLEMENTATION micropython" not in run.stdout.splitlines():
        pytest.fail(f"the firmware tests did not run under MicroPython:\n{run.stdout}{run.stderr}")
    results: dict[str, str] = {}
    for line in run.stdout.splitlines():
        verdict, _, rest = line.partition(" ")
        if verdict in ("PASS", "FAIL"):
            name, _, detail = rest.partition(":")
            results[name] = verdict if verdict == "PASS" else f"FAIL:{detail}"
    if not results:
        pytest.fail(f"MicroPython ran no firmware test (exit {run.returncode}):\n{run.stderr}")
    return results


def test_the_test_list_is_not_empty() -> None:
    assert len(TEST_NAMES) >= 15


@pytest.mark.parametrize("name", TEST_NAMES)
def test_firmware_on_cpython(name: str) -> None:
    getattr(firmware_tests, name)()


@pytest.mark.parametrize("name", TEST_NAMES)
def test_firmware_on_micropython(name: str, micropython_results: dict[str, str]) -> None:
    assert micropython_results.get(name) == "PASS", micropython_results.get(name, "did not run")
