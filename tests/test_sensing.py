"""The pure sensing logic: debounce, throw settling, phantom squares, light thresholds."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware import sensing
from hardware.sensing import (
    KeyDebouncer,
    LightThreshold,
    PhantomWatch,
    ThrowDetector,
    calibrate_threshold,
    phantom_keys,
)

SENSING_SOURCE = Path(sensing.__file__).read_text(encoding="utf-8")


# --- the MicroPython subset -------------------------------------------------------------------


def test_sensing_imports_nothing() -> None:
    tree = ast.parse(SENSING_SOURCE)
    imports = [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)]
    assert imports == [], "sensing.py is copied to the microcontroller: it may import nothing"


def test_sensing_avoids_what_micropython_lacks() -> None:
    tree = ast.parse(SENSING_SOURCE)
    for node in ast.walk(tree):
        assert not isinstance(node, ast.NamedExpr), f"walrus at line {node.lineno}"
        assert not isinstance(node, ast.AnnAssign), f"variable annotation at line {node.lineno}"
        assert not isinstance(node, ast.Match), f"match statement at line {node.lineno}"
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            for deco in node.decorator_list:
                assert isinstance(deco, ast.Name) and deco.id in {"property", "staticmethod"}, (
                    f"decorator at line {node.lineno}"
                )
        if isinstance(node, ast.ClassDef):
            assert node.bases == [], f"class {node.name} must not inherit"
        if isinstance(node, ast.arg) and node.annotation is not None:
            assert isinstance(node.annotation, ast.Constant), f"annotation at line {node.lineno}"
        if isinstance(node, ast.FunctionDef) and node.returns is not None:
            assert isinstance(node.returns, ast.Constant), f"annotation at line {node.lineno}"
        if isinstance(node, ast.FormattedValue | ast.JoinedStr):
            raise AssertionError(f"f-string at line {node.lineno}: use str() and +")


# --- KeyDebouncer -----------------------------------------------------------------------------


def feed(debouncer: KeyDebouncer, samples: list[list[int]]) -> list[tuple[int, int, int]]:
    """Feed samples 10 ms apart; return (sample_index, key, state) for every change."""
    out = []
    for n, sample in enumerate(samples):
        for key, state in debouncer.update(n * 10, sample):
            out.append((n, key, state))
    return out


def test_clean_press_is_reported_after_threshold_samples() -> None:
    d = KeyDebouncer(2, threshold=3)
    assert feed(d, [[1, 0]] * 5) == [(2, 0, 1)]
    assert d.states == [1, 0]
    assert d.closed_keys() == [0]


def test_bouncing_contact_gives_one_change_each_way() -> None:
    d = KeyDebouncer(1, threshold=3)
    bouncy_close = [[1], [0], [1], [0], [1], [1], [0], [1], [1], [1]]
    bouncy_open = [[0], [1], [0], [0], [1], [0], [0], [0], [0], [0]]
    changes = feed(d, bouncy_close + bouncy_open)
    assert [(k, s) for _, k, s in changes] == [(0, 1), (0, 0)]


def test_single_sample_glitch_is_ignored() -> None:
    d = KeyDebouncer(3, threshold=2)
    assert feed(d, [[0, 1, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]]) == []


def test_initial_states_and_settled() -> None:
    d = KeyDebouncer(2, threshold=2, initial=[1, 0])
    assert not d.settled
    assert d.update(0, [1, 0]) == []
    assert d.update(10, [1, 0]) == []
    assert d.settled
    assert d.states == [1, 0]


def test_debouncer_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError, match="at least one key"):
        KeyDebouncer(0)
    with pytest.raises(ValueError, match="threshold"):
        KeyDebouncer(2, threshold=0)
    with pytest.raises(ValueError, match="expected 2"):
        KeyDebouncer(2, initial=[1])
    with pytest.raises(ValueError, match="sample has 3 keys"):
        KeyDebouncer(2).update(0, [0, 0, 0])


@given(st.lists(st.lists(st.integers(0, 1), min_size=4, max_size=4), max_size=60))
def test_debounced_changes_alternate_and_match_final_state(samples: list[list[int]]) -> None:
    d = KeyDebouncer(4, threshold=3)
    seen = [0, 0, 0, 0]
    for n, sample in enumerate(samples):
        for key, state in d.update(n, sample):
            assert state != seen[key], "a change must flip the state"
            seen[key] = state
    assert seen == d.states


# --- ThrowDetector ----------------------------------------------------------------------------


def run(detector: ThrowDetector, timeline: list[tuple[int, tuple[int | None, ...]]]) -> list:
    """Feed (time, faces) samples, then hold the last faces every 10 ms for 1 s."""
    results = []
    last_t, last_faces = 0, timeline[0][1]
    for t, faces in timeline:
        last_t, last_faces = t, faces
        r = detector.update(t, faces)
        if r is not None:
            results.append((t, r))
    for t in range(last_t + 10, last_t + 1000, 10):
        r = detector.update(t, last_faces)
        if r is not None:
            results.append((t, r))
    return results


def test_tumble_then_rest_is_one_throw_after_settle_time() -> None:
    d = ThrowDetector(settle_ms=400)
    timeline = [
        (0, (0, 0, 0, 0)),
        (100, (1, 0, 0, 0)),
        (130, (1, 1, 0, 1)),
        (160, (0, 1, 1, 1)),
        (200, (1, 0, 1, 1)),
    ]
    results = run(d, timeline)
    assert results == [(600, ("throw", (1, 0, 1, 1)))]
    assert d.resting == (1, 0, 1, 1)
    assert not d.moving


def test_throw_landing_on_the_same_faces_still_counts() -> None:
    d = ThrowDetector(settle_ms=300)
    timeline = [(0, (1, 1, 0, 0)), (50, (0, 1, 0, 0)), (80, (1, 1, 0, 0))]
    assert run(d, timeline) == [(380, ("throw", (1, 1, 0, 0)))]


def test_still_sticks_report_nothing() -> None:
    d = ThrowDetector()
    assert run(d, [(0, (1, 0, 1, 0))]) == []
    assert d.resting == (1, 0, 1, 0)


def test_single_flip_is_a_throw_without_motion() -> None:
    d = ThrowDetector(settle_ms=400)
    results = run(d, [(0, (0, 0, 0, 0)), (100, (0, 0, 1, 0))])
    assert len(results) == 1
    t, (kind, code, message) = results[0]
    assert (t, kind, code) == (500, "fault", "throw-without-motion")
    assert "throw them again" in message


def test_stick_that_never_settles_is_a_fault_then_cleared() -> None:
    d = ThrowDetector(settle_ms=100, max_motion_ms=1000)
    timeline = [(t, (t // 20 % 2, 0, 0, 0)) for t in range(0, 1500, 20)]
    results = run(d, timeline)
    kinds = [(r[0], r[1]) for _, r in results]
    assert kinds == [("fault", "stick-unsettled"), ("cleared", "stick-unsettled")]
    assert results[0][0] == 1040  # motion began at 20 ms
    assert d.fault is None


def test_nonsense_reading_is_a_sensor_fault_reported_once() -> None:
    d = ThrowDetector(settle_ms=100)
    timeline = [
        (0, (0, 0, 0, 0)),
        (10, (0, None, 0, 0)),
        (20, (0, None, 0, 0)),
        (30, (0, 0, 0, 0)),
    ]
    results = run(d, timeline)
    assert [r[:2] for _, r in results] == [("fault", "sensor-range"), ("cleared", "sensor-range")]
    assert "stick sensor 2" in results[0][1][2]


def test_throw_detector_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError, match="max_motion_ms"):
        ThrowDetector(settle_ms=400, max_motion_ms=400)
    with pytest.raises(ValueError, match="sample has 3 sticks"):
        ThrowDetector().update(0, (0, 0, 0))


@given(
    st.lists(
        st.tuples(st.integers(1, 60), st.tuples(*[st.integers(0, 1)] * 4)),
        min_size=1,
        max_size=40,
    )
)
def test_at_most_one_result_per_motion(steps: list[tuple[int, tuple[int, ...]]]) -> None:
    d = ThrowDetector(settle_ms=100, max_motion_ms=10_000)
    t = 0
    results = []
    d.update(t, (0, 0, 0, 0))
    for gap, faces in steps:
        t += gap
        r = d.update(t, faces)
        if r is not None:
            results.append(r)
    # Hold still: whatever motion was going on ends in exactly one result.
    final = [d.update(t + k * 10, steps[-1][1]) for k in range(1, 12)]
    ended = [r for r in final if r is not None]
    assert len(ended) <= 1
    assert not d.moving
    for r in results + ended:
        assert r[0] in {"throw", "fault"}


# --- phantom squares --------------------------------------------------------------------------


def test_static_rectangle_corners() -> None:
    closed = {(0, 0), (0, 3), (2, 0), (2, 3), (1, 5)}
    assert phantom_keys(closed) == {(0, 0), (0, 3), (2, 0), (2, 3)}
    assert phantom_keys({(0, 0), (0, 1), (1, 0)}) == set()


def test_two_corners_closing_together_are_suspects() -> None:
    before = {(0, 0), (0, 1)}
    after = before | {(1, 0), (1, 1)}
    assert phantom_keys(after, after - before) == {(1, 0), (1, 1)}
    # One new corner completing a rectangle of real pieces is not suspicious.
    before = {(0, 0), (0, 1), (1, 0)}
    assert phantom_keys(before | {(1, 1)}, {(1, 1)}) == set()


def test_diagonal_corners_closing_together_are_suspects() -> None:
    before = {(0, 1), (1, 0)}
    after = before | {(0, 0), (1, 1)}
    assert phantom_keys(after, after - before) == {(0, 0), (1, 1)}


def test_phantom_watch_reports_appearance_and_clearing() -> None:
    watch = PhantomWatch()
    real = {(0, 0), (0, 4)}
    assert watch.update(set(), real) is None
    # Placing a piece at (2, 0) also makes (2, 4) read closed.
    with_phantom = real | {(2, 0), (2, 4)}
    assert watch.update(real, with_phantom) == ("fault", ((2, 0), (2, 4)))
    assert watch.update(with_phantom, with_phantom) is None
    # Lifting the piece at (0, 4) breaks the rectangle: the phantom goes with it.
    after_lift = {(0, 0), (2, 0)}
    assert watch.update(with_phantom, after_lift) == ("cleared", ())


def test_phantom_watch_reveals_a_phantom_present_from_the_start() -> None:
    watch = PhantomWatch()
    start = {(0, 0), (0, 1), (1, 0), (1, 1)}
    # The first scan is a baseline (four pieces, or three and a phantom: nobody can tell).
    lifted = {(0, 0), (1, 0)}  # one lift took two keys away: there was a phantom
    assert watch.update(start, lifted) == ("fault", ((0, 1), (1, 1)))
    assert watch.update(lifted, lifted | {(2, 2)}) == ("cleared", ())


def test_phantom_watch_ignores_ordinary_play() -> None:
    watch = PhantomWatch()
    state: set[tuple[int, int]] = set()
    for key in [(0, 0), (0, 1), (1, 0), (1, 1), (2, 3)]:
        new = state | {key}
        assert watch.update(state, new) is None
        state = new
    for key in [(0, 0), (1, 1)]:
        new = state - {key}
        assert watch.update(state, new) is None
        state = new


# --- light sensors ----------------------------------------------------------------------------


def test_light_threshold_with_hysteresis() -> None:
    light = LightThreshold(0.5, hysteresis=0.1)
    assert [light.classify(v) for v in (0.3, 0.55, 0.59, 0.61, 0.45, 0.41, 0.39)] == [
        0,
        0,
        0,
        1,
        1,
        1,
        0,
    ]


def test_light_threshold_without_history_uses_the_threshold() -> None:
    assert LightThreshold(0.5, hysteresis=0.1).classify(0.52) == 1
    assert LightThreshold(0.5, hysteresis=0.1).classify(0.48) == 0


def test_light_threshold_inverted_and_out_of_range() -> None:
    dark_is_high = LightThreshold(0.5, 0.05, low_limit=0.02, high_limit=0.98, light_is_high=False)
    assert dark_is_high.classify(0.8) == 0
    assert dark_is_high.classify(0.2) == 1
    assert dark_is_high.classify(0.0) is None
    assert dark_is_high.classify(1.0) is None
    with pytest.raises(ValueError, match="negative"):
        LightThreshold(0.5, -0.1)


def test_calibration_splits_the_gap() -> None:
    threshold, hysteresis, light_is_high = calibrate_threshold([0.7, 0.8], [0.2, 0.3])
    assert (threshold, hysteresis, light_is_high) == pytest.approx((0.5, 0.1, True))
    threshold, hysteresis, light_is_high = calibrate_threshold([0.1], [0.5])
    assert (threshold, hysteresis, light_is_high) == pytest.approx((0.3, 0.1, False))


def test_calibration_refuses_overlapping_readings() -> None:
    with pytest.raises(ValueError, match="overlap"):
        calibrate_threshold([0.4, 0.6], [0.5])
    with pytest.raises(ValueError, match="needs readings"):
        calibrate_threshold([], [0.5])
