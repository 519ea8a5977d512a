"""The static site as built (no browser): its files, the package it runs, its offline list.

The Pyodide runtime is stood in for by small files here (the builder copies it as
it is); the site with the real runtime is played in Chromium in test_site_browser.py.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from devilsgrip.cards import CARD_CODES
from devilsgrip.site import build, icons
from devilsgrip.site.build import PYODIDE_FILES, SiteError, build_site


@pytest.fixture(scope="module")
def runtime(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("pyodide")
    for name in PYODIDE_FILES:
        (folder / name).write_bytes(b"runtime file " + name.encode())
    return folder


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, runtime: Path) -> Path:
    folder = tmp_path_factory.mktemp("out") / "site"
    build_site(folder, runtime)
    return folder


def listed(site: Path) -> list[str]:
    head = (site / "sw.js").read_text(encoding="utf-8")
    found = re.search(r"const FILES = (\[.*?\]);", head, re.DOTALL)
    assert found is not None
    return list(json.loads(found.group(1)))


def test_every_file_is_kept_for_offline_play(site: Path) -> None:
    on_disk = sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file())
    kept = listed(site)
    # the service worker itself is not cached, nor the mark of a built site
    assert set(on_disk) - set(kept) == {"sw.js", build.MARK}
    assert set(kept) <= set(on_disk)
    for name in ("index.html", "worker.js", "static/transport.js", "static/app.js",
                 "static/style.css", "devilsgrip.zip", "manifest.webmanifest",
                 "icons/icon-192.png", "icons/icon-512.png", "favicon.ico",
                 *(f"pyodide/{n}" for n in PYODIDE_FILES)):
        assert name in kept, name


def test_the_page_is_the_servers_with_the_sites_transport(site: Path) -> None:
    static = build.STATIC_DIR
    for path in static.glob("*.js"):
        built = (site / "static" / path.name).read_text(encoding="utf-8")
        if path.name == "transport.js":
            assert "new Worker" in built and "fetch(path" not in built
        else:  # the same module, its root paths made relative
            assert built == path.read_text(encoding="utf-8").replace('"/cards/', '"cards/')
    html = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="/' not in html and 'src="/' not in html
    assert '<link rel="manifest" href="manifest.webmanifest">' in html
    body = html[html.index("<body"):]
    original = (static / "index.html").read_text(encoding="utf-8")
    assert body == original[original.index("<body"):].replace('src="/cards/', 'src="cards/')


def test_card_images_in_both_colourings(site: Path) -> None:
    for code in CARD_CODES:
        plain = (site / "cards" / f"{code}.svg").read_text(encoding="utf-8")
        four = (site / "cards" / "four" / f"{code}.svg").read_text(encoding="utf-8")
        assert plain.startswith("<svg") and four.startswith("<svg")
    assert (site / "cards" / "back.svg").is_file() and (site / "cards" / "empty.svg").is_file()
    # diamonds are blue in the four-colour deck only
    assert "#0b57b8" in (site / "cards/four/2D.svg").read_text()
    assert "#0b57b8" not in (site / "cards/2D.svg").read_text()


def test_manifest_meets_the_install_criteria(site: Path) -> None:
    manifest = json.loads((site / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["name"] == "Devil's Grip" and manifest["short_name"]
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "./" and manifest["theme_color"] == icons.TABLE_GREEN
    sizes = {}
    for icon in manifest["icons"]:
        png = (site / icon["src"]).read_bytes()
        assert icon["type"] == "image/png"
        sizes[icon["sizes"]] = icons.png_size(png)
    assert sizes["192x192"] == (192, 192) and sizes["512x512"] == (512, 512)


def test_the_package_is_pure_python_and_imports_without_the_servers_libraries(
        site: Path, tmp_path: Path) -> None:
    with zipfile.ZipFile(site / "devilsgrip.zip") as archive:
        names = archive.namelist()
        archive.extractall(tmp_path / "lib")
    assert "devilsgrip/web/api.py" in names and "devilsgrip/site/worker.py" in names
    assert not [n for n in names if n.endswith((".so", ".pyd", ".c", ".po", ".pyc"))]
    assert not [n for n in names if n.startswith(("devilsgrip/tui/", "devilsgrip/web/static/"))]
    assert "devilsgrip/locale/fr/LC_MESSAGES/devilsgrip.mo" in names
    assert "devilsgrip/data/winnable-single-pass.txt" in names  # daily and winnable deals
    # Pyodide has none of the server's or the terminal's libraries: the worker's door
    # must not need them (nor the compiled core).
    script = (
        "import sys, importlib.abc\n"
        "class No(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        top = name.split('.')[0]\n"
        "        if top in {'starlette', 'uvicorn', 'anyio', 'textual', 'rich', 'babel',\n"
        "                   'platformdirs', 'httpx'} or name.endswith('._core'):\n"
        "            raise ImportError(name)\n"
        "sys.meta_path.insert(0, No())\n"
        f"sys.path.insert(0, {str(tmp_path / 'lib')!r})\n"
        "import json, os\n"
        "os.environ['DEVILSGRIP_CORE'] = 'python'\n"
        "from devilsgrip.site.worker import WorkerDoor\n"
        f"door = WorkerDoor({str(tmp_path / 'data')!r}, game=7)\n"
        "status, text = door.answer('GET', '/api/i18n?lang=fr', None, 'fr')\n"
        "assert status == 200 and json.loads(text)['lang'] == 'fr', text\n"
        "status, text = door.answer('POST', '/api/hint', '{}', 'fr')\n"
        "assert status == 200, text\n"
        "status, made = door.answer('POST', '/api/new', "
        "'{\"rules\": \"single-pass\", \"winnable\": true}', 'fr')\n"
        "assert status == 200, made\n"
        "import devilsgrip\n"
        "print(devilsgrip.__file__, json.loads(text)['text'])\n"
    )
    out = subprocess.run([sys.executable, "-I", "-c", script], capture_output=True, text=True,
                         timeout=120, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(str(tmp_path / "lib"))


def test_a_build_is_versioned_by_its_content(tmp_path: Path, runtime: Path) -> None:
    first = build_site(tmp_path / "a", runtime)
    again = build_site(tmp_path / "a", runtime)  # a site built before is replaced
    assert first.version == again.version and first.files == again.files
    (runtime / "pyodide.mjs").write_bytes(b"a newer runtime")
    try:
        changed = build_site(tmp_path / "a", runtime)
    finally:
        (runtime / "pyodide.mjs").write_bytes(b"runtime file pyodide.mjs")
    assert changed.version != first.version
    assert f'"{changed.version}"' in (tmp_path / "a" / "sw.js").read_text()


def test_a_folder_of_something_else_is_left_untouched(tmp_path: Path, runtime: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "notes.txt").write_text("keep me")
    with pytest.raises(SiteError) as caught:
        build_site(folder, runtime)
    assert caught.value.code == "site-not-ours"
    assert [p.name for p in folder.iterdir()] == ["notes.txt"]


def test_a_missing_runtime_is_named(tmp_path: Path) -> None:
    with pytest.raises(SiteError) as caught:
        build_site(tmp_path / "site", tmp_path / "nowhere")
    assert caught.value.code == "site-no-pyodide"
    assert "npm install pyodide@" in caught.value.text()
    assert not (tmp_path / "site").exists()


def test_the_command_builds_and_reports(tmp_path: Path, runtime: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    from devilsgrip.cli import main

    assert main(["site", str(tmp_path / "out"), "--pyodide", str(runtime)]) == 0
    assert (tmp_path / "out" / "index.html").is_file()
    assert str(tmp_path / "out") in capsys.readouterr().out
    assert main(["site", str(tmp_path / "x"), "--pyodide", str(tmp_path)]) == 2
    assert "Pyodide" in capsys.readouterr().err


def test_loader_words_in_every_language(site: Path) -> None:
    from devilsgrip import i18n

    table = json.loads((site / "site-words.json").read_text(encoding="utf-8"))
    assert set(table) == set(i18n.LANGUAGES)
    for lang, words in table.items():
        assert set(words) == set(build.SITE_WORDS)
        if lang != "en":
            assert all(words[key] != key for key in build.SITE_WORDS), lang


def test_icons_are_drawn_from_the_card_back() -> None:
    png = icons.icon_png(64)
    assert icons.png_size(png) == (64, 64)
    ico = icons.favicon_ico()
    assert ico[:4] == b"\0\0\1\0" and ico[22:30] == b"\x89PNG\r\n\x1a\n"
