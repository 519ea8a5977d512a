"""Bad input to every subcommand: one line on standard error, in the player's language,
exit status 2, never a traceback (in-process, like ``test_cli.py``).

``play`` and ``tui`` only have their arguments checked: starting the server or
the screen fails the test instead.
"""

from __future__ import annotations

import ast
import io
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from devilsgrip import Game
from devilsgrip.cli import main
from devilsgrip.commands import memory_most
from devilsgrip.i18n import set_language
from devilsgrip.records import write_record

HUGE = "9" * 5000
BAD_GAMES = ["²", "0", "-3", HUGE, "٣", "１", "", "1.5", "0x10", str(2**63)]
BAD_SECONDS = ["nan", "inf", "-inf", "NaN", "0", "-1", "1e400", "١", "", "²", "1" * 5000]
BAD_RULES = ["classic,draw=²", "classic,redeals=" + HUGE, "classic,draw=0", "nope", "",
             "classic,dr\naw=3", "classic,redeals=١"]
BAD_NUMBERS = ["²", "-1", HUGE, "٣", "x", ""]

FILES = {
    "binary.dgr": b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe\xfd",
    "nul.dgr": b"[Game \"1\"]\x00\n\n1. d *\n",
    "empty.dgr": b"",
    "blank.dgr": b"\n \n\t\n",
    "latin1.dgr": '[Event "Partie à Génève"]\n[Game "1"]\n\n*\n'.encode("latin-1"),
    "superscript.dgr": '[Game "²"]\n\n*\n'.encode(),
    "huge.dgr": f'[Game "{HUGE}"]\n\n*\n'.encode(),
    "badtag.dgr": b'[Game 1]\n\n*\n',
    "badrules.dgr": '[Game "1"]\n[Rules "classic,draw=²"]\n\n*\n'.encode(),
    "badposition.dgr": b'[Position "x y z 0 0 classic"]\n\n*\n',
    "hints.dgr": '[Event "Devil\'s Grip"]\n[Game "1"]\n[Hints "²"]\n\n1. d *\n'.encode(),
}
BAD_RECORDS = ["superscript.dgr", "huge.dgr", "badtag.dgr", "badrules.dgr", "badposition.dgr",
               "hints.dgr"]
"""Readable files of one bad record: ``import`` reports it and skips it (status 1)."""
RECORD_FILES = ["binary.dgr", "nul.dgr", "empty.dgr", "blank.dgr", "latin1.dgr",
                "superscript.dgr", "huge.dgr", "badtag.dgr", "badrules.dgr", "badposition.dgr",
                "missing.dgr", "a-directory"]


def _cases() -> Iterator[list[str]]:
    for value in BAD_GAMES:
        yield ["deal", value]
        for command in ("replay", "solve", "hint", "autoplay", "play", "tui"):
            yield [command, "--game", value, *(["--moves", "d"] if command == "replay" else [])]
        for command in ("solve", "autoplay", "play", "tui"):
            yield [command, value]  # the number given bare, as to deal
    for value in BAD_SECONDS:
        for command in ("solve", "hint", "autoplay"):
            yield [command, "--game", "1", "--time-limit", value]
        yield ["analyze", "--games", "1-3", "--out", "{tmp}/x.sqlite", "--time-limit", value]
        yield ["review", "--last", "--time-limit", value]
    for value in BAD_RULES:
        yield ["deal", "1", "--rules", value]
        for command in ("replay", "solve", "hint", "autoplay", "play", "tui"):
            yield [command, "--game", "1", "--rules", value]
        yield ["stats", "--rules", value]
        yield ["export", "--all", "--rules", value]
        yield ["analyze", "--games", "1-3", "--out", "{tmp}/x.sqlite", "--rules", value]
    for value in BAD_NUMBERS:
        yield ["hint", "--game", "1", "--seed", value]
        yield ["autoplay", "--game", "1", "--seed", value]
        yield ["export", "--game-id", value]
        yield ["review", "--game-id", value]
        yield ["play", "--port", value]
        yield ["solve", "--game", "1", "--memory", value]
        yield ["review", "--last", "--memory", value]
        for option in ("--jobs", "--max-nodes", "--seed", "--chunk-size"):
            yield ["analyze", "--games", "1-3", "--out", "{tmp}/x.sqlite", option, value]
    yield ["export", "--game-id", "0"]
    yield ["solve", "--game", "1", "--memory", "15"]
    yield ["review", "--last", "--memory", str(2**20 + 1)]
    yield ["solve", "--game", "1", "--memory", str(memory_most() + 1)]  # more than the machine
    yield ["play", "--port", "70000"]
    for option in ("--jobs", "--max-nodes", "--chunk-size"):
        yield ["analyze", "--games", "1-3", "--out", "{tmp}/x.sqlite", option, "0"]
    for games in ["²", "٣", "1-" + HUGE, HUGE, "0-3", "5-1", "1-3,x", "1-", ",", "1-20000000",
                  ",".join(f"{i * 10**7}-{i * 10**7 + 9_999_999}" for i in range(1, 4))]:
        yield ["analyze", "--games", games, "--out", "{tmp}/x.sqlite"]
    for name in RECORD_FILES:
        yield ["replay", f"{{tmp}}/{name}"]
        yield ["hint", f"{{tmp}}/{name}"]
        yield ["review", f"{{tmp}}/{name}"]
        if name not in BAD_RECORDS:
            yield ["import", f"{{tmp}}/{name}"]
    for name in ("binary.dgr", "nul.dgr", "a-directory", "missing.dgr"):
        yield ["analyze", "--summary-only", "--out", f"{{tmp}}/{name}"]
    for command in ("stats", "export --all", "import {tmp}/superscript.dgr"):
        yield [*command.split(), "--owner", "\udcff"]
        yield [*command.split(), "--owner", "a\nb"]
    for host in ("\udcff", "a\x00b", "local\thost"):
        yield ["play", "--host", host]
    for name in ("a\x00b", "\ud800", "n" * 300):  # open() refuses the first two with
        # ValueError, and the last one even Path.exists() with OSError
        yield from (
            ["replay", name], ["hint", name], ["import", name], ["stats", "--db", name],
            ["export", "--all", "--out", name], ["analyze", "--summary-only", "--out", name],
            ["analyze", "--games", "1", "--out", "{tmp}/x.sqlite", "--summary-json", name],
        )
    for option in ("--summary-json", "--summary-markdown", "--plots"):
        for target in ("{tmp}/binary.dgr/x", "{tmp}/a-directory" if option != "--plots"
                       else "{tmp}/binary.dgr"):
            yield ["analyze", "--games", "1", "--out", "{tmp}/x.sqlite", "--player", "greedy",
                   option, target]
    yield ["deal", "--deck", "2S 1X"]
    yield ["deal", "--deck", "\ud800"]
    yield ["solve", "--position", "x y z 0 0 classic"]
    start = Game(1).position().split()
    yield ["solve", "--position", " ".join([*start[:3], "²", "0", "classic"])]
    yield ["solve", "--position", " ".join([*start[:3], "0", HUGE, "classic"])]
    yield ["replay", "--game", "1", "--moves", "d", "--deck", "2S"]
    yield ["deal", "1", "--format", "pdf"]
    yield ["autoplay", "--player", "lucky"]
    yield ["export"]
    yield ["import"]
    yield ["review"]
    yield ["review", "--last", "--game-id", "3"]
    yield ["review", "--game-id", "999999"]
    yield ["deal", "1", "--no-such-option"]
    for command in ("solve", "autoplay", "play", "tui"):
        yield [command, "3", "--game", "4"]
        yield [command, "3", "--deck", "2S"]


CASES = [pytest.param(argv, marks=pytest.mark.slow) if "--games" in argv
         and argv[argv.index("--games") + 1].count("-") > 2 else argv
         for argv in _cases()]
"""Each bad input; a list of thirty million games takes seconds to refuse (slow)."""
LANGUAGE_CASES = [[command, "--lang", lang] for lang in ("xx", "", "klingon", "zz_ZZ")
                  for command in ("deal", "replay", "solve", "hint", "autoplay", "stats",
                                  "export", "import", "analyze", "rules", "play", "tui",
                                  "review")]


def _id(argv: list[str]) -> str:
    return ascii(" ".join(a if len(a) < 24 else a[:12] + "..." for a in argv))[1:-1]


@pytest.fixture(autouse=True)
def english(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("DEVILSGRIP_DB", str(tmp_path / "games.sqlite3"))
    set_language("en")
    yield
    set_language("en")


@pytest.fixture(autouse=True)
def nothing_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bad input never gets as far as the browser server or the terminal screen."""
    import devilsgrip.web.server as server
    from devilsgrip.tui.app import DevilsGripApp

    def started(*args: object, **kwargs: object) -> int:
        raise AssertionError("bad input started the game")

    monkeypatch.setattr(server, "serve", started)
    monkeypatch.setattr(DevilsGripApp, "run", started)


@pytest.fixture
def files(tmp_path: Path) -> Path:
    for name, data in FILES.items():
        (tmp_path / name).write_bytes(data)
    (tmp_path / "a-directory").mkdir()
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], argv: list[str], tmp: Path) -> tuple[int, str]:
    code = main([a.replace("{tmp}", str(tmp)) for a in argv])
    _out, err = capsys.readouterr()
    return code, err


def one_line(code: int, err: str) -> str:
    assert "Traceback" not in err
    assert code == 2, err
    lines = err.splitlines()
    assert len(lines) == 1 and err.endswith("\n"), err
    assert lines[0].startswith("devilsgrip"), err
    assert lines[0].isprintable()
    assert len(lines[0]) < 400  # a 5,000-digit value is shortened
    return lines[0]


def message(line: str) -> str:
    """The line without its ``devilsgrip ...:`` prefix and the values it quotes."""
    return line.split(": ", 1)[-1]


@pytest.mark.parametrize("argv", CASES, ids=_id)
def test_bad_input_is_one_line_exit_2_and_in_french_with_lang_fr(
    argv: list[str], files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    english = one_line(*run(capsys, argv, files))
    french = one_line(*run(capsys, [*argv, "--lang", "fr"], files))
    assert french != english
    assert message(english) not in french
    assert not (files / "x.sqlite").exists()


@pytest.mark.parametrize("argv", LANGUAGE_CASES, ids=_id)
def test_an_unknown_language_is_refused_in_the_environment_language(
    argv: list[str], files: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    line = one_line(*run(capsys, argv, files))
    assert "unknown language" in line and "en, fr, da, es, hu" in line
    monkeypatch.setenv("LANGUAGE", "fr")
    assert "langue inconnue" in one_line(*run(capsys, argv, files))


@pytest.mark.parametrize(("argv", "expected"), [
    (["deal", "²"], "devilsgrip: les numéros de partie sont des nombres entiers de 1 à "
     "9223372036854775807, pas '²'"),
    (["solve", "--rules", "single-pass", "--time-limit", "nan"],
     "devilsgrip: --time-limit attend un nombre positif de secondes, pas 'nan'"),
    (["hint", "--game", "1", "--time-limit", "nan"],
     "devilsgrip: --time-limit attend un nombre positif de secondes, pas 'nan'"),
    (["import", "{tmp}/empty.dgr"],
     "devilsgrip: aucun enregistrement de partie dans {tmp}/empty.dgr"),
    (["review", "{tmp}/blank.dgr"],
     "devilsgrip: aucun enregistrement de partie dans {tmp}/blank.dgr"),
    (["autoplay", "3", "--game", "4"],
     "devilsgrip: donnez le numéro de partie une seule fois : N, --game N ou --deck, "
     "pas plusieurs"),
    (["replay", "{tmp}/binary.dgr"],
     "devilsgrip: impossible de lire {tmp}/binary.dgr : ce n'est pas du texte UTF-8"),
    (["deal", "1", "--rules", "classic,draw=²"],
     "devilsgrip: valeur invalide '²' pour draw : un nombre entier de 1 à 96"),
])
def test_the_french_lines(
    argv: list[str], expected: str, files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = one_line(*run(capsys, [*argv, "--lang", "fr"], files))
    assert line == expected.replace("{tmp}", str(files))


@pytest.mark.parametrize(("argv", "expected"), [
    (["hint", "5"], "devilsgrip: there is no file 5: for deal 5, write --game 5"),
    (["replay", "17"], "devilsgrip: there is no file 17: for deal 17, write --game 17"),
    (["review", "3"],
     "devilsgrip: there is no file 3: for the stored game 3, write --game-id 3"),
    (["hint", "5", "--lang", "fr"],
     "devilsgrip: il n'y a pas de fichier 5 : pour la donne 5, écrivez --game 5"),
    (["hint", "five"], "devilsgrip: cannot read five: No such file or directory"),
    (["import", "5"], "devilsgrip: cannot read 5: No such file or directory"),
])
def test_a_bare_number_where_a_file_is_read_names_the_option_it_meant(
    argv: list[str], expected: str, files: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(files)
    assert one_line(*run(capsys, argv, files)) == expected
    # a file of that name is still read as the record it is
    finished = Game(7)
    finished.play_text("d")
    finished.give_up()
    (files / argv[1]).write_text(write_record(finished), encoding="utf-8")
    code, err = run(capsys, [*argv[:2], *(["--db", "{tmp}/kept.sqlite"] if argv[0] == "import"
                                         else [])], files)
    assert code == 0, err


def test_a_bad_record_in_an_import_is_reported_and_skipped(  # all bad: exit 2
    files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in BAD_RECORDS:
        for lang, words in (("en", "not imported"), ("fr", "non importé")):
            code, err = run(capsys, ["import", f"{{tmp}}/{name}", "--lang", lang], files)
            assert code == 2 and "Traceback" not in err
            assert len(err.splitlines()) == 1 and words in err, err
            assert err.startswith("devilsgrip: ")  # the program's name, as in every error
            assert "int()" not in err


def test_a_good_record_still_imports_and_replays(
    files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = Game(7)
    game.play_all_text("d d d")
    (files / "good.dgr").write_text(write_record(game), encoding="utf-8")
    assert run(capsys, ["replay", "{tmp}/good.dgr"], files)[0] == 0
    assert run(capsys, ["import", "{tmp}/good.dgr"], files)[0] == 0
    assert run(capsys, ["deal", "0007", "--format", "deck"], files)[0] == 0
    assert run(capsys, ["deal", "1", "--lang", "fr_FR.UTF-8"], files)[0] == 0


def test_no_subcommand_imports_the_cli_module() -> None:
    import devilsgrip.commands as commands

    for path in sorted(Path(commands.__file__).parent.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = (
                [node.module or ""] if isinstance(node, ast.ImportFrom)
                else [a.name for a in node.names] if isinstance(node, ast.Import) else []
            )
            assert "devilsgrip.cli" not in names, f"{path.name} imports devilsgrip.cli"


@pytest.mark.parametrize("command", ["replay", "hint", "review"])
def test_nothing_on_standard_input_is_said_so(
    command: str, files: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for lang, words in (("en", "no game record on standard input"),
                        ("fr", "aucun enregistrement de partie sur l'entrée standard")):
        monkeypatch.setattr(sys, "stdin", io.StringIO(" \n\n"))
        assert one_line(*run(capsys, [command, "-", "--lang", lang], files)) == \
            f"devilsgrip: {words}"

