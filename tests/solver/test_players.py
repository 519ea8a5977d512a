"""Greedy, honest and clairvoyant players, and hints."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest
from helpers import late_position
from hypothesis import given, settings
from hypothesis import strategies as st

from devilsgrip.game import Game
from devilsgrip.i18n import set_language
from devilsgrip.notation import DEAL, Move, MoveKind, format_cards
from devilsgrip.records import read_record, write_record
from devilsgrip.solver import (
    HINT_CODES,
    SolveResult,
    choose_move,
    explain,
    hint,
    play_game,
    players,
    sample_game,
    solve,
)
from devilsgrip.solver.players import (
    InformationState,
    candidate_moves,
    guarded_choice,
    honest_move,
    information_state,
)
from devilsgrip.solver.rollouts import Table, apply, rollout_scores, table_of


@pytest.mark.parametrize("rules", ["classic", "single-pass", "literal"])
def test_greedy_plays_to_the_end(rules: str) -> None:
    game = play_game(Game(4, rules=rules), "greedy")
    assert game.is_over()
    assert read_record(write_record(game)).score == game.score


def test_clairvoyant_reaches_the_solver_score() -> None:
    # generous limits: the solve takes about 0.5 s alone, several times that on a loaded machine
    score = solve(Game(3), time_limit=60).score
    game = play_game(Game(3), "clairvoyant", time_limit=60)
    assert game.is_over() and game.score == score == 0


def _two_games_same_view(seed: int, rules: str = "classic") -> tuple[Game, Game]:
    """Two positions that agree on all a player sees: only the unseen order differs."""
    game = late_position(seed, 9, rules)
    while len(set(game.stock)) < 2:
        seed += 1000
        game = late_position(seed, 9, rules)
    stock = list(reversed(game.stock))  # top first
    other_stock = stock[1:] + stock[:1]
    assert other_stock != stock
    rows = [",".join(format_cards(p) for p in game.grid[r:r + 8]) for r in range(0, 24, 8)]

    def make(order: list[int]) -> Game:
        return Game.from_position(
            f"{'/'.join(rows)} {format_cards(order)} {format_cards(game.talon)} "
            f"{game.redeals_done} 0 {rules}")

    return make(stock), make(other_stock)


@pytest.mark.parametrize(("seed", "rules"), [
    (3, "classic"), (11, "classic"), (12, "classic"), (3, "single-pass"), (7, "literal"),
    (11, "single-pass"), (12, "literal"), (5, "single-pass,move_unit=card"),
    (8, "literal,move_unit=run")])
def test_honest_never_reads_the_hidden_order(seed: int, rules: str) -> None:
    a, b = _two_games_same_view(seed, rules)
    # everything a player sees agrees; only the end announcement may differ
    assert replace(a.view(), over=False) == replace(b.view(), over=False)
    assert a.stock != b.stock
    for player in ("honest", "greedy"):
        assert choose_move(a, player, time_limit=0.3) == choose_move(b, player, time_limit=0.3)
    ha, hb = hint(a, time_limit=0.3), hint(b, time_limit=0.3)
    assert ha == hb


def test_honest_plays_a_whole_game() -> None:
    game = play_game(late_position(5, 12, "classic"), "honest", time_limit=0.1, samples=3)
    assert game.is_over()


def test_sample_game_is_consistent_with_the_view() -> None:
    import random

    game = Game(8)
    game.play_all_text("d d")
    view = game.view()
    world = sample_game(view, random.Random(1))
    assert world.grid == game.grid and world.talon == game.talon
    assert sorted(world.stock) == sorted(game.stock)
    assert world.view().unseen == view.unseen


def test_unknown_player() -> None:
    with pytest.raises(ValueError):
        choose_move(Game(1), "oracle")


STUCK = ("2H,3D6D,7S,8C,JS,7CTC,7S,2C/KH,3C6C,JD,6C,QS,6H,8H,3S/5D,QC,QC,KH,KS,6H,2C,4D "
         "5STS8D4HKD6S8CJH4D7HTSQD5S9C8H5C3DTDTDQHKC7H7DJC7D5C9SKC6S2S9D9CTHQSJSTC5D5H8SJD"
         "3C4C2S2HKS9D4C3H3S4S9HTH8D3H7CQD8S2D6D4SJH5HJC 4HQH9HKD2D9S 0 5 classic")
"""A position of deal 11 where no card can come in: no build, the talon's 9♠ goes nowhere."""


ROUND_AGAIN = (
    "3S6S9SQS,JS,5H8HJH,4C7CTCKC,2C5C8CJC,2S5S8SJS,8DJD,4H7H/6D9D,2C5C,3C6C9CQC,KH,KC,2S5S,KH,"
    "4S7STSKS/7H,6C9C,3H6H9HQH,4D7D,3D6D9DQD,KS,4C7C,4D7DTDKD - QHTH5D5DJDQDKD2D4STS5H9S7S3H8H"
    "8C3S8S9H4HTHQC2D3D3C6H2HJCJHTC8D2H6SQSTD 2 268 classic")
"""The stock dealt out, the talon's 10♦ able to go on 7♦."""
SPENT = (
    "KH,7CTCKC,JD,5C8CJC,JH,KS,KD,4H7H/2H5H,QC,3C6C9CQC,KH,TSKS,9DQD,4D7D,5S8SJS/3D,5S8SJS,6H,"
    "6S9SQS,QH,QH,KD,2D - 8D7S6DKC5D2S4CQD8D3D4SJHTS9HJDJC3C9H2S3S6D7HTC8HTD4C9CTH9DTDTH7C8H3S"
    "7S3H7D5H3H2D4H9S2H8C5C4D2C5D2CQS6C6S6H4S 1 106 classic")
"""The stock dealt out, and nothing to play but the redeal."""


LITERAL_STOCK_OUT = (
    "5C8CJC,3D6D9D,4C7C,7DTDKD,9D,9SQS,3C6C9C,7H/4C,2S5S,QS,QC,3D,KH,9HQH,4D7DTD/4D,7S,TSKS,QC,"
    "2H5H8H,9H,8CJC,5D - 7C6H8S3S5S9SJS3HKS3S2DJS6DQD3HJHKCJHTH5DKH2CKC3CJD5HKD5C4H2D9CTC8HTC6C"
    "4HTS4STHQHJD6SQD6S8S8D2S4S2C2H6H8D7H7S 0 106 literal")
"""A ``literal`` game with its stock dealt out: the Q♣ of d2 can go on the 9♣ of g1."""


def test_hint_codes_and_text() -> None:
    set_language("en")
    game = Game(3)
    h = hint(game, time_limit=0.3)
    assert h is not None and h.code in HINT_CODES
    assert h.move in game.legal_moves
    assert h.text()
    d = h.to_dict()
    assert d["move"] == h.move.text() and d["code"] == h.code


def test_explain_reasons() -> None:
    set_language("en")
    # a talon build
    game = Game(3)
    game.play_all_text("d d")
    talon_move = next(m for m in game.legal_moves_no_swaps if m.kind == MoveKind.TALON)
    h = explain(game, talon_move)
    assert h.code == "talon-build"
    assert h.text().startswith("the ") and " goes on the " in h.text()
    # a deal where a card could come in says so, and where none could, that too
    assert explain(game, Move.from_text("d")).code == "deal-first"
    assert explain(game, Move.from_text("d")).text() == (
        "deal: see more cards before you use the moves you have")
    start = Game(1)  # builds that empty a cell, whose space the stock fills
    assert any(start.preview(m).emptied for m in start.generate_moves()
               if m.kind == MoveKind.BUILD)
    assert explain(start, Move.from_text("d")).code == "deal-first"
    stuck = Game.from_position(STUCK)
    assert not [m for m in stuck.generate_moves() if m.kind != MoveKind.DEAL]
    assert explain(stuck, Move.from_text("d")).code == "deal"
    assert explain(stuck, Move.from_text("d")).text() == "deal: no card can come in yet"
    # a redeal likewise: with a talon build there, or with nothing left to play
    around = Game.from_position(ROUND_AGAIN)
    assert explain(around, Move.from_text("r")).code == "redeal-first"
    assert explain(around, Move.from_text("r")).text() == (
        "turn the talon over: go round again before you use the moves you have")
    spent = Game.from_position(SPENT)
    assert [m.text() for m in spent.generate_moves()] == ["r"]
    assert explain(spent, Move.from_text("r")).text() == (
        "turn the talon over: nothing more can come in on this pass")
    # an emptying build when the stock is empty: the talon's top comes in
    text = (
        "2S5S,8SJS,3H6H9HQH,3D6D9DQD,3S6S9SQS,3H6H9HQH,3D6D9DQD,2H5H8HJH/"
        "4D7DTDKD,2D5D8DJD,4C7CTCKC,2C5C8CJC,4H7HTHKH,2H5H8HJH,4H7HTHKH,7DTDKD/"
        "2D5D8D,3C6C9CQC,3S6S9SQS,3C6C9CQC,4S7S,4S7STSKS,2C5C8CJC,4C7CTCKC "
        "- JDKSTS2S5S8SJS4D 0 0 classic"
    )
    game = Game.from_position(text)
    h = explain(game, Move.from_text("b1-a1"))
    assert h.code == "frees-space"
    assert h.text() == "frees a space: the 4 of diamonds can come in"
    # in literal nothing fills a space once the stock is out, talon or not
    game = Game.from_position(LITERAL_STOCK_OUT)
    assert game.talon and not game.stock
    h = explain(game, Move.from_text("d2-g1"))
    assert h.code == "leaves-space"
    assert h.text() == "empties its cell: nothing is left to fill the space"


def test_honest_never_peels_back_and_forth() -> None:
    # in card mode two peels can undo each other; the honest player once played
    # a3-f3 / f3-a3 for a thousand moves here
    game = play_game(Game(1, rules="literal"), "honest", time_limit=0.05)
    assert game.is_over()
    assert game.moves_played < 300
    builds = [m.text().split("-") for m in game.move_stack]
    for a, b in itertools.pairwise(builds):
        assert not (len(a) == len(b) == 2 and a == b[::-1]), (a, b)


@pytest.mark.parametrize(("scores", "chosen"), [
    ([[10, 20], [5, 25]], 0),  # better on one sample, worse on the other: no evidence
    ([[10, 12, 11], [8, 10, 9]], 1),  # 2 better on every sample
    ([[10, 10, 10, 10], [4, 10, 10, 10]], 0),  # mean -1.5, standard error 1.5: not 3 of them
    ([[10, 10], [8, 8], [5, 5]], 2),  # the clearest of two clear winners
    ([[10, 10], [10, 10]], 0),  # a tie keeps the default
    ([[9], [10], [12]], 0),  # one sample (the stock is known): only a better score moves
    ([[10], [9], [12]], 1),
])
def test_guarded_choice_leaves_the_default_only_on_clear_evidence(
        scores: list[list[int]], chosen: int) -> None:
    assert guarded_choice(scores, 0) == chosen


def test_guarded_choice_weighs_the_evidence_by_z() -> None:
    noisy = [[10, 10, 10, 10], [4, 10, 10, 10]]
    assert guarded_choice(noisy, 0, z=0.5) == 1
    assert guarded_choice(noisy, 0, z=1.0) == 0  # -1.5 is not below -1 x 1.5
    # the default need not be first
    assert guarded_choice([[12, 12], [10, 10]], 1) == 1
    assert guarded_choice([[10, 10], [12, 12]], 1) == 0


def _fake_solves(monkeypatch: pytest.MonkeyPatch, better: Move, by: list[int]) -> None:
    """The honest player's solves return 20 cards, less ``by[k]`` after ``better``
    on the k-th sample (a real solve is far too noisy to pin a choice)."""
    samples_seen = 0

    def fake(world: Game, **_: object) -> SolveResult:
        nonlocal samples_seen
        score = 20
        if world.move_stack[-1] == better:
            score -= by[samples_seen % len(by)]
            samples_seen += 1
        return SolveResult(score=score, proven=False, moves=(), nodes=1, seconds=0.0,
                           rules=str(world.rules))

    monkeypatch.setattr(players, "solve", fake)


def _last_pass_known_order() -> Game:
    """A last pass whose stock order the player knows: every card was seen before."""
    game = Game(2, rules="classic,redeals=1")
    while game.stock:
        game.play_text("d")
    game.play_text("r")
    for _ in range(6):
        game.play(choose_move(game, "greedy") or DEAL)
    assert game.view().stock_order is not None
    return game


@pytest.mark.parametrize(("by", "follows"), [([3], True), ([0], False), ([-2], False)])
def test_with_no_redeal_left_and_the_order_known_greedys_move_stays_unless_beaten(
        monkeypatch: pytest.MonkeyPatch, by: list[int], follows: bool) -> None:
    game = _last_pass_known_order()
    view = game.view(with_legal=False)
    moves = candidate_moves(view.grid, view.talon, view.stock_count, view)
    greedy = choose_move(game, "greedy")
    other = next(m for m in moves if m != greedy)
    _fake_solves(monkeypatch, other, by)
    # the one possible stock, solved: only a better score moves it
    assert (choose_move(game, "honest", time_limit=0.1) == other) is follows


def test_with_a_redeal_left_the_best_mean_of_the_solves_decides(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(2, rules="classic")
    for _ in range(6):
        game.play(choose_move(game, "greedy") or DEAL)
    view = game.view(with_legal=False)
    moves = candidate_moves(view.grid, view.talon, view.stock_count, view)
    greedy = choose_move(game, "greedy")
    other = next(m for m in moves if m != greedy)
    _fake_solves(monkeypatch, other, [9, -3])
    assert choose_move(game, "honest", time_limit=0.1) == other


def test_the_honest_player_decides_from_the_information_state_alone() -> None:
    game = Game(6, rules="single-pass")
    for _ in range(8):
        game.play(choose_move(game, "greedy") or DEAL)
    info = information_state(game)
    assert isinstance(info, InformationState) and info.view == game.view(with_legal=False)
    assert honest_move(info, 0, 0.2, 6) == choose_move(game, "honest", time_limit=0.2)


def test_rollouts_judge_every_move_on_the_same_stock_orders() -> None:
    import random

    game = Game(9, rules="single-pass")
    game.play_all_text("d d")
    view = game.view(with_legal=False)
    moves = candidate_moves(view.grid, view.talon, view.stock_count, view)
    scores = rollout_scores(view, [moves[0], moves[-1], moves[0]], random.Random(4), 3000)
    assert scores[0] == scores[2]  # the same move on the same orders: the same scores
    assert len(scores[0]) == len(scores[1]) >= 8
    assert scores[0] != scores[1] or moves[0] == moves[-1]


def _model_of(game: Game) -> Table:
    return table_of(game.view(), list(reversed(game.stock)))


@settings(max_examples=40, deadline=None)
@given(number=st.integers(1, 10**6), rules=st.sampled_from(
    ["single-pass", "literal", "single-pass,move_unit=card", "literal,move_unit=run"]),
       picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=120))
def test_the_rollout_model_plays_moves_as_the_engine_does(
        number: int, rules: str, picks: list[int]) -> None:
    game = Game(number, rules=rules)
    model = _model_of(game)
    for pick in picks:
        legal = [m for m in game.generate_moves(swaps=False) if m.kind != MoveKind.REDEAL]
        if not legal:
            break
        move = legal[pick % len(legal)]
        game.push(move)
        apply(model, move)
        assert model == _model_of(game), move.text()


def test_the_honest_player_needs_a_sample() -> None:
    with pytest.raises(ValueError, match="samples must be at least 1, not 0"):
        choose_move(Game(2, rules="single-pass"), "honest", samples=0)
