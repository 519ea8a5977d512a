"""``devilsgrip analyze`` end to end: options, summary output, a real Ctrl-C and resume."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from devilsgrip.analysis import open_results, run_analysis, summarize, summary_to_json
from devilsgrip.cli import main

FAST = ["--time-limit", "0", "--max-nodes", "3000", "--no-progress"]


def rows_of(path: Path) -> list[tuple[object, ...]]:
    store = open_results(path, create=False)
    try:
        return [r.without_timing() for r in store.read()]
    finally:
        store.close()


@pytest.mark.slow
def test_run_then_summary_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, js = tmp_path / "r.sqlite", tmp_path / "s.json"
    status = main(["analyze", "--games", "1-6", "--jobs", "1", "--out", str(out), *FAST,
                   "--summary-json", str(js), "--terminal-plot", "--plots", str(tmp_path / "p")])
    assert status == 0
    captured = capsys.readouterr()
    assert "classic" in captured.out and "clairvoyant" in captured.out
    assert "Scores: classic, clairvoyant (6 deals)" in captured.out
    store = open_results(out, create=False)
    rows = store.read()
    store.close()
    assert [r.game for r in rows] == [1, 2, 3, 4, 5, 6]
    assert all(r.max_nodes == 3000 and r.time_limit is None for r in rows)
    assert json.loads(js.read_text()) == json.loads(json.dumps(summary_to_json(summarize(rows))))
    assert sorted(p.name for p in (tmp_path / "p").iterdir()) == [
        "score-histogram.png", "score-histogram.svg", "win-rate.png", "win-rate.svg"]

    # summarising again without running gives the same JSON
    js2 = tmp_path / "s2.json"
    assert main(["analyze", "--summary-only", "--out", str(out), "--summary-json", str(js2)]) == 0
    assert json.loads(js2.read_text()) == json.loads(js.read_text())

    # a second run over a wider range only does the new deals
    assert main(["analyze", "--games", "1-8", "--jobs", "1", "--out", str(out), *FAST]) == 0
    assert "6 deals already in" in capsys.readouterr().err
    assert [row[0] for row in rows_of(out)] == list(range(1, 9))


@pytest.mark.parametrize("argv", [
    ["--summary-only", "--out", "{tmp}/missing.sqlite"],
    ["--out", "{tmp}/x.sqlite"],                                   # no --games
    ["--games", "5-1", "--out", "{tmp}/x.sqlite"],
    ["--games", "1-3", "--jobs", "0", "--out", "{tmp}/x.sqlite"],
    ["--games", "1-3", "--time-limit", "0", "--out", "{tmp}/x.sqlite"],  # never stops
    ["--games", "1-3", "--scheduler", "tcp://127.0.0.1:9", "--out", "{tmp}/x.sqlite"],
    ["--games", "1-3", "--player", "lucky"],
    ["--games", "1-3", "--rules", "classic,draw=0"],
])
def test_bad_input_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    assert main(["analyze", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert err and len(err.splitlines()) == 1
    assert not (tmp_path / "x.sqlite").exists()


@pytest.mark.parametrize(("games", "lang", "said"), [
    ("1-20000000", "en", "devilsgrip: '1-20000000' names more than 10 million deals: "
                         "analyse them in parts"),
    ("1-9000000,9000001-10000001", "fr",
     "devilsgrip: '1-9000000,9000001-10000001' désigne plus de 10 millions de donnes : "
     "analysez-les en plusieurs fois"),
    ("5-1", "hu", "devilsgrip: hibás játéktartomány: '5-1'; írd például így: 1-10000 vagy 1-5,9"),
])
def test_a_range_too_large_is_told_apart_from_one_badly_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], games: str, lang: str, said: str
) -> None:
    assert main(["analyze", "--games", games, "--out", str(tmp_path / "x.sqlite"),
                 "--lang", lang]) == 2
    assert capsys.readouterr().err.strip() == said
    assert not (tmp_path / "x.sqlite").exists()


def test_the_analysis_refusals_of_the_library_are_translated() -> None:
    from devilsgrip.analysis import AnalysisError
    from devilsgrip.analysis.backends import make_backend
    from devilsgrip.analysis.runner import parse_games
    from devilsgrip.i18n import translate_error

    with pytest.raises(AnalysisError) as bad:
        make_backend("cloud")
    assert translate_error(bad.value, "es") == (
        "motor de ejecución desconocido 'cloud' (elija entre local, dask)")
    with pytest.raises(AnalysisError) as jobs:
        make_backend("local", jobs=0)
    assert translate_error(jobs.value, "da") == "--jobs skal være mindst 1, ikke 0"
    with pytest.raises(AnalysisError) as player:
        run_analysis(Path("unused.sqlite"), [1], player="lucky")
    assert translate_error(player.value, "fr") == (
        "joueur inconnu 'lucky' (au choix : clairvoyant, honest, greedy)")
    with pytest.raises(AnalysisError) as long:
        parse_games("x" * 500)
    assert translate_error(long.value, "en").count("x") < 60  # the player's text is cut short


def test_a_scheduler_address_that_is_none_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("distributed")
    assert main(["analyze", "--games", "1-3", "--backend", "dask", "--scheduler", "nonsense://x",
                 "--out", str(tmp_path / "x.sqlite"), "--no-progress", "--lang", "fr"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.splitlines()) == 1
    assert err.startswith("devilsgrip: impossible de joindre l'ordonnanceur Dask nonsense://x : ")


@pytest.mark.parametrize("option", ["--summary-json", "--summary-markdown", "--plots"])
def test_an_unwritable_summary_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str
) -> None:
    results = tmp_path / "r.sqlite"
    open_results(results, create=True).close()
    (tmp_path / "a-file").write_text("not a directory")
    target = tmp_path / "a-file" / "summary"
    assert main(["analyze", "--summary-only", "--out", str(results), option, str(target),
                 "--lang", "fr"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.splitlines()) == 1
    assert err.startswith(f"devilsgrip: impossible d'écrire {target} : ")


def _count(path: Path) -> int:
    if not path.exists():
        return 0
    try:
        with sqlite3.connect(path, timeout=1) as db:
            return int(db.execute("SELECT count(*) FROM results").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


@pytest.mark.slow
@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_ctrl_c_stops_cleanly_and_the_rerun_completes(tmp_path: Path, how: str) -> None:
    # single-pass deals use their whole budget (about 1.5 s each in the pure core), so the
    # run is still going when the signal comes (classic deals are won in milliseconds)
    games, nodes = "1-16", "60000"
    out = tmp_path / "int.sqlite"
    # started as from a terminal, with Ctrl-C's default handling: an ignored SIGINT is
    # inherited, and the test process may have been left ignoring it by an earlier test
    argv = [sys.executable, "-c", "import runpy, signal, sys; "
            "signal.signal(signal.SIGINT, signal.default_int_handler); "
            "sys.argv[0] = 'devilsgrip'; runpy.run_module('devilsgrip', run_name='__main__')",
            "analyze", "--games", games,
            "--rules", "single-pass", "--jobs", "2", "--chunk-size", "1", "--time-limit", "0",
            "--max-nodes", nodes, "--no-progress", "--out", str(out)]
    # its own process group, so the signal reaches every process as Ctrl-C would
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "LANGUAGE": "en", "DEVILSGRIP_CORE": "python"},
                            start_new_session=True)
    deadline = time.monotonic() + 60
    while _count(out) < 2 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None, "the run finished before it could be interrupted"
    if how == "ctrl-c":
        os.killpg(proc.pid, signal.SIGINT)  # the whole group, as a terminal does
    else:
        proc.terminate()  # SIGTERM to the main process only, as kill does
    _stdout, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 130, stderr
    assert "Stopped" in stderr and "Traceback" not in stderr
    kept = _count(out)
    assert 2 <= kept < 16

    resumed = subprocess.run(argv, capture_output=True, text=True, timeout=120,
                             env={**os.environ, "LANGUAGE": "en"})
    assert resumed.returncode == 0, resumed.stderr
    assert f"{kept} deals already in" in resumed.stderr

    straight = tmp_path / "straight.sqlite"
    run_analysis(straight, range(1, 17), rules="single-pass", player="clairvoyant",
                 time_limit=None, max_nodes=int(nodes), jobs=1)
    assert rows_of(out) == rows_of(straight)


@pytest.mark.slow
def test_cli_dask_backend_with_its_own_local_cluster(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    a, b = tmp_path / "local.sqlite", tmp_path / "dask.sqlite"
    assert main(["analyze", "--games", "1-6", "--jobs", "1", "--out", str(a), *FAST]) == 0
    assert main(["analyze", "--games", "1-6", "--jobs", "2", "--backend", "dask",
                 "--out", str(b), *FAST]) == 0
    assert rows_of(a) == rows_of(b)


def test_summary_of_several_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b = tmp_path / "a.sqlite", tmp_path / "b.parquet"
    run_analysis(a, [1, 2], rules="classic", player="clairvoyant", time_limit=None,
                 max_nodes=1000, jobs=1)
    run_analysis(b, [1, 2, 3], rules="single-pass", player="clairvoyant", time_limit=None,
                 max_nodes=1000, jobs=1)
    md = tmp_path / "s.md"
    assert main(["analyze", "--summary-only", "--out", str(a), str(b),
                 "--summary-markdown", str(md)]) == 0
    table = md.read_text().splitlines()
    assert len(table) == 4
    assert table[2].startswith("| `classic` | clairvoyant | 2 |")
    assert table[3].startswith("| `single-pass` | clairvoyant | 3 |")
    # a run writes one file only
    assert main(["analyze", "--games", "1", "--out", str(a), str(b), *FAST]) == 2
    assert "one --out" in capsys.readouterr().err


def test_the_command_line_stays_light() -> None:
    # building the parser (every `devilsgrip` start) imports no plotting or cluster code
    code = (
        "import sys; from devilsgrip.cli import build_parser; build_parser(); "
        "heavy = [m for m in ('matplotlib', 'distributed', 'dask', 'pyarrow', "
        "'devilsgrip.analysis.plots') if m in sys.modules]; "
        "print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, check=True)
    assert out.stdout.strip() == ""
