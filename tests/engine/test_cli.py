"""The ``devilsgrip deal`` and ``devilsgrip replay`` commands."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from devilsgrip import Game
from devilsgrip.cli import main
from devilsgrip.i18n import set_language
from devilsgrip.notation import format_deck
from devilsgrip.records import write_record


@pytest.fixture(autouse=True)
def english(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("DEVILSGRIP_DB", os.devnull)
    set_language("en")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


# ---------------------------------------------------------------------- deal
def test_deal_grid_is_labelled(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "deal", "1")
    assert code == 0 and err == ""
    lines = out.splitlines()
    header = next(line for line in lines if line.split() == list("abcdefgh"))
    assert header
    deck = format_deck(Game(1).deck or ()).split()
    for row in range(3):
        line = next(line for line in lines if line.split()[:1] == [str(row + 1)])
        assert line.split()[1:] == deck[row * 8 : row * 8 + 8]
    assert "72" in out and "stock" in out


def test_deal_formats(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "deal", "1000000", "--format", "deck")
    assert code == 0
    assert out.strip() == format_deck(Game(1000000).deck or ())
    deck = out.strip()
    code, out2, _ = run(capsys, "deal", "--deck", deck.lower(), "--format", "deck")
    assert code == 0 and out2.strip() == deck
    code, out3, _ = run(capsys, "deal", "--deck", deck, "--rules", "literal")
    assert code == 0 and "literal" in out3
    code, out4, _ = run(capsys, "deal", "5", "--format", "position", "--rules", "single-pass")
    assert code == 0 and Game.from_position(out4.strip()).key() == Game(5).key()


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["deal", "0"], "not '0'"),
        (["deal", str(2**63)], f"not '{2**63}'"),
        (["deal", "x"], "from 1 to 9223372036854775807, not 'x'"),
        (["deal"], "--deck"),
        (["deal", "1", "--rules", "nope"], "nope"),
        (["deal", "1", "--format", "pdf"], "pdf"),
        (["deal", "--deck", "2S 1X"], "1X"),
        (["replay", "--game", "1", "--moves", "d", "--rules", "classic,draw=0"], "draw"),
        (["replay"], "--game"),
        (["replay", "/no/such/file.dgr"], "/no/such/file.dgr"),
        (["nosuchcommand"], "nosuchcommand"),
    ],
)
def test_bad_input_exit_2_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], needle: str
) -> None:
    code, _out, err = run(capsys, *args)
    assert code == 2
    assert needle in one_line(err)
    assert "Traceback" not in err


def test_bad_deck_names_the_problem(capsys: pytest.CaptureFixture[str]) -> None:
    cards = format_deck(Game(1).deck or ()).split()
    code, _, err = run(capsys, "deal", "--deck", " ".join(cards[:95]))
    assert code == 2
    line = one_line(err)
    assert "95" in line and "96" in line
    cards[16] = "1X"
    code, _, err = run(capsys, "deal", "--deck", " ".join(cards))
    assert code == 2 and "17" in one_line(err) and "1X" in err


# -------------------------------------------------------------------- replay
def test_replay_moves_json(capsys: pytest.CaptureFixture[str]) -> None:
    game = Game(2)
    legal = [m for m in game.generate_moves() if m.text() != "d"]
    moves = ["d", "d", *[m.text() for m in legal[:1]]]
    game.play_all_text(" ".join(moves))
    code, out, err = run(capsys, "replay", "--game", "2", "--moves", ",".join(moves), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert set(data) == {"score", "over", "won", "grid_cards", "stock", "talon", "moves"}
    assert data == {
        "score": game.score, "over": game.is_over(), "won": game.is_won(),
        "grid_cards": game.grid_cards(), "stock": len(game.stock),
        "talon": len(game.talon), "moves": len(moves),
    }
    assert isinstance(data["over"], bool) and isinstance(data["score"], int)


def test_replay_deck_text(capsys: pytest.CaptureFixture[str]) -> None:
    deck = format_deck(Game(3).deck or ())
    code, out, _ = run(capsys, "replay", "--deck", deck, "--moves", "d d d")
    assert code == 0
    assert "score: 72" in out and "in progress" in out


def finished_record(rules: str = "single-pass") -> Game:
    game = Game(31, rules=rules)
    while not game.is_over():
        moves = game.generate_moves()
        score = game.score
        best = moves[0]
        for move in moves:
            game.push(move)
            better = game.score < score
            game.pop()
            if better:
                best = move
                break
        game.play(best)
    return game


def test_replay_record_file_and_stdin(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = finished_record()
    path = tmp_path / "game.dgr"
    path.write_text(write_record(game), encoding="utf-8")
    code, out, err = run(capsys, "replay", str(path), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["over"] is True and data["won"] == game.is_won()
    assert data["score"] == game.score and data["moves"] == game.moves_played
    monkeypatch.setattr(sys, "stdin", io.StringIO(write_record(game)))
    code, out, _ = run(capsys, "replay", "-")
    assert code == 0
    assert f"score: {game.score}" in out
    assert ("won" if game.is_won() else "game over") in out


def test_replay_illegal_move_exit_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "replay", "--game", "1", "--moves", "d r")
    assert code == 1
    line = one_line(err)
    assert "2" in line and "'r'" in line and "deal it first" in line
    code, _out, err = run(capsys, "replay", "--game", "1", "--moves", "d,d,a1=a1")
    assert code == 1
    assert "3" in one_line(err) and "a1=a1" in err


def test_replay_record_with_illegal_move(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game = Game(1)
    game.play_all_text("d d d")
    text = write_record(game).replace("3. d", "3. r")
    path = tmp_path / "bad.dgr"
    path.write_text(text, encoding="utf-8")
    code, _, err = run(capsys, "replay", str(path))
    assert code == 1
    line = one_line(err)
    assert "3" in line and "'r'" in line


def test_replay_tampered_record_is_bad_input(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game = Game(1)
    game.play_all_text("d d d")
    path = tmp_path / "bad.dgr"
    path.write_text(write_record(game).replace('[Score "72"]', '[Score "0"]'), encoding="utf-8")
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2
    one_line(err)


def test_real_subprocess(tmp_path: Path) -> None:
    env = dict(os.environ, DEVILSGRIP_DB=str(tmp_path / "db.sqlite"), LANGUAGE="en")
    src = str(Path(__file__).resolve().parents[2] / "src")
    env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    result = subprocess.run(
        [sys.executable, "-m", "devilsgrip", "replay", "--game", "1", "--moves", "d d d",
         "--json"],
        capture_output=True, text=True, env=env, timeout=60, check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["talon"] == 9
    bad = subprocess.run(
        [sys.executable, "-m", "devilsgrip", "deal", "0"],
        capture_output=True, text=True, env=env, timeout=60, check=False,
    )
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("command", [
    ["autoplay", "--player", "greedy", "--time-limit", "0.05"],
    ["solve", "--time-limit", "0.5", "--json"],
])
def test_a_bare_game_number_is_the_game_option(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """``devilsgrip autoplay 189`` is ``--game 189``, as ``devilsgrip deal 189`` is."""
    bare = run(capsys, command[0], "17", *command[1:])
    option = run(capsys, command[0], "--game", "17", *command[1:])
    assert bare[0] == option[0] == 0, bare[2]
    if command[0] == "solve":  # the search's figures and line depend on the time it got:
        for out in (bare, option):  # each line is played on deal 17 to the score it claims
            result, game = json.loads(out[1]), Game(17)
            for move in result["moves"]:
                game.play_text(move)
            assert game.score == result["score"]
    else:
        assert bare == option and '[Game "17"]' in bare[1]

