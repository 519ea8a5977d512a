"""``devilsgrip tui``: the subcommand is found, its options parse, bad input is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from devilsgrip import cli
from devilsgrip.commands import tui as tui_command


def test_tui_subcommand_is_registered_with_the_game_options() -> None:
    parser = cli.build_parser()
    args = parser.parse_args(["tui", "--game", "12", "--rules", "single-pass", "--lang", "fr",
                              "--db", "x.db"])
    assert args.func is tui_command.run
    assert (args.game, args.rules, args.lang, args.db) == (12, "single-pass", "fr", Path("x.db"))
    with pytest.raises(cli.UsageError):
        parser.parse_args(["tui", "--game", "3", "--deck", "2S"])


@pytest.mark.parametrize("argv", [
    ["tui", "--game", "0"],
    ["tui", "--deck", "2S 3S"],
    ["tui", "--rules", "nonsense"],
])
def test_bad_deal_or_rules_is_refused_before_the_screen_opens(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main([*argv, "--db", str(tmp_path / "g.db")]) == cli.EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert err.startswith("devilsgrip: ")
    assert not (tmp_path / "g.db").exists()


def test_style_file_ships_inside_the_package() -> None:
    from devilsgrip.tui.app import DevilsGripApp

    css = Path(tui_command.__file__).parent.parent / "tui" / str(DevilsGripApp.CSS_PATH)
    assert css.is_file()
    assert "#grid" in css.read_text(encoding="utf-8")
