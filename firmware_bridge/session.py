"""The companion's side of the protocol, without any I/O: handshake, sequence numbers, resync.

A :class:`BridgeSession` is fed the bytes that arrived and answers with hardware events; the
bytes it wants sent wait in :meth:`BridgeSession.outgoing`. The transport (:mod:`.link`) owns the
port and the thread; this object owns the meaning, so every fault is testable with plain bytes
and an injected clock.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from firmware_bridge.errors import BridgeTimeout, ProtocolVersionError
from firmware_bridge.firmware import wire
from firmware_bridge.firmware.framing import (
    PROTOCOL_VERSION,
    Frame,
    Framer,
    encode,
    make_frame,
    next_seq,
)
from firmware_bridge.messages import DeviceInfo, Snapshot, parse_hello, parse_snapshot
from hardware.events import (
    BoardSnapshot,
    HardwareEvent,
    HardwareFault,
    SquareChanged,
    SquarePressed,
    ThrowRequested,
    ThrowSettled,
)

__all__ = ["FAULT_MESSAGES", "BridgeSession"]

Clock = Callable[[], float]
SOFT_RESET = b"\x04\n"
# Faults that report a single happening rather than a state; no snapshot ever clears them.
ONE_SHOT_FAULTS = frozenset({"throw-without-motion", "link-corrupt"})

FAULT_MESSAGES = {
    "phantom-squares": "the matrix shows squares that cannot all be occupied: check the diodes",
    "stick-unsettled": "the sticks keep moving: let them come to rest",
    "throw-without-motion": "the sticks changed without being thrown: throw them again",
    "sensor-range": "a stick sensor reads outside its calibrated range: recalibrate",
    "link-corrupt": "corrupted lines on the USB link were dropped: check the cable",
    "link-lost": "the board's USB link is gone: check the cable; reconnecting",
}


class BridgeSession:
    """One conversation with one board, from HELLO to the cable being pulled.

    ``silence`` is how long the board may say nothing before the session asks for a snapshot,
    and then how much longer before it gives the link up (the board sends a snapshot every
    couple of seconds, so silence means the link is dead even if the port stays open).
    """

    def __init__(
        self,
        clock: Clock = time.monotonic,
        *,
        silence: float = 6.0,
        corrupt_report_interval: float = 10.0,
    ) -> None:
        self._clock = clock
        self._silence = silence
        self._corrupt_interval = corrupt_report_interval
        self._framer = Framer()
        self._out_seq = 0
        self._outgoing = bytearray()
        self.device: DeviceInfo | None = None
        self._expected: int | None = None
        self._awaiting_snapshot = True
        self._awaiting_since = clock()
        self._occupied: frozenset[int] = frozenset()
        self._faces: tuple[int, ...] = ()
        self.last_snapshot: Snapshot | None = None
        self._active_faults: set[str] = set()
        self._last_heard = clock()
        self._poked_at: float | None = None
        self._corrupt_reported_at: float | None = None
        self._dropped_seen = 0
        self.gaps = 0
        self.resyncs = 0
        self.ignored = 0
        self.invalid = 0

    # -- what the transport calls ------------------------------------------------------------

    def begin(self) -> None:
        """Start (or restart after a reconnect): forget partial input, ask the board who it is."""
        self._framer.reset()
        self.device = None
        self._expected = None
        self._awaiting_snapshot = False
        self._await_snapshot()
        self._last_heard = self._clock()
        self._poked_at = None
        self._send(wire.HELLO, (("v", str(PROTOCOL_VERSION)),))

    def request_snapshot(self) -> None:
        """Ask the board for its whole state; the answer becomes a BoardSnapshot event."""
        self._await_snapshot()
        self._send(wire.SYNC)

    def outgoing(self) -> bytes:
        """The bytes waiting to be written to the port (taking them empties the queue)."""
        data = bytes(self._outgoing)
        self._outgoing.clear()
        return data

    def receive(self, data: bytes) -> list[HardwareEvent]:
        """Feed received bytes; the events they carry. ProtocolVersionError for a foreign board."""
        events: list[HardwareEvent] = []
        frames = self._framer.feed(data)
        self._report_drops(events)
        for frame in frames:
            self._last_heard = self._clock()
            self._poked_at = None
            self._handle(frame, events)
        return events

    def poll(self) -> None:
        """Check for silence: ask for a snapshot once, then BridgeTimeout if still nothing.

        A board that talks but never completes the handshake or never sends the snapshot it
        was asked for is given up on the same way.
        """
        now = self._clock()
        if self._awaiting_snapshot and now - self._awaiting_since >= 2 * self._silence:
            what = "its snapshot" if self.device else "a HELLO and a snapshot"
            raise BridgeTimeout(
                f"the board did not send {what} within {2 * self._silence:.1f} s: "
                "check that it runs this companion's firmware"
            )
        if now - self._last_heard < self._silence:
            return
        if self._poked_at is None:
            self._poked_at = now
            if self.device is None:
                # Ctrl-D restarts a MicroPython board left at its prompt (its firmware drops
                # the line as binary); then ask again.
                self._outgoing.extend(SOFT_RESET)
                self._send(wire.HELLO, (("v", str(PROTOCOL_VERSION)),))
            else:
                self.request_snapshot()
        elif now - self._poked_at >= self._silence:
            raise BridgeTimeout(
                f"the board sent nothing for {now - self._last_heard:.1f} s: "
                "check that the firmware is running and the cable is in"
            )

    # -- what the backend reads ---------------------------------------------------------------

    @property
    def ready(self) -> bool:
        """True once the board introduced itself and its first snapshot arrived."""
        return self.device is not None and not self._awaiting_snapshot

    def occupied(self) -> frozenset[int]:
        return self._occupied

    def faces(self) -> tuple[int, ...]:
        """The sticks' faces at rest, from the last throw or snapshot."""
        return self._faces

    def counters(self) -> dict[str, object]:
        dropped = {reason: n for reason, n in self._framer.dropped.items() if n}
        return {
            "frames": self._framer.accepted,
            "dropped": self._framer.dropped_total(),
            "dropped_by_reason": dropped,
            "last_drop": self._framer.last_error,
            "sequence_gaps": self.gaps,
            "resyncs": self.resyncs,
            "ignored_types": self.ignored,
            "invalid_fields": self.invalid,
        }

    # -- inside -------------------------------------------------------------------------------

    def _send(self, kind: str, fields: tuple[tuple[str, str], ...] = ()) -> None:
        self._outgoing.extend(encode(make_frame(self._out_seq, kind, fields)))
        self._out_seq = next_seq(self._out_seq)

    def _await_snapshot(self) -> None:
        if not self._awaiting_snapshot:
            self._awaiting_snapshot = True
            self._awaiting_since = self._clock()

    def _report_drops(self, events: list[HardwareEvent]) -> None:
        total = self._framer.dropped_total()
        if total == self._dropped_seen:
            return
        self._dropped_seen = total
        now = self._clock()
        last = self._corrupt_reported_at
        if last is None or now - last >= self._corrupt_interval:
            self._corrupt_reported_at = now
            message = (
                f"{FAULT_MESSAGES['link-corrupt']} ({total} so far: {self._framer.last_error})"
            )
            events.append(HardwareFault("link-corrupt", message, at=now))

    def _handle(self, frame: Frame, events: list[HardwareEvent]) -> None:
        if frame.kind == wire.HELLO:
            self._hello(frame)
            return
        if self.device is None:
            return  # chatter from before the handshake; the snapshot after HELLO covers it
        if frame.seq != self._expected:
            self.gaps += 1
            if frame.kind == wire.SNAP:
                self._await_snapshot()  # this very frame brings the whole truth
            elif not self._awaiting_snapshot:
                self.request_snapshot()
        self._expected = next_seq(frame.seq)
        try:
            self._dispatch(frame, self.device, events)
        except ValueError:
            self.invalid += 1  # intact but meaningless: never acted on

    def _hello(self, frame: Frame) -> None:
        try:
            info = parse_hello(frame)
        except ValueError:
            self.invalid += 1
            return
        if info.version != PROTOCOL_VERSION:
            raise ProtocolVersionError(str(info.version), PROTOCOL_VERSION)
        self.device = info
        self._expected = next_seq(frame.seq)
        self._await_snapshot()  # the board follows its HELLO with a SNAP

    def _dispatch(self, frame: Frame, device: DeviceInfo, events: list[HardwareEvent]) -> None:
        now = self._clock()
        kind = frame.kind
        if kind == wire.SNAP:
            self._snapshot(frame, device, events, now)
        elif kind == wire.SQUARE:
            square = self._square(frame, device)
            on = _flag(frame, "on")
            changed = (square in self._occupied) != on
            self._occupied = self._occupied | {square} if on else self._occupied - {square}
            if changed:
                events.append(SquareChanged(square, on, at=now))
        elif kind == wire.PRESS:
            events.append(SquarePressed(self._square(frame, device), at=now))
        elif kind == wire.THROW:
            faces = wire.text_to_faces(frame.get("faces", "") or "", device.sticks)
            self._faces = faces
            events.append(ThrowSettled(faces, at=now))
        elif kind == wire.ROLL:
            events.append(ThrowRequested(at=now))
        elif kind == wire.FAULT:
            self._fault(frame, device, events, now)
        else:
            self.ignored += 1

    def _snapshot(
        self, frame: Frame, device: DeviceInfo, events: list[HardwareEvent], now: float
    ) -> None:
        snap = parse_snapshot(frame, device)
        if self._awaiting_snapshot or snap.occupied != self._occupied:
            self.resyncs += 1
            self._occupied = snap.occupied
            events.append(BoardSnapshot(snap.occupied, at=now))
        self._awaiting_snapshot = False
        self._faces = snap.faces
        self.last_snapshot = snap
        current = set(snap.faults)
        for code in sorted(current - self._active_faults):
            events.append(HardwareFault(code, FAULT_MESSAGES.get(code, code), at=now))
        for code in sorted(self._active_faults - current):
            message = FAULT_MESSAGES.get(code, code)
            events.append(HardwareFault(code, message, cleared=True, at=now))
        self._active_faults = current

    def _fault(
        self, frame: Frame, device: DeviceInfo, events: list[HardwareEvent], now: float
    ) -> None:
        code = frame.get("code")
        if not code:
            raise ValueError("FAULT without code")
        squares = wire.list_to_squares(frame.get("sq", "-") or "-", device.squares)
        on = _flag(frame, "on")
        if on and code not in ONE_SHOT_FAULTS:
            self._active_faults.add(code)
        else:
            self._active_faults.discard(code)
        message = FAULT_MESSAGES.get(code, f"the board reports {code}")
        events.append(HardwareFault(code, message, squares=squares, cleared=not on, at=now))

    @staticmethod
    def _square(frame: Frame, device: DeviceInfo) -> int:
        text = frame.get("n", "") or ""
        if not text.isdigit() or not 1 <= int(text) <= device.squares:
            raise ValueError(f"{frame.kind} square n={text} is not 1..{device.squares}")
        return int(text)


def _flag(frame: Frame, key: str) -> bool:
    value = frame.get(key)
    if value not in ("0", "1"):
        raise ValueError(f"{frame.kind} field {key}={value} is not 0 or 1")
    return value == "1"
