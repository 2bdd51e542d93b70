"""The Portuguese project variant played with a five-sided die."""

from __future__ import annotations

from companion.rules.base import Ruleset
from companion.rules.position import Player
from companion.rules.throws import D5


class FiveSidedDie(Ruleset):
    """A Portuguese project's variant, "Senet – Regras da Partida (Variante do Projeto)".

    Source: seed 003.

    No reference implementation exists; these are the readings of the text:

    - A fair five-sided die (1-5); "Nova jogada se o resultado foi 1 ou 5": 1 and 5 throw again.
      "Se nenhuma peça puder se mover ... o jogador perde a vez": a throw with no move ends the
      turn, with no repeat throw.
    - No backward moves; a piece may pass 26 ("Você pode ultrapassar peças"; nothing requires
      stopping on 26).
    - Walls: "Três ou mais peças do mesmo jogador em sequência ... não podem ser ultrapassados
      pelo adversário" and cannot be landed on; this includes leaving the board past them.
    - Two adjacent pieces of one player (in track order) cannot be captured; 26 and 29 are
      always protected ("Protegida: a peça nessa casa não pode ser capturada").
    - 26 is left only by a 5, which bears the piece off ("só pode sair com movimento de 5").
    - 27 sends the piece to 15, or the first free square before it; the repeat throw of a 1 or 5
      still applies ("O movimento termina após o retorno" ends the movement, not the turn).
    - "As casas 26, 28, 29 e 30 exigem movimento exato para sair do tabuleiro": bearing off is
      exact (28 with 3, 29 with 2, 30 with 1); the text limits only leaving the board, so 28-29,
      28-30 and 29-30 are ordinary moves.
    """

    name = "d5"
    title = "Five-sided die variant"
    source = "Senet – Regras da Partida (Variante do Projeto) (seed 003)"
    author = "a Portuguese game project"
    year = "2024"
    summary = "A modern variant with a five-sided die: 1 and 5 repeat, 26 and 29 are safe."
    reference = "none: the text"
    throw_model = D5
    first_side = Player.W
    bonus_throws = frozenset({1, 5})
    stop_on_26 = False
    exits = {26: frozenset({5})}
    safe = frozenset({26, 29})
    square_names = {
        15: "Casa da Ressurreição",
        26: "Casa da Beleza",
        27: "Casa da Água",
        28: "Casa dos Três Juízes",
        29: "Casa de Rá",
        30: "Casa de Hórus",
    }
