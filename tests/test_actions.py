"""Commands and events as JSON: what the journal keeps and the replay reads back."""

from __future__ import annotations

import json

import pytest

from companion import actions as act
from hardware import events as hw

EVERY_KIND = [
    act.Throw(),
    act.Throw(faces=(1, 0, 1, 1)),
    act.Throw(value=3),
    act.PlayMove("9-12"),
    act.Decide("27-15"),
    act.NewGame("isac", {"rebirth_taken": "stay"}),
    act.SetBot("B", "simple"),
    act.SetBot(None),
    act.Hint(),
    act.StillPlaying(),
    act.Tick(),
    hw.ThrowSettled((1, 1, 0, 0), at=2.5),
    hw.ThrowRequested(at=1.0),
    hw.SquareChanged(12, True, at=3.0),
    hw.SquarePressed(7),
    hw.BoardSnapshot(frozenset({1, 2, 3})),
    hw.HardwareFault("phantom-squares", "rows 2 and 3 ghost", (4, 5), cleared=True),
]


@pytest.mark.parametrize("event", EVERY_KIND, ids=lambda e: type(e).__name__)
def test_every_event_survives_json(event: act.Event) -> None:
    assert act.decode(json.loads(json.dumps(act.encode(event)))) == event


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"kind": "launch"}, "unknown event kind 'launch'"),
        ([1, 2], "must be a JSON object"),
        ({"kind": "board-snapshot", "occupied": "1 2"}, "occupied must be a list"),
        ({"kind": "throw-settled", "faces": [1, True]}, "faces must be a list"),
        ({"kind": "play-move"}, "play-move: .*missing"),
    ],
)
def test_malformed_events_are_refused_by_name(data: object, message: str) -> None:
    with pytest.raises(act.EventFormatError, match=message):
        act.decode(data)  # type: ignore[arg-type]
