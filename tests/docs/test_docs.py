"""The documentation: the site builds with no warning, its search finds what a reader
looks for, the docstrings' links land on a heading, every public name says what it
is, the library's examples run, and the README stays a player's page."""

from __future__ import annotations

import doctest
import importlib
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "devilsgrip"
DOCS = ROOT / "docs"

pytest.importorskip("mkdocs")
pytest.importorskip("griffe")

PUBLIC_MODULES = (
    "devilsgrip.game", "devilsgrip.records", "devilsgrip.cards", "devilsgrip.rules",
    "devilsgrip.notation", "devilsgrip.errors", "devilsgrip.solver", "devilsgrip.review",
    "devilsgrip.store",
)
DOC_LINK = re.compile(r"\]\[(?P<anchor>[a-z0-9-]+)\] \((?P<page>docs/[\w/]+\.md)\)")
HEADING_ID = re.compile(r"^#+ .*\{#(?P<anchor>[a-z0-9-]+)\}\s*$", re.MULTILINE)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The site, built as ``make docs`` builds it (warnings are errors)."""
    out = tmp_path_factory.mktemp("site")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert result.returncode == 0, result.stderr
    assert "WARNING" not in result.stderr, result.stderr
    yield out


@pytest.fixture(scope="module")
def index(site: Path) -> dict[str, dict[str, Any]]:
    """The search index of the built site, by location (page/#anchor)."""
    data = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    return {entry["location"]: entry for entry in data["docs"]}


def _page_location(page: str) -> str:
    """``docs/guide/review.md`` -> ``guide/review/``, as the site's URLs go."""
    rel = page.removeprefix("docs/").removesuffix(".md")
    return "" if rel == "index" else rel + "/"


def _finds(index: dict[str, dict[str, Any]], word: str) -> list[str]:
    """The locations whose title or text holds ``word`` as a word or a dotted name's part."""
    pattern = re.compile(rf"(?<![\w-]){re.escape(word)}(?![\w-])")
    return [loc for loc, entry in index.items()
            if pattern.search(entry["title"]) or pattern.search(entry["text"])]


@pytest.mark.slow
def test_search_finds_the_front_doors(index: dict[str, dict[str, Any]]) -> None:
    assert index["library/game/#devilsgrip.game.Game"]["title"] == "devilsgrip.game.Game"
    assert "library/solver/#devilsgrip.solver.solve" in index
    assert "library/review/#devilsgrip.review.review_game" in index
    for word in ("Game", "solve", "review"):
        assert len(_finds(index, word)) >= 3, word


@pytest.mark.slow
def test_search_finds_every_command(index: dict[str, dict[str, Any]]) -> None:
    from devilsgrip.cli import _command_names, build_parser

    names = _command_names(build_parser())
    assert {"play", "tui", "solve", "review", "stats"} <= names
    for name in names:
        entry = index.get(f"commands/#{name}")
        assert entry is not None, f"commands/#{name} is not in the search index"
        assert f"devilsgrip {name}" in entry["title"]
        assert f"usage: devilsgrip {name}" not in entry["text"]  # the prefix is cut
        assert f"devilsgrip {name}" in entry["text"]


@pytest.mark.slow
def test_command_reference_lists_every_option(site: Path) -> None:
    from devilsgrip.cli import build_parser

    page = (site / "commands" / "index.html").read_text(encoding="utf-8")
    parser = build_parser()
    subparsers = next(a for a in parser._actions if a.dest == "command")
    assert subparsers.choices
    for name, sub in subparsers.choices.items():
        for action in sub._actions:
            for option in action.option_strings:
                assert option in page, f"devilsgrip {name} {option} is not in the reference"


def _solver_lemmas() -> dict[str, str]:
    """Every section of the solver page with an anchor of its own: its title, by anchor."""
    text = (DOCS / "solver.md").read_text(encoding="utf-8")
    found = {}
    for line in text.splitlines():
        match = re.match(r"^#+ (?P<title>.*?) \{#(?P<anchor>[a-z0-9-]+)\}$", line)
        if match:
            found[match["anchor"]] = match["title"]
    return found


@pytest.mark.slow
def test_search_finds_every_lemma_of_the_solver(index: dict[str, dict[str, Any]]) -> None:
    lemmas = _solver_lemmas()
    for anchor in ("safe-talon-build", "counting-bound", "stack-bound", "talon-bound",
                   "talon-bottom-lemma", "bases-unmatched", "fills-keep-pace",
                   "monotone-relaxation", "talon-build-never-wrong",
                   "emptied-pile-never-matters"):
        assert anchor in lemmas, anchor
    for anchor, title in lemmas.items():
        entry = index.get(f"solver/#{anchor}")
        assert entry is not None, f"solver/#{anchor} is not in the search index"
        assert entry["title"] == title.replace("`", "") or title in entry["title"]
        assert len(entry["text"]) > 100, f"{title}: the section has no argument"


def _docstring_links() -> list[tuple[Path, str, str]]:
    links = []
    for path in sorted(SRC.rglob("*.py")):
        for match in DOC_LINK.finditer(path.read_text(encoding="utf-8")):
            links.append((path, match["page"], match["anchor"]))
    return links


@pytest.mark.slow
def test_docstring_links_land_on_a_heading(index: dict[str, dict[str, Any]]) -> None:
    links = _docstring_links()
    anchors = {anchor for _path, _page, anchor in links}
    # every proof moved out of the solver's docstrings is linked from them
    assert {"talon-bottom-lemma", "bases-unmatched", "fills-keep-pace", "counting-bound",
            "stack-bound", "talon-bound", "safe-talon-build", "monotone-relaxation",
            "review-method", "database-location"} <= anchors
    for path, page, anchor in links:
        location = f"{_page_location(page)}#{anchor}"
        assert location in index, f"{path.relative_to(ROOT)} links {page}#{anchor}, not a heading"


def test_docstrings_stay_short() -> None:
    """A docstring says what a name does; a proof goes in the docs (the longest left are
    module overviews and the deal's specification in cards.py)."""
    import ast

    for name in ("solver/bounds.py", "solver/winnable.py", "solver/search.py",
                 "solver/clairvoyant.py", "solver/playouts.py", "review.py", "store.py"):
        tree = ast.parse((SRC / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef):
                doc = ast.get_docstring(node) or ""
                prose = [line for line in doc.splitlines()
                         if not line.lstrip().startswith((">>>", "..."))]
                assert len(prose) <= 16, f"{name}: {getattr(node, 'name', 'module')}"


def test_every_public_name_says_what_it_is() -> None:
    import griffe

    package = griffe.load("devilsgrip", search_paths=[str(ROOT / "src")], resolve_aliases=True)
    missing = []
    for name in package.exports or ():
        target = package.members[str(name)]
        if isinstance(target, griffe.Alias):
            target = target.final_target
        if not str(name).startswith("__") and not target.docstring:
            missing.append(target.path)

    def walk(obj: Any, in_class: bool) -> None:
        for name, member in obj.members.items():
            if name.startswith("_") or isinstance(member, griffe.Alias):
                continue
            if in_class and member.is_attribute:
                continue  # fields: the class's docstring tells them
            if not member.docstring:
                missing.append(member.path)
            if member.is_class and not in_class:
                walk(member, True)

    for module_name in PUBLIC_MODULES:
        module = package[module_name.removeprefix("devilsgrip.")]
        if not module.docstring:
            missing.append(module.path)
        if module.exports is not None:
            for name in module.exports:
                target = module.members[str(name)]
                if isinstance(target, griffe.Alias):
                    target = target.final_target
                if not target.docstring:
                    missing.append(target.path)
        else:
            walk(module, False)
    assert not missing, missing


@pytest.mark.parametrize("name", ["devilsgrip", *PUBLIC_MODULES, "devilsgrip.solver.wins",
                                  "devilsgrip.session", "devilsgrip.table.records"])
def test_library_examples_run(name: str) -> None:
    """The examples the library reference shows, from the docstrings, run as written."""
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_docs_pages_have_examples_that_pytest_collects() -> None:
    """pytest collects every page's examples (--doctest-glob over docs/ and the README)."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    options = config["tool"]["pytest"]["ini_options"]
    assert "docs" in options["testpaths"] and "README.md" in options["testpaths"]
    assert "--doctest-glob=*.md" in options["addopts"]
    with_examples = [p for p in DOCS.rglob("*.md") if ">>> " in p.read_text(encoding="utf-8")]
    assert len(with_examples) >= 5


def test_readme_is_a_players_page() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = text.splitlines()
    assert len(lines) < 200
    start = text.index("make play")
    assert start < text.index("## The game in a minute")  # the two commands come first
    assert "make test" in text[:start + 200]
    assert "pipx install ." in text and "pip install ." in text
    for image in re.findall(r"!\[[^]]*\]\(([^)]+)\)", text):
        assert (ROOT / image).is_file(), image
    dated = re.findall(r"\b\d{1,2} (?:January|February|March|April|May|June|July|August|"
                       r"September|October|November|December)\b|\b20\d\d\b", text)
    assert not dated, dated
    for link in re.findall(r"\]\((docs/[^)#]+)", text):
        assert (ROOT / link).is_file(), link
