"""The firmware's life on the Raspberry Pi Pico: wire the pins, then scan and talk forever.

:func:`build` and :func:`serve` take the ``Pin`` class, the byte streams and the tick functions
as arguments, so the firmware tests run them with fakes; :func:`main` hands them the real ones.
MicroPython-compatible subset (see :mod:`framing`).
"""

try:
    from typing import Any, Callable

    from firmware_bridge.firmware import device, scanner
except ImportError:  # on the board
    import device  # type: ignore[no-redef, import-not-found]
    import scanner  # type: ignore[no-redef, import-not-found]

READ_CHUNK = 64


def build(pin_class: "Any", config: "Any", write: "Callable[[bytes], Any]") -> "device.Firmware":
    """The firmware wired to ``pin_class`` pins as ``config`` (a ``board_config`` module) says."""
    column_pull = pin_class.PULL_DOWN if config.ACTIVE_LEVEL else pin_class.PULL_UP
    rows = [pin_class(number, pin_class.OUT) for number in config.ROW_PINS]
    cols = [pin_class(number, pin_class.IN, column_pull) for number in config.COL_PINS]
    sticks = [pin_class(number, pin_class.IN, pin_class.PULL_UP) for number in config.STICK_PINS]
    button = None
    if config.ROLL_BUTTON_PIN is not None:
        button = pin_class(config.ROLL_BUTTON_PIN, pin_class.IN, pin_class.PULL_UP)
    square_map = config.SQUARE_MAP or scanner.default_square_map(len(rows), len(cols))
    return device.Firmware(
        scanner.MatrixScanner(rows, cols, config.ACTIVE_LEVEL),
        scanner.DigitalSticks(sticks, config.STICK_LIGHT_LEVEL),
        write,
        square_map=square_map,
        input_kind=config.INPUT,
        diodes=config.DIODES,
        button=button,
        debounce=config.DEBOUNCE_SAMPLES,
        settle_ms=config.SETTLE_MS,
        snapshot_ms=config.SNAPSHOT_MS,
    )


def serve(
    firmware: "device.Firmware",
    read_ready: "Callable[[], bytes]",
    ticks_ms: "Callable[[], int]",
    ticks_diff: "Callable[[int, int], int]",
    sleep_ms: "Callable[[int], Any]",
    scan_ms: int = 5,
    cycles: "int | None" = None,
) -> int:
    """Run scan cycles every ``scan_ms`` (forever, or ``cycles`` times); returns the time reached.

    The board's tick counter wraps (after about 12 days on a Pico), so the firmware is given
    a millisecond count built from tick differences, which never wraps.
    """
    now_ms = 0
    last = ticks_ms()
    done = 0
    while cycles is None or done < cycles:
        data = read_ready()
        if data:
            firmware.receive(data)
        tick = ticks_ms()
        now_ms += ticks_diff(tick, last)
        last = tick
        firmware.step(now_ms)
        done += 1
        sleep_ms(scan_ms)
    return now_ms


def main() -> None:  # pragma: no cover - runs only on the board
    import select
    import sys
    import time

    import board_config  # type: ignore[import-not-found]
    import machine  # type: ignore[import-not-found]

    board_time: Any = time  # MicroPython's time module has the ticks functions
    board_sys: Any = sys
    stdin = board_sys.stdin.buffer
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)

    def read_ready() -> bytes:
        data = b""
        while len(data) < READ_CHUNK and poller.poll(0):
            data += stdin.read(1)
        return data

    firmware = build(machine.Pin, board_config, board_sys.stdout.buffer.write)
    try:
        serve(
            firmware,
            read_ready,
            board_time.ticks_ms,
            board_time.ticks_diff,
            board_time.sleep_ms,
            board_config.SCAN_MS,
        )
    except KeyboardInterrupt:
        raise  # Ctrl-C from mpremote: leave to the REPL so the board can be updated
    except Exception as error:  # anything else: report it, then start afresh
        board_sys.print_exception(error)
        board_time.sleep_ms(1000)
        machine.reset()
