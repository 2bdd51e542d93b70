"""The contract every hardware backend must keep, as a reusable test base class.

A backend module's tests subclass :class:`BackendContract` and implement ``make_backend``::

    class TestSerialBackendContract(BackendContract):
        def make_backend(self, board, config):
            return open_backend("serial:loop://", config, board=board)

``board`` is the :class:`~hardware.simulation.SimulatedBoard` the backend must read (through
mock pins, a simulated microcontroller, or directly) on the real clock; ``config`` is
:func:`contract_config`, the default wiring with short settle times so the suite stays quick.
Tests run the backend's own threads and wait on its event queue with timeouts; none sleeps.
"""

from __future__ import annotations

import json
import queue
from collections.abc import Callable, Iterator

import pytest

from hardware.backend import Backend
from hardware.config import HardwareConfig, default_config_text, parse_config
from hardware.events import (
    BoardSnapshot,
    HardwareEvent,
    HardwareFault,
    SquareChanged,
    ThrowRequested,
    ThrowSettled,
)
from hardware.simulation import SimulatedBoard

WAIT = 5.0  # seconds: generous, only ever reached when a test is about to fail
QUIET = 0.15  # seconds without events that count as "nothing more came"
SETTLE_MS = 80
TUMBLE_MS = 250  # long enough to be seen tumbling even on a busy machine


def contract_config() -> HardwareConfig:
    """The default configuration with a short settle time."""
    text = default_config_text().replace("settle_ms = 400", f"settle_ms = {SETTLE_MS}")
    assert f"settle_ms = {SETTLE_MS}" in text
    return parse_config(text, source="contract")


class Events:
    """The backend's queue, read with timeouts."""

    def __init__(self) -> None:
        self.queue: queue.Queue[HardwareEvent] = queue.Queue()
        self.seen: list[HardwareEvent] = []

    def next(self, timeout: float = WAIT) -> HardwareEvent:
        try:
            event = self.queue.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no event within {timeout} s; seen so far: {self.seen}") from None
        self.seen.append(event)
        return event

    def until(self, predicate: Callable[[HardwareEvent], bool]) -> list[HardwareEvent]:
        """Every event up to and including the first that matches."""
        got = []
        while True:
            event = self.next()
            got.append(event)
            if predicate(event):
                return got

    def rest(self, quiet: float = QUIET) -> list[HardwareEvent]:
        """Whatever else arrives until the queue has been quiet for ``quiet`` seconds."""
        got = []
        while True:
            try:
                event = self.queue.get(timeout=quiet)
            except queue.Empty:
                return got
            self.seen.append(event)
            got.append(event)


def _squares(events: list[HardwareEvent]) -> list[tuple[int, bool]]:
    return sorted((e.square, e.occupied) for e in events if isinstance(e, SquareChanged))


class BackendContract:
    """Base class of the contract tests; subclass it and implement ``make_backend``."""

    def make_backend(self, board: SimulatedBoard, config: HardwareConfig) -> Backend:
        raise NotImplementedError

    @pytest.fixture
    def board(self) -> SimulatedBoard:
        return SimulatedBoard(tumble_ms=TUMBLE_MS, press_ms=60)

    @pytest.fixture
    def backend(self, board: SimulatedBoard) -> Iterator[Backend]:
        backend = self.make_backend(board, contract_config())
        yield backend
        backend.stop()

    @pytest.fixture
    def events(self) -> Events:
        return Events()

    def start(self, backend: Backend, events: Events) -> BoardSnapshot:
        backend.start(events.queue)
        first = events.next()
        assert isinstance(first, BoardSnapshot), f"the first event must be a snapshot: {first}"
        return first

    # --- starting ----------------------------------------------------------------------------

    def test_start_reports_the_board_as_a_snapshot(
        self, board: SimulatedBoard, backend: Backend, events: Events
    ) -> None:
        board.arrange({1, 3, 5, 12, 30})
        snapshot = self.start(backend, events)
        assert snapshot.occupied == {1, 3, 5, 12, 30}
        assert backend.occupied() == {1, 3, 5, 12, 30}
        assert events.rest() == []

    def test_status_is_plain_json(self, backend: Backend, events: Events) -> None:
        self.start(backend, events)
        status = backend.status()
        assert json.loads(json.dumps(status)) == status
        assert isinstance(backend.name, str) and backend.name

    # --- pieces ------------------------------------------------------------------------------

    def test_placing_and_lifting_give_one_event_each(
        self, board: SimulatedBoard, backend: Backend, events: Events
    ) -> None:
        self.start(backend, events)
        board.place(12)
        event = events.next()
        assert isinstance(event, SquareChanged)
        assert (event.square, event.occupied) == (12, True)
        assert backend.occupied() == {12}
        board.lift(12)
        event = events.next()
        assert (event.square, event.occupied) == (12, False)  # type: ignore[union-attr]
        assert events.rest() == []
        assert backend.occupied() == frozenset()

    def test_bouncing_contacts_give_nothing_spurious(
        self, board: SimulatedBoard, backend: Backend, events: Events
    ) -> None:
        board.arrange({1, 2})
        self.start(backend, events)
        expected = []
        for square in (7, 15, 22, 30):
            board.place(square, bounce=True)
            expected.append((square, True))
            events.until(lambda e, s=square: isinstance(e, SquareChanged) and e.square == s)
        for square in (1, 15):
            board.lift(square, bounce=True)
            expected.append((square, False))
            events.until(lambda e, s=square: isinstance(e, SquareChanged) and e.square == s)
        seen = events.seen[1:] + events.rest()
        assert _squares(seen) == sorted(expected)
        assert [e for e in seen if not isinstance(e, SquareChanged)] == []
        assert backend.occupied() == {2, 7, 22, 30}

    def test_a_move_is_a_lift_then_a_place(
        self, board: SimulatedBoard, backend: Backend, events: Events
    ) -> None:
        board.arrange({9})
        self.start(backend, events)
        board.lift(9)
        events.until(lambda e: isinstance(e, SquareChanged) and not e.occupied)
        board.place(12)
        events.until(lambda e: isinstance(e, SquareChanged) and e.occupied)
        assert _squares(events.seen) == [(9, False), (12, True)]
        assert backend.occupied() == {12}

    # --- sticks ------------------------------------------------------------------------------

    def test_a_throw_gives_one_settled_throw(
        self, board: SimulatedBoard, backend: Backend, events: Events
    ) -> None:
        self.start(backend, events)
        for faces in ((1, 0, 1, 1), (0, 0, 0, 0)):
            board.throw(faces)
            got = events.until(lambda e: isinstance(e, ThrowSettled))
            assert [e for e in got if not isinstance(e, ThrowSettled)] == []
            assert got[-1].faces == faces  # type: ignore[union-attr]
        assert events.rest() == []

    def test_a_stick_turned_by_hand_is_not_a_throw(
        self, board: SimulatedBoard, backend: Backend, events: Events
    ) -> None:
        self.start(backend, events)
        board.turn_stick(2)
        event = events.next()
        assert isinstance(event, HardwareFault)
        assert event.code == "throw-without-motion"
        assert not [e for e in events.rest() if isinstance(e, ThrowSettled)]

    def test_the_throw_button_asks_for_an_electronic_throw(
        self, board: SimulatedBoard, backend: Backend, events: Events
    ) -> None:
        self.start(backend, events)
        board.press_throw_button()
        assert isinstance(events.next(), ThrowRequested)
        assert events.rest() == []

    # --- stopping ----------------------------------------------------------------------------

    def test_stop_is_idempotent_and_final(
        self, board: SimulatedBoard, backend: Backend, events: Events
    ) -> None:
        self.start(backend, events)
        backend.stop()
        backend.stop()
        board.place(4)
        board.throw((1, 1, 1, 1))
        assert events.rest(quiet=0.3) == []

    def test_it_starts_again_after_stopping(
        self, board: SimulatedBoard, backend: Backend, events: Events
    ) -> None:
        self.start(backend, events)
        backend.stop()
        board.arrange({6, 26})
        snapshot = self.start(backend, events)
        assert snapshot.occupied == {6, 26}

    def test_event_times_never_go_backwards(
        self, board: SimulatedBoard, backend: Backend, events: Events
    ) -> None:
        self.start(backend, events)
        board.place(3)
        board.throw((0, 1, 0, 1))
        events.until(lambda e: isinstance(e, ThrowSettled))
        times = [e.at for e in events.seen]
        assert times == sorted(times)
