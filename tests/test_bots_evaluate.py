import json
import random

import pytest

from companion.bots.evaluate import (
    COMPONENTS,
    HAND_WEIGHTS,
    Evaluator,
    components,
    default_weights,
    heuristic,
    load_weights,
    structure,
)
from companion.bots.learn import fit_weights, self_play_samples
from companion.rules import RULESETS, Player, Position, get_ruleset

FAMILIES = [name for name in RULESETS if not name.startswith("kendall-")]


def random_position(rng: random.Random) -> Position:
    cells = ["."] * 30
    for i, square in enumerate(rng.sample(range(30), 10)):
        cells[square] = "W" if i < 5 else "B"
    return Position("".join(cells), rng.choice([Player.W, Player.B]))


@pytest.mark.parametrize("name", FAMILIES)
def test_heuristic_is_antisymmetric(name: str) -> None:
    rules = get_ruleset(name)
    rng = random.Random(name)
    for _ in range(30):
        position = random_position(rng)
        assert heuristic(rules, position, Player.W) == -heuristic(rules, position, Player.B)


def test_heuristic_is_the_hand_weighted_components() -> None:
    rules = get_ruleset("playpalace")
    position = Position.parse("W.BW..B.W.BB.W....W.B......... W 0 0")
    parts = components(rules, position)
    assert len(parts) == len(COMPONENTS)
    expected = sum(h * c for h, c in zip(HAND_WEIGHTS, parts, strict=True))
    assert heuristic(rules, position, Player.W) == pytest.approx(expected)


def test_structure_counts_pairs_walls_and_exposed_pieces() -> None:
    rules = get_ruleset("playpalace")
    # W: a wall 3-4-5, a lone piece on 12 with B on 9 behind it, one on 29 (safe there).
    position = Position.parse("..WWW...B..W................W. W 0 0")
    w = structure(rules, position, Player.W)
    assert (w.pairs, w.walls, w.exposed) == (3, 1, 1)
    b = structure(rules, position, Player.B)
    assert (b.pairs, b.walls, b.exposed) == (0, 0, 1)


def test_finished_positions_are_certain() -> None:
    rules = get_ruleset("playpalace")
    won = Position.parse(".B.B.B.B.B.................... B 5 0")
    assert heuristic(rules, won, Player.W) == 1000.0
    assert Evaluator(rules).static(won) == 1.0


def test_every_present_ruleset_ships_fitted_weights() -> None:
    for name in FAMILIES:
        weights = load_weights(name)
        assert weights != default_weights(), name
        assert len(weights) == len(COMPONENTS)
        assert weights[0] > 0, name  # progress helps


def test_a_ruleset_without_a_file_gets_the_default() -> None:
    assert load_weights("no-such-ruleset") == default_weights()


def test_fit_recovers_known_weights() -> None:
    rng = random.Random(7)
    truth = (0.05, 0.3, 0.0, 0.0, 0.2, -0.1, 0.15)
    samples = []
    for _ in range(4000):
        x = (
            rng.uniform(-40, 40),
            rng.randint(-3, 3),
            0.0,
            rng.randint(-3, 3),
            rng.randint(-1, 1),
            rng.randint(-2, 2),
            rng.choice([-1.0, 1.0]),
        )
        z = sum(a * b for a, b in zip(truth, x, strict=True))
        samples.append((x, 1.0 if rng.random() < 1 / (1 + 2.718281828**-z) else 0.0))
    # A component that never varies cannot be fitted: the ridge keeps it at its start.
    fit = fit_weights(samples)
    assert fit.weights[0] == pytest.approx(0.05, abs=0.01)
    assert fit.weights[6] == pytest.approx(0.15, abs=0.1)
    assert fit.log_loss <= fit.default_log_loss + 0.01


def test_self_play_samples_are_labelled_positions() -> None:
    samples = self_play_samples("d5", 3, seed=1)
    assert len(samples) > 50
    assert {y for _, y in samples} <= {0.0, 1.0}
    assert all(len(x) == len(COMPONENTS) for x, _ in samples)
    fit = fit_weights(samples)
    json.dumps(fit.to_json("d5", "test"))


def test_progress_that_seems_to_hurt_keeps_the_hand_proportions() -> None:
    rng = random.Random(3)
    samples = []
    for _ in range(2000):
        progress = rng.uniform(-40, 40)
        x = (progress, 0.0, 0.0, 0.0, 0.0, 0.0, rng.choice([-1.0, 1.0]))
        samples.append((x, 1.0 if progress < rng.gauss(0, 20) else 0.0))
    fit = fit_weights(samples)
    assert fit.weights[0] > 0
    assert fit.method in ("one scale for the hand weights", "default")
    ratio = fit.weights[6] / fit.weights[0]
    assert ratio == pytest.approx(HAND_WEIGHTS[6] / HAND_WEIGHTS[0])
