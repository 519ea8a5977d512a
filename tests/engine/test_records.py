"""Game records: export, import, verified replay, given-up games."""

from __future__ import annotations

import random
import re

import pytest

from devilsgrip import Game, RecordError, Rules, Status
from devilsgrip.notation import format_deck
from devilsgrip.records import read_record, write_record


def played(number: int, steps: int, rules: str = "classic", seed: int = 0) -> Game:
    rng = random.Random(seed)
    game = Game(number, rules=rules)
    for _ in range(steps):
        moves = game.generate_moves(swaps=rng.random() < 0.1)
        builds = [m for m in moves if m.text() not in ("d", "r")]
        game.play(rng.choice(builds if builds and rng.random() < 0.7 else moves))
    return game


def tags(record: str) -> dict[str, str]:
    return dict(re.findall(r'^\[(\w+) "([^"]*)"\]$', record, flags=re.MULTILINE))


def test_record_shape() -> None:
    game = played(12, 40, "single-pass,redeals=2")
    text = write_record(game)
    t = tags(text)
    assert Rules.parse(t["Rules"]) == Rules.parse("single-pass,redeals=2") == game.rules
    assert t["Game"] == "12"
    assert t["Moves"] == "40"
    assert t["Score"] == str(game.score)
    assert t["Result"] == game.status.value
    body = text.split("\n\n", 1)[1]
    assert body.split()[:2] == ["1.", game.move_stack[0].text()]
    assert f"40. {game.move_stack[-1].text()}" in body
    assert all(len(line) <= 78 for line in body.splitlines())


def test_round_trip_numbered_deck_and_position_starts() -> None:
    game = played(12, 60, "literal")
    again = read_record(write_record(game))
    assert again.key() == game.key() and again.move_stack == game.move_stack
    assert again.number == 12 and again.rules == game.rules
    # a deck start
    deck_game = Game(deck=format_deck(Game(12).deck or ()), rules="literal")
    deck_game.play_all(game.move_stack)
    text = write_record(deck_game)
    assert "[Deck " in text and "[Game " not in text
    assert read_record(text).key() == game.key()
    # a position start
    mid = Game.from_position(played(5, 30).position())
    mid.play_all([m for m in mid.generate_moves()][:1])
    text = write_record(mid)
    assert "[Position " in text
    assert read_record(text).key() == mid.key()


def test_finished_games_say_so() -> None:
    game = Game(7, rules="single-pass")
    rng = random.Random(7)
    while not game.is_over():
        moves = game.generate_moves()
        better = [m for m in moves if m.text() != "d"]
        game.play(rng.choice(better) if better and rng.random() < 0.5 else moves[0])
        if game.moves_played > 3000:
            pytest.fail("no end")
    text = write_record(game)
    assert tags(text)["Result"] in ("over", "won")
    assert text.rstrip().endswith(f"{{over, score {game.score}}}") or game.is_won()
    assert read_record(text).status == game.status


def test_given_up_game_says_so_with_the_score() -> None:
    game = played(3, 25)
    game.give_up()
    text = write_record(game)
    assert tags(text)["Result"] == "given up"
    assert text.rstrip().endswith(f"{{given up, score {game.score}}}")
    again = read_record(text)
    assert again.status == Status.GIVEN_UP and again.given_up
    assert again.score == game.score


def test_extra_tags_kept_and_comments_ignored() -> None:
    game = played(9, 10)
    game.tags["Player"] = 'Ann "the \\ best"'
    text = write_record(game)
    again = read_record(text.replace("\n\n", "\n\n{a comment} ; a line comment\n"))
    assert again.tags["Player"] == 'Ann "the \\ best"'
    assert write_record(again) == text


def tampered(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


def test_verified_replay_rejects_tampering() -> None:
    game = played(21, 30)
    text = write_record(game)
    t = tags(text)
    bad = {
        "score": tampered(text, f'[Score "{t["Score"]}"]', f'[Score "{int(t["Score"]) - 1}"]'),
        "result": tampered(text, '[Result "in progress"]', '[Result "won"]'),
        "moves-tag": tampered(text, '[Moves "30"]', '[Moves "29"]'),
        "given-up": tampered(text, '[Result "in progress"]', '[Result "over"]'),
    }
    for name, record in bad.items():
        with pytest.raises(RecordError) as info:
            read_record(record)
        assert info.value.code == "record-mismatch", name
    # a move removed from the body: the Moves and Score tags disagree
    first = game.move_stack[-1].text()
    body_cut = re.sub(rf"30\. {re.escape(first)}", "", text)
    with pytest.raises(RecordError):
        read_record(body_cut)
    # without verification the same record loads
    assert read_record(bad["score"], verify=False).key() == game.key()


def test_illegal_move_in_record_names_number_and_text() -> None:
    game = played(21, 5)
    text = write_record(game)
    # the 3rd move replaced by one that is never legal at the start of play
    stack = game.move_stack
    broken = text.replace(f"3. {stack[2].text()}", "3. r", 1)
    with pytest.raises(RecordError) as info:
        read_record(broken)
    assert info.value.code == "record-illegal-move"
    assert info.value.params["number"] == 3
    assert info.value.params["move"] == "r"
    assert info.value.params["reason"] == "stock-not-empty"  # two moves deal 6 cards at most
    assert "move 3 'r'" in info.value.message


@pytest.mark.parametrize(
    ("record", "code"),
    [
        ('[Rules "classic"]\n\n1. d *\n', "record-no-start"),
        ('[Game "x"]\n\n*\n', "record-bad-game"),
        ('[Game "0"]\n\n*\n', "game-number-range"),
        ('[Game "1"]\n[Rules "nope"]\n\n*\n', "rules-unknown-preset"),
        ('[Game "1" oops\n\n*\n', "record-bad-tag"),
        ('[Game "1"]\n\n1. zz *\n', "record-illegal-move"),
        ('[Deck "2S 3S"]\n\n*\n', "deck-wrong-cards"),
    ],
)
def test_bad_records(record: str, code: str) -> None:
    with pytest.raises(RecordError) as info:
        read_record(record)
    assert info.value.code == code
