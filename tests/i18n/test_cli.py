"""The command line speaks each language (in-process, so it stays fast, but for the
search core, chosen once per program)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from devilsgrip.cli import main


@pytest.mark.parametrize(
    ("lang", "title", "stock"),
    [
        ("en", "Game 1", "stock: 72 cards"),
        ("fr", "Partie 1", "pioche : 72 cartes"),
        ("da", "Spil 1", "bunke: 72 kort"),
        ("es", "Partida 1", "mazo: 72 cartas"),
        ("hu", "1. játék", "húzópakli: 72 lap"),
    ],
)
def test_deal_is_translated(
    lang: str, title: str, stock: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["deal", "1", "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert out.startswith(title + "  (classic)")
    assert stock in out


@pytest.mark.parametrize(
    ("lang", "heading", "word"),
    [
        ("en", "DEVIL'S GRIP: THE RULES", "talon"),
        ("fr", "DEVIL'S GRIP : LA RÈGLE DU JEU", "défausse"),
        ("da", "DEVIL'S GRIP: SPILLETS REGLER", "kastebunken"),
        ("es", "DEVIL'S GRIP: LAS REGLAS DEL JUEGO", "descarte"),
        ("hu", "DEVIL'S GRIP: A JÁTÉK SZABÁLYAI", "dobópakli"),
    ],
)
def test_rules_command(
    lang: str, heading: str, word: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rules", "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == heading
    assert word in out
    assert "**" not in out and "`" not in out


def test_rules_markdown(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--lang", "da", "--markdown"]) == 0
    assert capsys.readouterr().out.startswith("# Devil's Grip: spillets regler\n")


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "devilsgrip: move 2 'a1-a2' is illegal: the 6 of diamonds does not go on the "
               "6 of diamonds: it takes the 9 of diamonds"),
        ("es", "devilsgrip: la jugada 2 'a1-a2' no está permitida: el seis de diamantes no va "
               "sobre el seis de diamantes: lleva el nueve de diamantes"),
        ("fr", "devilsgrip: le coup 2 'a1-a2' est interdit : le six de carreau ne va pas sur le "
               "six de carreau : il y faut le neuf de carreau"),
        ("da", "devilsgrip: træk 2 'a1-a2' er ikke tilladt: ruder seks kan ikke lægges på "
               "ruder seks: der skal ruder ni på"),
        ("hu", "devilsgrip: a(z) 2. lépés ('a1-a2') szabálytalan: a káró hatos nem kerülhet a "
               "káró hatosra: oda a káró kilences kell"),
    ],
)
def test_replay_illegal_move_in_language(
    lang: str, expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", "--game", "1", "--moves", "d a1-a2", "--lang", lang]) == 1
    assert capsys.readouterr().err.startswith(expected)


def test_bad_rules_error_in_language(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deal", "1", "--rules", "nosuch", "--lang", "fr"]) == 2
    assert "variante de règles inconnue 'nosuch'" in capsys.readouterr().err


def test_language_from_environment(
    clean_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    clean_env.setenv("LANG", "es_ES.UTF-8")
    assert main(["deal", "1"]) == 0
    assert capsys.readouterr().out.startswith("Partida 1")


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "devilsgrip: DEVILSGRIP_CORE='fast' names no search core: choose 'python' or "
           "'compiled'"),
    ("fr", "devilsgrip: DEVILSGRIP_CORE='fast' ne désigne aucun moteur de recherche : "
           "choisissez 'python' ou 'compiled'"),
    ("hu", "devilsgrip: A DEVILSGRIP_CORE='fast' egyik keresőmagot sem jelöli"),
])
def test_an_unknown_search_core_is_told_in_language(lang: str, expected: str) -> None:
    # the core is chosen once, when the package is first imported: a program of its own
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LANG", "LC_"))}
    env["DEVILSGRIP_CORE"] = "fast"
    done = subprocess.run([sys.executable, "-m", "devilsgrip", "solve", "3", "--lang", lang],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert done.stderr.startswith(expected), done.stderr
