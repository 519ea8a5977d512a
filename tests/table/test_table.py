"""The table layer: the drop policy, the words, the labels, the settings' text."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from devilsgrip import table
from devilsgrip.cards import CELL_NAMES
from devilsgrip.errors import IllegalMoveError, MoveError
from devilsgrip.game import Game
from devilsgrip.i18n import LANGUAGES
from devilsgrip.notation import DEAL, MoveKind, grid_build, swap, talon_build
from devilsgrip.session import PlaySession
from devilsgrip.solver import explain
from devilsgrip.table import STOCK, TALON, Words

NOTATION = re.compile(r"\b(?:[a-h][1-3]|t)\s*[-=]\s*[a-h][1-3]\b")
"""Move notation (``a1-c2``, ``a1=c2``, ``t-c2``) inside a sentence."""


def a_sentence(text: str) -> bool:
    return bool(text) and not text[0].islower() and text.rstrip()[-1] in ".!?…"


# ------------------------------------------------------------ drop policy
def test_a_legal_build_is_played() -> None:
    game = Game(5)
    build = next(m for m in game.generate_moves() if m.kind == MoveKind.BUILD)
    assert table.drop_move(game, build.src, build.dst) == build


def test_a_drop_on_a_pile_that_does_not_take_it_is_refused_never_swapped() -> None:
    game = Game(5)  # 3 of diamonds in a1, 9 of diamonds in b1
    with pytest.raises(IllegalMoveError) as info:
        table.drop_move(game, 0, 1)
    assert info.value.code == "card-is-base"
    assert table.refusal(game, 0, 1) is not None
    assert game.moves_played == 0


def test_a_pile_dropped_on_an_empty_cell_swaps_and_a_swap_is_deliberate() -> None:
    game = Game(5)
    build = next(m for m in game.generate_moves()
                 if m.kind == MoveKind.BUILD and len(game.grid[m.src]) == 1)
    # an empty cell: the position after the build, with nothing left to fill it
    position = game.position().split()
    position[1], position[2] = "-", position[1]
    position[5] = "classic,fill_from_talon=false"
    spaced = Game.from_position(" ".join(position))
    spaced.play(build)
    assert not spaced.grid[build.src]
    other = next(c for c in range(24) if spaced.grid[c])
    assert table.drop_move(spaced, other, build.src) == swap(other, build.src)
    assert table.swap_move(spaced, 0, 1) == swap(0, 1)
    with pytest.raises(IllegalMoveError) as info:
        table.swap_move(spaced, 3, 3)
    assert info.value.code == "move-same-cell"
    with pytest.raises(IllegalMoveError):
        table.swap_move(spaced, 3, TALON)


def test_the_talon_builds_and_nothing_drops_on_the_stock_or_the_talon() -> None:
    game = Game(5)
    game.play(DEAL)
    for cell in range(24):
        if game.reason(talon_build(cell)) is None:
            assert table.drop_move(game, TALON, cell) == talon_build(cell)
        else:
            assert table.refusal(game, TALON, cell) is not None
    assert table.drop_move(game, 4, 4) is None  # dropped back where it was: put back
    for target in (STOCK, TALON):
        problem = table.refusal(game, 0, target)
        assert problem is not None and problem.code == "drop-off-grid"


def test_nothing_is_picked_up_from_an_empty_place() -> None:
    game = Game(5)
    problem = table.pick_up_refusal(game, TALON)
    assert problem is not None and problem.code == "talon-empty"
    assert table.pick_up_refusal(game, 0) is None
    assert table.pick_up_refusal(game, STOCK) is None
    assert table.stock_move(game) == DEAL


def test_targets_are_the_legal_builds() -> None:
    game = Game(1)
    for place in range(24):
        want = sorted(m.dst for m in game.generate_moves()
                      if m.kind == MoveKind.BUILD and m.src == place)
        assert sorted(table.targets(game, place)) == want


def test_places_have_names() -> None:
    assert [table.parse_place(table.place_name(p)) for p in table.PLACES] == list(table.PLACES)
    with pytest.raises(MoveError):
        table.parse_place("i9")
    assert table.move_places(grid_build(0, 9)) == (0, 9)
    assert table.move_places(talon_build(3)) == (TALON, 3)
    assert table.move_places(DEAL) == (STOCK,)


# ------------------------------------------------------------------ words
def test_a_build_is_told_in_words() -> None:
    game = Game(5)
    build = next(m for m in game.generate_moves() if m.kind == MoveKind.BUILD)
    card = game.grid[build.src][-1]
    onto = game.grid[build.dst][-1]
    fill = game.stock[-1]
    text = table.say_event(table.act(game, build), game, Words("en"))
    en = Words("en")
    assert text == (f"{en.card(card)} from {CELL_NAMES[build.src]} onto {en.card(onto)} "
                    f"in {CELL_NAMES[build.dst]}. {en.card(fill)} from the stock fills "
                    f"{CELL_NAMES[build.src]}.")


def test_a_hint_never_tells_the_card_the_stock_would_give() -> None:
    game = Game(5)
    build = next(m for m in game.generate_moves() if m.kind == MoveKind.BUILD)
    hidden = Words("en").card(game.stock[-1])
    text = table.say_hint(explain(game, build), game, Words("en"))
    assert text.startswith("Hint: ") and hidden not in text.removeprefix("Hint: ")[:40]
    assert "stock" in text and not NOTATION.search(text)


def test_errors_are_sentences_in_the_players_language() -> None:
    game = Game(5)
    problem = table.refusal(game, 0, 1)
    assert problem is not None
    english, french = table.say_error(problem, Words("en")), table.say_error(problem, Words("fr"))
    assert a_sentence(english) and a_sentence(french) and english != french


def test_labels_are_translated() -> None:
    assert table.preset_label("single-pass", Words("en")) == "Single pass"
    assert table.preset_label("single-pass", Words("fr")) != "Single pass"
    assert table.rules_label("classic,draw=1", Words("en")) == "Classic (draw=1)"
    assert table.status_label("over", Words("en")) == "game over"
    assert table.deal_label(Game(5), Words("en")) == "Game 5"


def test_settings_read_back_as_written() -> None:
    saved = {key: table.encode_setting(value) for key, value in
             {"four_colour": True, "animation": "fast", "lang": "hu",
              "rules": "single-pass", "winnable": True}.items()}
    assert saved["four_colour"] == "1"
    assert table.decode_settings(saved) == dict(table.DEFAULT_SETTINGS) | {
        "four_colour": True, "animation": "fast", "lang": "hu", "rules": "single-pass",
        "winnable": True}
    assert table.decode_settings({"four_colour": "x", "animation": "warp", "lang": "xx",
                                  "rules": "nonsense"}) == dict(table.DEFAULT_SETTINGS)
    assert table.rules_parts("literal,redeals=2") == {
        "preset": "literal", "options": {"draw": "3", "redeals": "2", "move_unit": "card",
                                         "fill_from_talon": "false"}}


def test_sounds_on_and_guide_unseen_until_the_player_says_otherwise() -> None:
    assert table.DEFAULT_SETTINGS[table.SOUNDS] is True
    assert table.DEFAULT_SETTINGS[table.GUIDE_SEEN] is False
    saved = {table.SOUNDS: table.encode_setting(False),
             table.GUIDE_SEEN: table.encode_setting(True)}
    settings = table.decode_settings(saved)
    assert settings[table.SOUNDS] is False and settings[table.GUIDE_SEEN] is True
    assert table.decode_settings({table.GUIDE_SEEN: "yes"})[table.GUIDE_SEEN] is False
    assert {table.SOUNDS, table.GUIDE_SEEN} <= set(table.SETTING_KEYS)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 10**6), st.sampled_from(["classic", "single-pass", "literal"]),
       st.sampled_from(LANGUAGES), st.integers(0, 2**32 - 1))
def test_every_sentence_is_words_never_notation(number: int, rules: str, lang: str,
                                                seed: int) -> None:
    """Moves, undos, redos, picks, refusals, hints and the end: capitalised sentences,
    with a full stop, and never a move in notation."""
    words = Words(lang)
    session = PlaySession.start(None, number=number, rules=rules)
    rng = random.Random(seed)
    said: list[str] = []
    for _ in range(80):
        game = session.game
        if session.final:
            break
        place = rng.randrange(26)
        if table.pick_up_refusal(game, place) is None and place != STOCK:
            said.append(table.say_picked(game, place, words))
            problem = table.refusal(game, place, rng.randrange(26))
            if problem is not None:
                said.append(table.say_error(problem, words))
        roll = rng.random()
        if roll < 0.1 and session.can_undo:
            said.append(table.say_event(table.undo(session), session.game, words))
        elif roll < 0.15 and session.can_redo:
            said.append(table.say_event(table.redo(session), session.game, words))
        else:
            moves = game.generate_moves(swaps=roll > 0.95)
            if not moves:
                break
            move = rng.choice(moves)
            said.append(table.say_hint(explain(game, move), game, words))
            said.append(table.say_event(table.play(session, move), session.game, words))
        end = table.say_end(session, words)
        if end:
            said.append(end)
    if not session.final and session.has_moves:
        fresh, event = table.new_game(session, number=1)
        said.append(table.say_event(event, fresh.game, words))
    for text in said:
        assert a_sentence(text), text
        assert not NOTATION.search(text), text


def test_a_running_review_is_as_far_as_its_positions_or_its_time() -> None:
    """Every screen shows a running review the same way: the share of its positions
    solved or of its most time, whichever is further, never full before it ends."""
    assert table.review_share(3, 10, 1.0, 10.0) == pytest.approx(0.3)
    assert table.review_share(1, 100, 5.0, 10.0) == pytest.approx(0.5)
    assert table.review_share(100, 100, 1.0, 10.0) == table.REVIEW_SHARE_BEFORE_END
    assert table.review_share(0, 50, 30.0, 10.0) == table.REVIEW_SHARE_BEFORE_END
    assert table.review_share(0, 0, 0.0, 0.0) == 0.0
    assert table.say_review_progress(3.4, 10.0, Words("en")) == \
        "Reviewing the game… 3 s of at most 10 s"
    assert table.say_review_progress(3.6, 10.0, Words("fr")) == \
        "Analyse de la partie… 4 s sur 10 s au plus"


@given(done=st.integers(0, 300), total=st.integers(0, 300),
       elapsed=st.floats(0, 100), limit=st.floats(0, 100))
def test_a_running_review_never_shows_more_than_it_did_later(
        done: int, total: int, elapsed: float, limit: float) -> None:
    """More positions solved or more time taken never shows less."""
    share = table.review_share(done, total, elapsed, limit)
    assert 0.0 <= share <= table.REVIEW_SHARE_BEFORE_END
    assert table.review_share(done + 1, total, elapsed, limit) >= share
    assert table.review_share(done, total, elapsed + 1.0, limit) >= share


def test_a_review_is_only_for_a_game_that_ended_and_is_kept(tmp_path: Path) -> None:
    from devilsgrip.solver import play_game
    from devilsgrip.store import Store

    with Store.open(tmp_path / "g.sqlite3") as store:
        session = PlaySession.start(store, number=7)
        moves = play_game(Game(7), "greedy").move_stack
        session.play(moves[0])
        with pytest.raises(IllegalMoveError) as info:
            table.review_session(session, time_limit=2)
        assert info.value.code == "game-live" and not session.final
        for move in moves[1:]:
            session.play(move)
        assert session.game.is_over() and not session.final
        calls: list[tuple[int, int]] = []
        review = table.review_session(session, time_limit=10,
                                      progress=lambda done, total: calls.append((done, total)))
        assert session.final and calls and calls[-1][0] == calls[-1][1]
        assert session.game_id is not None and store.review(session.game_id) is not None
        again = table.review_session(session, time_limit=10)  # kept: not worked out again
        assert again.to_dict() == review.to_dict()
        text = table.say_review(review, session.game, Words("fr"))
        assert text.startswith(("Gagnable jusqu'au coup", "Gagnable au moins jusqu'au coup"))
        assert not NOTATION.search(text)


def test_a_review_made_again_keeps_the_one_that_proves_more(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Asked again (a longer look), the game is reviewed anew: the new review is kept where
    it proves at least as many values, the kept one where the new proves fewer."""
    from dataclasses import replace

    import devilsgrip.review
    from devilsgrip.solver import play_game
    from devilsgrip.solver.search import entries_within
    from devilsgrip.store import Store

    with Store.open(tmp_path / "g.sqlite3") as store:
        session = PlaySession.start(store, number=143)
        for move in play_game(Game(143), "greedy").move_stack:
            session.play(move)
        short = table.review_session(session, time_limit=0.2)
        assert short.proven_share < 1
        assert table.review_session(session, time_limit=5.0).to_dict() == short.to_dict()
        longer = table.review_session(session, time_limit=1.5, again=True)
        assert longer.proven_share >= short.proven_share
        assert session.game_id is not None
        assert store.review(session.game_id) == longer.to_dict()
        # a review anew that proves fewer values (a busy machine) leaves the kept one
        worse = replace(longer, start_proven=False,
                        moves=[replace(m, proven=False) for m in longer.moves])
        asked: dict[str, object] = {}

        def made(*args: object, **kwargs: object) -> object:
            asked.update(kwargs)
            return worse

        monkeypatch.setattr(devilsgrip.review, "review_game", made)
        assert table.review_session(session, time_limit=1.0, again=True).to_dict() == \
            longer.to_dict()
        assert store.review(session.game_id) == longer.to_dict()
        assert asked["table_entries"] is None  # a short review: the core's default table
        # a longer look of a minute gets room for its long proofs
        table.review_session(session, time_limit=60.0, again=True)
        assert asked["table_entries"] == entries_within(table.long_search_memory())


def test_moves_as_arrows_and_costly_moves_in_words() -> None:
    from devilsgrip.notation import Move
    from devilsgrip.review import MoveReview, Review

    assert table.move_arrow(DEAL) == (STOCK, TALON)
    assert table.move_arrow(Move.from_text("r")) == (TALON, STOCK)
    assert table.move_arrow(talon_build(5)) == (TALON, 5)
    assert table.move_arrow(grid_build(0, 9)) == (0, 9)
    assert table.move_arrow(swap(3, 4)) == (3, 4)
    game = Game(1)
    game.play_all_text("d d")
    before = Game(1)  # the position before move 2, where the better move is legal
    before.play_text("d")
    better = next(m for m in before.generate_moves() if m.text() != "d")
    review = Review("classic", game.score, 0, True, [
        MoveReview(1, "d", 0, True, 0, None, None),
        MoveReview(2, "d", 3, False, 3, better.text(), "hindsight")])
    (costly,) = table.costly_moves(review, game, Words("en"))
    assert (costly.n, costly.cost, costly.best, costly.proven) == (2, 3, 3, False)
    assert costly.line.startswith("Move 2: dealing ") and "best after ~3" in costly.line
    assert costly.played_text.startswith("Played: dealing ") and a_sentence(costly.played_text)
    assert costly.better_text.startswith("Better: ") and a_sentence(costly.better_text)
    assert costly.seen_words == "Only the order of the stock showed it."
    assert costly.played_arrow == (STOCK, TALON)
    assert costly.better_arrow == table.move_arrow(better)
    french = table.costly_moves(review, game, Words("fr"))[0]
    assert french.line != costly.line and not NOTATION.search(french.played_text)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_lost_win_not_proven_is_told_as_such(lang: str) -> None:
    """The story says "winnable until move n" only when no win is proven left after move
    n; when no win was found after it but none was proven impossible, it says that.  A
    loss proven by the win search, with the value after it only the best line found,
    says both."""
    from devilsgrip.review import MoveReview, Review

    game = Game(1)
    game.play_all_text("d d")
    before = Game(1)
    before.play_text("d")
    better = next(m for m in before.generate_moves() if m.text() != "d")
    words = Words(lang)
    stories = {}
    for value, lost in ((True, True), (False, True), (False, False)):
        review = Review("classic", game.score, 0, True, [
            MoveReview(1, "d", 0, True, 0, None, None),
            MoveReview(2, "d", 3, value, 3, better.text(), "hindsight")], first_lost_win=2,
            first_lost_win_proven=lost)
        stories[value, lost] = table.say_review(review, game, words)
    known, searched, unknown = stories[True, True], stories[False, True], stories[False, False]
    assert len({known, searched, unknown}) == 3
    for text in (known, searched, unknown):
        assert a_sentence(text) and not NOTATION.search(text) and "2" in text and "3" in text
    if lang == "en":
        assert known.startswith("Winnable until move 2. ")
        assert "the best possible was 3" in known
        assert searched.startswith("Winnable until move 2. ")
        assert "left the win behind" in searched and "the best line found left 3" in searched
        assert unknown.startswith("Winnable at least until move 2. After dealing ")
        assert "could not prove there was none" in unknown
        assert "the best line found left 3" in unknown
        # what is not proven is said after the story, by its share
        assert "~" not in unknown
        assert table.say_open_values(review, words) == (
            "67% of the values are proven; those marked ~ are the best lines found in the "
            "time allowed.")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_win_lost_by_the_first_move_is_told_from_the_deal(lang: str) -> None:
    from devilsgrip.review import MoveReview, Review

    game = Game(1)
    game.play_text("d")
    better = next(m for m in Game(1).generate_moves() if m.text() != "d")
    words = Words(lang)
    for proven in (True, False):
        review = Review("classic", game.score, 0, True, [
            MoveReview(1, "d", 3, False, 3, better.text(), "hindsight")], first_lost_win=1,
            first_lost_win_proven=proven)
        text = table.say_review(review, game, words)
        assert text.startswith(words.gettext("Winnable from the deal.") + " ")
        assert a_sentence(text) and not NOTATION.search(text)
        if lang == "en":
            assert ("left the win behind" in text) == proven
            assert "move 1" not in text


def test_the_history_lists_finished_games_latest_first(tmp_path: Path) -> None:
    from devilsgrip.store import Store

    with Store.open(tmp_path / "h.sqlite3") as store:
        first = PlaySession.start(store, number=1, owner="web:a")
        first.play_text("d")
        first.give_up()
        live = PlaySession.start(store, number=2, owner="web:a")
        live.play_text("d")
        other = PlaySession.start(store, number=3, owner="web:b")
        other.play_text("d")
        other.give_up()
        second = PlaySession.start(store, number=4, rules="single-pass", owner="web:a")
        second.play_text("d")
        second.give_up()
        assert first.game_id is not None and second.game_id is not None
        store.save_review(first.game_id, {"rules": "classic"})
        entries, total = table.history(store, "web:a", Words("en"))
        assert total == 2
        assert [e.game_id for e in entries] == [second.game_id, first.game_id]
        latest, earlier = entries
        assert (latest.deal, latest.rules, latest.status_label) == (
            "Game 4", "Single pass", "given up")
        assert (earlier.reviewed, latest.reviewed) == (True, False)
        assert earlier.rating == "none" and earlier.moves == 1 and earlier.score == 72
        assert table.history(store, "web:a", Words("en"), limit=1)[0] == [latest]
        danish = table.history(store, "web:a", Words("da"))[0][0]
        assert danish.rules != latest.rules and danish.status_label != latest.status_label


# ------------------------------------------------------------ deal numbers
@pytest.mark.parametrize("typed, number", [
    ("5", 5), (" 42 ", 42), ("0042", 42), (7, 7),
    ("9007199254740993", 2**53 + 1), ("9223372036854775807", 2**63 - 1),
])
def test_a_deal_number_is_read_exactly_from_text(typed: int | str, number: int) -> None:
    assert table.read_deal_number(typed) == number


@pytest.mark.parametrize("typed, code", [
    ("0", "game-number-range"), (0, "game-number-range"),
    ("9223372036854775808", "game-number-range"), ("9" * 5000, "game-number-range"),
    ("-3", "game-number-bad"), (-3, "game-number-bad"), ("1.5", "game-number-bad"),
    ("", "game-number-bad"), ("٣", "game-number-bad"), ("1e3", "game-number-bad"),
    (2.5, "game-number-bad"), (True, "game-number-bad"),
])
def test_a_bad_deal_number_gets_the_games_own_reason(typed: object, code: str) -> None:
    from devilsgrip.errors import DeckError

    with pytest.raises(DeckError) as caught:
        table.read_deal_number(typed)  # type: ignore[arg-type]
    assert caught.value.code == code
    for lang in LANGUAGES:
        text = table.say_error(caught.value, Words(lang))
        assert text and text[0].isupper() and text.endswith(".")


def test_refusals_asked_before_acting_match_the_refusal_of_the_act() -> None:
    session = PlaySession.start(None, number=5)
    assert table.drop_refusal(session, 0, 1) is not None
    with pytest.raises(IllegalMoveError) as caught:
        table.play(session, table.drop_move(session.game, 0, 0) or grid_build(0, 1))
    assert caught.value.code == table.drop_refusal(session, 0, 1).code  # type: ignore[union-attr]
    assert table.move_refusal(session, DEAL) is None
    assert table.swap_refusal(session, 0, 1) is None  # the deliberate swap would be played
    assert table.swap_refusal(session, TALON, 1).code == "swap-off-grid"  # type: ignore[union-attr]
    assert table.swap_refusal(session, 1, 1).code == "move-same-cell"  # type: ignore[union-attr]
    session.give_up()
    assert table.move_refusal(session, DEAL).code == "game-finished"  # type: ignore[union-attr]
    assert table.drop_refusal(session, 0, 1).code == "game-finished"  # type: ignore[union-attr]
    assert table.swap_refusal(session, 0, 1).code == "game-finished"  # type: ignore[union-attr]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_game_given_up_tells_what_was_still_possible(lang: str) -> None:
    from devilsgrip.review import MoveReview, Review

    words = Words(lang)
    game = Game(1)
    game.play_all_text("d d")
    game.give_up()
    stories = {}
    for last in (0, 3):
        review = Review("classic", game.score, 0, True, [
            MoveReview(1, "d", 0, True, 0, None, None),
            MoveReview(2, "d", last, True, last, None, None)],
            first_lost_win=None if last == 0 else 2)
        stories[last] = table.say_review(review, game, words)
    fresh = Game(1)
    fresh.give_up()
    stories[-1] = table.say_review(Review("classic", fresh.score, 0, True, []), fresh, words)
    assert len(set(stories.values())) == 3
    for text in stories.values():
        assert a_sentence(text) and not NOTATION.search(text)
    if lang == "en":
        assert stories[0].endswith(
            "The game ended at 72. It was given up after 2 moves, when it could still be won.")
        assert stories[3].endswith("It was given up after 2 moves, when 3 was still possible.")
        assert stories[-1] == ("Winnable from the deal. The game ended at 72. "
                               "It was given up before its first move.")
    played = Game(1)
    played.play_all_text("d d")  # over by the cards, not given up: no such words
    review = Review("classic", played.score, 0, True, [
        MoveReview(1, "d", 0, True, 0, None, None), MoveReview(2, "d", 0, True, 0, None, None)])
    assert words.gettext("It was given up before its first move.") not in \
        table.say_review(review, played, words)
    assert "given up" not in table.say_review(review, played, Words("en"))


def test_a_review_says_how_much_of_it_is_proven_where_values_are_open() -> None:
    """The share of values proven, as a percentage in the player's language, where some
    are only the best lines found; nothing where every value is proven."""
    from devilsgrip.review import MoveReview, Review

    moves = [MoveReview(1, "d", 0, True, 0, None, None),
             MoveReview(2, "d", 3, False, 3, None, None),
             MoveReview(3, "d", 3, True, 0, None, None)]
    review = Review("classic", 3, 0, True, moves)
    assert review.proven_share == 0.75
    assert table.say_open_values(review, Words("en")) == (
        "75% of the values are proven; those marked ~ are the best lines found in the time "
        "allowed.")
    french = table.say_open_values(review, Words("fr"))
    assert french is not None and french.startswith("75\xa0% des valeurs")
    proven = Review("classic", 3, 0, True, [replace(m, proven=True) for m in moves])
    assert table.say_open_values(proven, Words("en")) is None


def test_a_long_search_gets_a_larger_table_where_the_machine_has_room(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """From LONG_SEARCH seconds on, a twelfth of the machine's memory, at most
    LONG_SEARCH_MEMORY; the default table where that is no more, where the memory is not
    told, or with the pure-Python core; what was asked for, whatever the time."""
    from devilsgrip.solver import core
    from devilsgrip.table import reviews

    def machine(mib: int | None) -> int | None:
        monkeypatch.setattr(reviews, "machine_megabytes", lambda: mib)
        return reviews.long_search_memory()

    def room(time_limit: float, memory: int | None = None) -> int | None:
        with table.search_room(time_limit, memory) as mib:
            return mib

    if core.compiled() is not None:
        assert machine(24 * 1024) == reviews.LONG_SEARCH_MEMORY
        assert room(reviews.LONG_SEARCH) == reviews.LONG_SEARCH_MEMORY
        assert room(reviews.LONG_SEARCH - 0.1) is None
        assert room(600.0, 64) == 64
        assert machine(8 * 1024) == 682
    assert machine(2 * 1024) is None  # 170 MiB: less than the default table
    assert room(600.0) is None
    assert machine(None) is None
    monkeypatch.setattr(core, "compiled", lambda: None)
    assert machine(24 * 1024) is None


def test_no_more_than_two_long_searches_hold_the_larger_table_at_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Players looking longer together: the first two get the larger table, the next
    the default one until one of them ends (an error ends it too); a search of a set
    memory or a short one takes no share of it."""
    from devilsgrip.table import reviews

    monkeypatch.setattr(reviews, "long_search_memory", lambda: 1536)
    assert table.LONG_SEARCHES_AT_ONCE == 2
    with table.search_room(60.0) as first, table.search_room(30.0) as second:
        assert (first, second) == (1536, 1536)
        with table.search_room(60.0) as third:
            assert third is None
        with table.search_room(60.0, 64) as asked, table.search_room(10.0) as short:
            assert (asked, short) == (64, None)
    with pytest.raises(RuntimeError), table.search_room(60.0) as again:
        assert again == 1536
        with table.search_room(60.0) as other:
            assert other == 1536
            raise RuntimeError("the search failed")
    with table.search_room(60.0) as first, table.search_room(60.0) as second:
        assert (first, second) == (1536, 1536)


def test_a_third_longer_look_at_once_runs_with_the_default_table(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Through the review of a stored game: while two long searches hold the larger
    table, a longer look runs all the same, with the core's default table."""
    import devilsgrip.review
    from devilsgrip.solver import play_game
    from devilsgrip.solver.search import entries_within
    from devilsgrip.store import Store
    from devilsgrip.table import reviews

    monkeypatch.setattr(reviews, "long_search_memory", lambda: 1536)
    asked: list[object] = []
    real = devilsgrip.review.review_game

    def review_game(*args: Any, **kwargs: Any) -> Any:
        asked.append(kwargs["table_entries"])
        return real(*args, **{**kwargs, "time_limit": 0.2, "table_entries": None})

    monkeypatch.setattr(devilsgrip.review, "review_game", review_game)
    with Store.open(tmp_path / "g.sqlite3") as store:
        session = PlaySession.start(store, number=143)
        for move in play_game(Game(143), "greedy").move_stack:
            session.play(move)
        with table.search_room(60.0), table.search_room(60.0):
            table.review_session(session, time_limit=60.0, again=True)
        table.review_session(session, time_limit=60.0, again=True)
    assert asked == [None, entries_within(1536)]


def test_picking_up_a_pile_says_which_card_moves_to_each_cell() -> None:
    """In ``run`` mode a pile's lower card may move with the cards above it: the sentence
    names that card for the cells that take it, as the engine moves them."""
    game = Game.from_position(
        "8C,7DTD,2C,4H,2D,5S8S,6S,4C/KS,4S,JH,3H,QC,7H,6S9S,9D/8H,4S,5C,JD,5D,6D,3C,3S "
        "KH4DTS9DTHKSJS6H9S9HKCTCKCKD9C7CJHJS6C6H5SQSTSKD8D8HQS2SJCQH2CJC7S5H9H3H5CTD7HQH7C"
        "2S6D6C5DQD3D8C4D4CQDJDKHTH7D2H9C7S5H8D4H2D3C8S3D3SQC 2HTC 0 4 classic")
    g2 = CELL_NAMES.index("g2")
    assert table.say_picked(game, g2, Words("en")) == (
        "Picked up 9♠ from g2: it can go on g1; 6♠ with the card above it can go on h3.")
    assert table.say_picked(game, g2, Words("fr")).endswith(
        "6♠, avec 1 carte au-dessus, peut aller sur h3.")
    # a pile whose top card alone goes somewhere, and one that goes nowhere
    assert table.say_picked(game, CELL_NAMES.index("g1"), Words("en")) == (
        "Picked up 6♠ from g1: it can go on h3.")
    assert table.say_picked(game, CELL_NAMES.index("f1"), Words("en")) == (
        "Picked up 8♠ from f1: it cannot be built anywhere now; drop it on an empty cell to "
        "move the pile there.")
