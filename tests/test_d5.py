"""Worked examples from the five-sided-die variant "Variante do Projeto" (seed 003)."""

from fractions import Fraction

import pytest
from positions import moves, pos, squares

from companion.rules import Effect, Move, Player, get_ruleset

rules = get_ruleset("d5")


def test_setup_and_player_a_first() -> None:
    # "1=A, 2=B, 3=A, ... O jogador inicial sempre será o Jogador A"
    assert rules.start().notation() == "WBWBWBWBWB.................... W 0 0"


def test_a_five_sided_die() -> None:
    # "Usa-se um D5 (valores possíveis: 1, 2, 3, 4, 5)."
    assert [(c.value, c.probability) for c in rules.throws()] == [
        (v, Fraction(1, 5)) for v in range(1, 6)
    ]
    assert rules.throw_model.sticks == 0


@pytest.mark.parametrize(
    ("throw", "again"), [(1, True), (2, False), (3, False), (4, False), (5, True)]
)
def test_1_and_5_throw_again(throw: int, again: bool) -> None:
    # "Nova jogada se o resultado foi 1 ou 5."
    position = pos([12, 14, 16, 18, 20], [1, 2, 3, 4, 5])
    after = moves(rules, position, throw)[f"20-{20 + throw}"]
    assert (after.side is Player.W) is again


def test_no_move_loses_the_turn() -> None:
    # "Se nenhuma peça puder se mover com o resultado atual, o jogador perde a vez."
    position = pos([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])
    assert moves(rules, position, 5) == {}
    assert rules.pass_turn(position, 5).side is Player.B


def test_capture_by_swapping() -> None:
    # "sua peça em 8 rola 3 e cai em 11 ocupado por 1 inimiga → troca de lugar"
    position = pos([8, 1, 3, 5, 20], [11, 2, 4, 6, 22])
    t = rules.play(position, 3, Move(8, 11))
    assert t.effects & Effect.SWAP
    assert t.after.at(11) is Player.W and t.after.at(8) is Player.B


def test_a_protected_pair_can_be_passed_but_not_captured() -> None:
    # "inimigo tem peças em 12 e 13 → você não captura nenhuma delas ... Ultrapassar é permitido"
    position = pos([9, 1, 3, 5, 7], [12, 13, 2, 4, 6])
    found = moves(rules, position, 3) | moves(rules, position, 4) | moves(rules, position, 5)
    assert "9-12" not in found and "9-13" not in found
    assert "9-14" in found


def test_a_wall_cannot_be_passed() -> None:
    # "inimigo em 12–13–14 → você não pode ultrapassar essa sequência."
    position = pos([11, 1, 3, 5, 7], [12, 13, 14, 2, 4])
    assert not any(m.startswith("11-") for m in moves(rules, position, 4))
    assert not any(m.startswith("11-") for m in moves(rules, position, 5))


def test_pieces_may_pass_26() -> None:
    position = pos([24, 1, 3, 5, 7], [2, 4, 6, 8, 10])
    assert "24-28" in moves(rules, position, 4)


@pytest.mark.parametrize("square", [26, 29])
def test_26_and_29_are_protected(square: int) -> None:
    # "Casa 26 ... Protegida: a peça nessa casa não pode ser capturada." (and 29)
    position = pos([square - 2, 1, 3, 5, 7], [square, 2, 4, 6, 8])
    assert f"{square - 2}-{square}" not in moves(rules, position, 2)


def test_26_leaves_only_with_a_5() -> None:
    # "Saída: só pode sair com movimento de 5."
    position = pos([26, 1, 3, 5, 7], [2, 4, 6, 8, 10])
    leaving = {
        t for t in range(1, 6) if any(m.startswith("26-") for m in moves(rules, position, t))
    }
    assert leaving == {5}
    assert "26-off" in moves(rules, position, 5)


def test_27_goes_back_to_15_or_the_first_free_square_before_it() -> None:
    # "Ao cair na 27, a peça volta para a Casa 15 ... Se a Casa 15 estiver ocupada, a peça vai
    # para a primeira casa vazia antes da casa 15."
    position = pos([24, 1, 3, 5, 7], [2, 4, 6, 8, 10])
    t = rules.play(position, 3, Move(24, 27))
    assert t.effects & Effect.WATER and squares(t.after)[0] == [1, 3, 5, 7, 15]
    taken = pos([24, 1, 3, 5, 15], [14, 2, 4, 6, 8])
    assert squares(rules.play(taken, 3, Move(24, 27)).after)[0] == [1, 3, 5, 13, 15]


@pytest.mark.parametrize(("square", "exact"), [(28, 3), (29, 2), (30, 1)])
def test_exact_exits(square: int, exact: int) -> None:
    # "Exige movimento exato para sair (ex.: precisa de 3 para ir a 31)."
    position = pos([square, 1, 3, 5, 7], [2, 4, 6, 8, 10])
    leaving = {t for t in range(1, 6) if f"{square}-off" in moves(rules, position, t)}
    assert leaving == {exact}
    assert not any(m.startswith(f"{square}-") for m in moves(rules, position, exact + 1))
