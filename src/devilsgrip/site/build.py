"""``devilsgrip site DIR``: the game as a static site that any web host can serve.

The site holds the page (the local server's own files, with one module replaced:
``static/transport.js`` hands each request to a Web Worker instead of the network),
the card images, the project's own package as a zip of pure Python (no compiled
search core: the solver runs on its Python core), the Pyodide runtime copied from
its npm package, the worker's script, the app's manifest and icons, and a service
worker that keeps every file for playing offline.  Every path in it is relative,
so it plays from a folder of any host; nothing is fetched from anywhere else.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import devilsgrip
from devilsgrip import codes, i18n
from devilsgrip.cards import CARD_CODES
from devilsgrip.errors import DevilsGripError
from devilsgrip.i18n import N_
from devilsgrip.site import icons
from devilsgrip.web import cards_svg

PYODIDE_VERSION: Final = "314.0.8"
"""The Pyodide release the site is built and tested with (``make site`` installs it)."""
PYODIDE_FILES: Final = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm",
                        "python_stdlib.zip", "pyodide-lock.json")
"""What the runtime loads: its loader, the WebAssembly CPython and the standard library
(``sqlite3`` included); no other package of the Pyodide distribution is needed."""
PYODIDE_ENV: Final = "DEVILSGRIP_PYODIDE"
PYODIDE_PLACES: Final = (".site-tools/node_modules/pyodide", "node_modules/pyodide")
"""Where the runtime is looked for (from the current folder) without ``--pyodide``."""
FILES_DIR: Final = Path(__file__).parent / "files"
STATIC_DIR: Final = Path(cards_svg.__file__).parent / "static"
PACKAGE_DIR: Final = Path(devilsgrip.__file__).parent
PACKAGE_ZIP: Final = "devilsgrip.zip"
LEFT_OUT: Final = ("tui", "analysis", "web/static", "site/files", "__pycache__")
"""Parts of the package the site does not run (the terminal game, the analysis of many
deals, the page's own files, which the site serves beside it)."""
MARK: Final = "devilsgrip-site.json"
"""The file that says a folder holds a site built here (and may be built over)."""
APP_NAME: Final = "Devil's Grip"
THEME_COLOUR: Final = icons.TABLE_GREEN

SITE_WORDS: Final = (
    N_("Starting the game"),
    N_("Downloading the game (only on the first visit)"),
    N_("Starting Python"),
    N_("Loading the game's rules and solver"),
    N_("Opening your saved games"),
    N_("This browser cannot run the game: {reason}"),
    N_("The game stopped: {reason}. Reload the page to go on."),
)
"""The sentences of the site's loader, said before the page has its words (the site
keeps them in every language, in ``site-words.json``)."""

ERRORS: Final = {
    codes.SITE_NO_PYODIDE: N_("the Pyodide runtime is not in {path} (install it with `make "
                          "site`, or `npm install pyodide@{version}`)"),
    codes.SITE_NOT_OURS: N_("{path} is not empty and holds no site built by devilsgrip: "
                        "nothing was written"),
    codes.SITE_WRITE_FAILED: N_("cannot write {path}: {reason}"),
}


class SiteError(DevilsGripError):
    """The site cannot be built: ``code`` one of :data:`ERRORS`."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code, ERRORS[code].format(**params), **params)

    def text(self) -> str:
        """The reason in the current language."""
        return i18n._(ERRORS[self.code]).format(**self.params)


@dataclass(frozen=True)
class SiteReport:
    """What was built: the folder, its files (relative paths) and their bytes."""

    folder: Path
    files: tuple[str, ...]
    size: int
    version: str


def find_pyodide(given: Path | None = None) -> Path:
    """The folder of Pyodide's npm package: ``given``, else ``$DEVILSGRIP_PYODIDE``, else
    :data:`PYODIDE_PLACES`; :class:`SiteError` when its files are not all there."""
    candidates = [given] if given is not None else [
        Path(p) for p in (os.environ.get(PYODIDE_ENV), *PYODIDE_PLACES) if p]
    for folder in candidates:
        if all((folder / name).is_file() for name in PYODIDE_FILES):
            return folder
    shown = candidates[0] if candidates else Path(PYODIDE_PLACES[0])
    raise SiteError(codes.SITE_NO_PYODIDE, path=str(shown), version=PYODIDE_VERSION)


def package_zip() -> bytes:
    """The project's package as a zip: its Python modules, its data (the catalog of
    winnable deals), the compiled catalogs and the rules texts; no compiled extension
    (the search core falls back to pure Python)."""
    members: dict[str, bytes] = {}
    for path in sorted(PACKAGE_DIR.rglob("*")):
        relative = path.relative_to(PACKAGE_DIR).as_posix()
        if not path.is_file() or any(relative == part or relative.startswith(part + "/")
                                     or f"/{part}/" in f"/{relative}"
                                     for part in LEFT_OUT):
            continue
        if path.suffix not in (".py", ".md") and path.name != "py.typed" \
                and not relative.startswith("data/"):  # the catalogs the game reads
            continue
        members[f"devilsgrip/{relative}"] = path.read_bytes()
    for lang in i18n.LANGUAGES:
        mo = i18n.mo_path(lang)
        if mo is not None and mo.is_file():
            members[f"devilsgrip/locale/{lang}/LC_MESSAGES/{i18n.DOMAIN}.mo"] = mo.read_bytes()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name in sorted(members):  # fixed dates: the same package gives the same zip
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, members[name])
    return buffer.getvalue()


def _relative_paths(text: str, name: str) -> str:
    """The page's root paths (``/static/``, ``/cards/``) made relative to the page, so
    that the site plays from any folder of a host."""
    out = text
    for root in ("static/", "cards/"):
        out = out.replace(f'"/{root}', f'"{root}')
    if '"/static/' in out or '"/cards/' in out:  # pragma: no cover - checked just above
        raise AssertionError(name)
    return out


def _page(files: dict[str, bytes]) -> None:
    """The page, its scripts and styles (the site's transport in place of the server's)."""
    for path in sorted(STATIC_DIR.iterdir()):
        if not path.is_file() or path.name.startswith("."):
            continue
        if path.name == "index.html":
            continue
        source = FILES_DIR / "transport.js" if path.name == "transport.js" else path
        text = source.read_text(encoding="utf-8")
        files[f"static/{path.name}"] = _relative_paths(text, path.name).encode()
    html = _relative_paths((STATIC_DIR / "index.html").read_text(encoding="utf-8"), "index.html")
    head = ('<link rel="manifest" href="manifest.webmanifest">\n'
            '<link rel="apple-touch-icon" href="icons/icon-192.png">\n</head>')
    if "</head>" not in html:  # pragma: no cover - the page has a head
        raise AssertionError("index.html")
    files["index.html"] = html.replace("</head>", head, 1).encode()


def _cards(files: dict[str, bytes]) -> None:
    """Every card image, in both colourings (the four-colour ones under ``cards/four/``)."""
    files["cards/back.svg"] = cards_svg.back_svg().encode()
    files["cards/empty.svg"] = cards_svg.empty_svg().encode()
    for code in CARD_CODES:
        files[f"cards/{code}.svg"] = cards_svg.card_svg(code).encode()
        files[f"cards/four/{code}.svg"] = cards_svg.card_svg(code, four_colour=True).encode()


def _words() -> bytes:
    """The loader's sentences in every language (before the page has its own words)."""
    table = {lang: {key: i18n.translations(lang).gettext(key) for key in SITE_WORDS}
             for lang in i18n.LANGUAGES}
    return json.dumps(table, ensure_ascii=False, sort_keys=True).encode()


def _manifest() -> bytes:
    manifest = {
        "name": APP_NAME,
        "short_name": APP_NAME,
        "description": "Devil's Grip solitaire: 96 cards, 24 cells, a stock of 88.",
        "id": "./",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "orientation": "any",
        "background_color": THEME_COLOUR,
        "theme_color": THEME_COLOUR,
        "categories": ["games"],
        "icons": [{"src": f"icons/icon-{size}.png", "sizes": f"{size}x{size}",
                   "type": "image/png", "purpose": "any"} for size in icons.ICON_SIZES]
                 + [{"src": f"icons/icon-{icons.ICON_SIZES[-1]}.png",
                     "sizes": f"{icons.ICON_SIZES[-1]}x{icons.ICON_SIZES[-1]}",
                     "type": "image/png", "purpose": "maskable"}],
    }
    return json.dumps(manifest, indent=2).encode()


def _service_worker(files: dict[str, bytes]) -> tuple[bytes, str]:
    """The service worker with the list of every file and the build's version (a digest
    of every file's content: a new build that changes anything gets a new cache)."""
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
    version = digest.hexdigest()[:16]
    listed = sorted(files)
    head = (f"// Built by devilsgrip {devilsgrip.__version__}.\n"
            f"const VERSION = {json.dumps(version)};\n"
            f"const FILES = {json.dumps(listed, indent=0)};\n")
    return (head + (FILES_DIR / "sw.js").read_text(encoding="utf-8")).encode(), version


def site_files(pyodide: Path) -> tuple[dict[str, bytes], str]:
    """Every file of the site by its relative path, and the build's version."""
    files: dict[str, bytes] = {}
    _page(files)
    _cards(files)
    for name in PYODIDE_FILES:
        files[f"pyodide/{name}"] = (pyodide / name).read_bytes()
    files[PACKAGE_ZIP] = package_zip()
    files["worker.js"] = (FILES_DIR / "worker.js").read_bytes()
    files["site-words.json"] = _words()
    files["manifest.webmanifest"] = _manifest()
    for size in icons.ICON_SIZES:
        files[f"icons/icon-{size}.png"] = icons.icon_png(size)
    files["favicon.ico"] = icons.favicon_ico()
    sw, version = _service_worker(files)
    files["sw.js"] = sw
    files[MARK] = json.dumps({"version": version, "devilsgrip": devilsgrip.__version__,
                              "pyodide": PYODIDE_VERSION}).encode()
    return files, version


def _check_folder(folder: Path) -> None:
    if folder.is_dir() and any(folder.iterdir()) and not (folder / MARK).is_file():
        raise SiteError(codes.SITE_NOT_OURS, path=str(folder))
    if folder.exists() and not folder.is_dir():
        raise SiteError(codes.SITE_NOT_OURS, path=str(folder))


def build_site(folder: Path, pyodide: Path | None = None) -> SiteReport:
    """Write the site into ``folder`` (empty, missing, or a site built before, which is
    replaced whole); :class:`SiteError` when the runtime is missing or ``folder`` holds
    something else."""
    runtime = find_pyodide(pyodide)
    _check_folder(folder)
    files, version = site_files(runtime)
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        fresh = Path(tempfile.mkdtemp(prefix=".site-", dir=folder.parent))
        try:
            for name, body in files.items():
                path = fresh / name
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(body)
                path.chmod(0o644)
            fresh.chmod(0o755)
            for sub in fresh.rglob("*"):
                if sub.is_dir():
                    sub.chmod(0o755)
            if folder.exists():
                shutil.rmtree(folder)
            fresh.rename(folder)
        except BaseException:
            shutil.rmtree(fresh, ignore_errors=True)
            raise
    except OSError as exc:
        raise SiteError(codes.SITE_WRITE_FAILED, path=str(exc.filename or folder),
                        reason=exc.strerror or str(exc)) from exc
    return SiteReport(folder, tuple(sorted(files)), sum(len(b) for b in files.values()), version)
