"""The page's modules go one way: input -> actions -> transport -> state -> render.

Read from the sources (no browser): every ``import`` of every module in
``web/static``, which must form no cycle and respect the layers; every imported
name exported where it is imported from; the state written by ``state.js`` alone;
every request sent by ``transport.js`` alone; no move text read by the page.  The
same holds of the static site's page, whose ``transport.js`` is ``site/files``'s.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "devilsgrip"
STATIC = PACKAGE / "web" / "static"
SITE_FILES = PACKAGE / "site" / "files"
PAGES = ("server", "site")
"""The page served by the server, and the static site's (its own transport, as
``devilsgrip.site.build`` puts it in place of the server's)."""

IMPORT = re.compile(
    r"""^\s*import\s+(?:(?P<names>\{[^}]*\}|[\w$*\s,]+?)\s+from\s+)?["'](?P<path>[^"']+)["']""",
    re.MULTILINE)
DYNAMIC_IMPORT = re.compile(r"""\bimport\s*\(\s*["'](?P<path>[^"']+)["']""")
EXPORT = re.compile(r"^export\s+(?:async\s+)?(?:function\*?|const|let|var|class)\s+([\w$]+)",
                    re.MULTILINE)

# The layers, lowest first: a module imports only modules of lower layers.
LAYERS: dict[str, int] = {
    "state.js": 0, "markdown.js": 0, "answers.js": 0,
    "i18n.js": 1,
    "transport.js": 2,
    "board.js": 3, "messages.js": 3, "dialogs.js": 3, "sound.js": 3,
    "animation.js": 4, "arrows.js": 4, "history.js": 4, "review.js": 4, "guide.js": 4,
    "daily.js": 4,
    "viewer.js": 5,
    "render.js": 6,
    "actions.js": 7, "records.js": 7,
    "menus.js": 8,
    "input.js": 9,
    "app.js": 10,
}
DRAWING = {name for name, layer in LAYERS.items() if 3 <= layer <= 6}


def modules(page: str = "server") -> dict[str, str]:
    """The page's modules by name, with their sources (``page``: one of :data:`PAGES`)."""
    out = {path.name: path.read_text(encoding="utf-8") for path in sorted(STATIC.glob("*.js"))}
    if page == "site":
        out["transport.js"] = (SITE_FILES / "transport.js").read_text(encoding="utf-8")
    return out


def code_of(source: str) -> str:
    """The source without its comments and the text of its strings and templates."""
    out = re.sub(r"/\*.*?\*/", " ", source, flags=re.DOTALL)
    out = re.sub(r"""("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)""",
                 lambda m: m.group(0)[0] * 2, out)
    return re.sub(r"//[^\n]*", " ", out)


def imports(source: str) -> dict[str, set[str]]:
    """The modules ``source`` imports, each with the names it takes from it."""
    found: dict[str, set[str]] = {}
    for m in IMPORT.finditer(source):
        names = m.group("names") or ""
        taken = {part.split(" as ")[0].strip() for part in names.strip("{} \n").split(",")
                 if part.strip()} if names.startswith("{") else set()
        found.setdefault(m.group("path"), set()).update(taken)
    for m in DYNAMIC_IMPORT.finditer(source):
        found.setdefault(m.group("path"), set())
    return found


def graph(page: str = "server") -> dict[str, dict[str, set[str]]]:
    out: dict[str, dict[str, set[str]]] = {}
    for name, source in modules(page).items():
        edges: dict[str, set[str]] = {}
        for path, taken in imports(source).items():
            assert path.startswith("./") and path.endswith(".js"), (name, path)
            edges[path[2:]] = taken
        out[name] = edges
    return out


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """A cycle of the graph (its modules in order, the first repeated last), or None."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_cycle_finder_finds_cycles() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"a"}}) == ["a", "a"]
    multi = ('import {\n  x,\n  y as z,\n} from "./b.js";\nimport "./c.js";\n'
             'const m = import("./d.js");')
    assert imports(multi) == {"./b.js": {"x", "y"}, "./c.js": set(), "./d.js": set()}


@pytest.mark.parametrize("page", PAGES)
def test_the_page_modules_import_no_cycle(page: str) -> None:
    edges = {name: set(targets) for name, targets in graph(page).items()}
    assert len(edges) >= 10
    assert find_cycle(edges) is None, " -> ".join(find_cycle(edges) or [])


def test_the_site_page_differs_by_its_transport_only() -> None:
    server, site = modules("server"), modules("site")
    assert set(server) == set(site)
    assert [name for name in server if server[name] != site[name]] == ["transport.js"]
    assert [path.name for path in SITE_FILES.glob("*.js")
            if path.name in server] == ["transport.js"]


@pytest.mark.parametrize("page", PAGES)
def test_every_module_has_its_layer_and_imports_only_below(page: str) -> None:
    g = graph(page)
    assert set(g) == set(LAYERS), "a new module of the page needs its layer here"
    wrong = [f"{name} imports {target}" for name, targets in g.items() for target in targets
             if LAYERS[target] >= LAYERS[name]]
    assert wrong == []
    assert not [n for n, targets in g.items() if "app.js" in targets]
    assert g["state.js"] == {}
    # drawing reads the state; it never sends a request nor acts
    assert not [(n, t) for n in DRAWING for t in g[n] if t in {"transport.js", "actions.js",
                                                               "menus.js", "input.js"}]


@pytest.mark.parametrize("page", PAGES)
def test_every_imported_name_is_exported(page: str) -> None:
    exported = {name: set(EXPORT.findall(source)) for name, source in modules(page).items()}
    missing = [f"{name}: {target}.{n}" for name, targets in graph(page).items()
               for target, taken in targets.items() for n in taken
               if n not in exported.get(target, set())]
    assert missing == []


# an assignment, an update or a mutating call on a path into the state object
WRITE = (r"(?:\s*(?:[-+*/%&|^]|\*\*|<<|>>>?|&&|\|\||\?\?)?=(?!=)|\s*(?:\+\+|--)"
         r"|\s*\.\s*(?:set|delete|clear|push|pop|shift|unshift|splice|sort|reverse)\s*\()")


def state_writes(source: str) -> list[str]:
    """The places where ``source`` changes the state object ``app`` or an object read from it."""
    code = code_of(source)
    aliases = set(re.findall(r"\b(?:const|let|var)\s+([\w$]+)\s*=\s*app\b", code))
    aliases |= {n for group in re.findall(r"\b(?:const|let|var)\s+\{([^}]*)\}\s*=\s*app\b", code)
                for n in re.findall(r"[\w$]+", group)}
    roots = "|".join(re.escape(n) for n in sorted({"app", *aliases}))
    path = rf"(?<![\w$.])(?:{roots})(?:\s*\.\s*[\w$]+|\s*\[[^\]]*\])+"
    found = [m.group(0) for m in re.finditer(path + WRITE, code)]
    found += [m.group(0) for m in re.finditer(rf"(?:\+\+|--)\s*{path}", code)]
    found += [m.group(0) for m in re.finditer(rf"Object\.assign\(\s*(?:{roots})\b", code)]
    return found


def test_the_state_write_finder_finds_writes() -> None:
    for write in ("app.selected = 3;", "app.clock.base += 2;", "app.pending++;", "--app.pending;",
                  "app.reviews.set(k, v);", "Object.assign(app.settings, s);",
                  "const st = app.state;\nst.game.elapsed = 1;",
                  "const vw = app.viewer; vw.index = 2;",
                  "app['selected'] = null;", "const { drag } = app; drag.over = 1;"):
        assert state_writes(write), write
    for read in ("if (app.selected === 3) x = 1;", "const v = app.state.view;", "f(app.pending)",
                 "// app.selected = 1", 'say("app.x = 1")', "x = app.selected !== null;"):
        assert not state_writes(read), read


@pytest.mark.parametrize("page", PAGES)
def test_only_the_state_module_changes_the_state(page: str) -> None:
    writes = {name: state_writes(source) for name, source in modules(page).items()
              if name != "state.js"}
    assert {name: w for name, w in writes.items() if w} == {}
    assert state_writes(modules()["state.js"])  # the finder sees the writes where they are


@pytest.mark.parametrize("page", PAGES)
def test_every_request_goes_through_the_transport(page: str) -> None:
    senders = sorted(name for name, source in modules(page).items()
                     if re.search(r"\b(?:fetch|XMLHttpRequest|sendBeacon|WebSocket|EventSource"
                                  r"|postMessage)\b", code_of(source)))
    assert senders == ["transport.js"]
    transport = modules(page)["transport.js"]
    assert re.search(r"^export async function request\(method, path, body\)", transport,
                     re.MULTILINE)
    # a refused answer becomes the one refusal both transports throw (with its state)
    assert re.search(r"\bthrow refusalOf\(data, \w+\.status,", transport)


DECISIONS = [
    r"\.legal\b",            # the engine's move texts: the page reads the state's places instead
    r"split\(\s*[\"'][=-](?![\"']\)\[0\])",  # move or swap text taken apart (a language
    #                                         tag's first part aside)
    r"[\"']t-[\"']",         # the talon build's prefix
    r"takes a score of",     # the rating threshold: the server's label says it
    r"/api/picked",          # a pick-up sends nothing: the state says what it means
    r"counts as (?:over|given up)",  # what leaving does: the state's labels.leave says it
    r"leave_asks",           # ... and whether to ask at all
    r"\.(?:code|error)\s*(?:[!=]==?|\?\?)\s*[\"'`]",  # a refusal told apart by its code
    r"case\s*[\"'][a-z]+-[a-z-]+[\"']",  # ... in a switch
    r"(?<!\.id )(?:[!=]==|case)\s*[\"'][a-z]+-[a-z-]+[\"']",  # anything told apart by a
    r"[\"'][a-z]+-[a-z-]+[\"']\s*[!=]==",  # code or a preset's name (an element's id aside)
]


@pytest.mark.parametrize("pattern", DECISIONS)
def test_the_page_decides_nothing_the_server_decides(pattern: str) -> None:
    found = [f"{page}: {name}" for page in PAGES for name, source in modules(page).items()
             if re.search(pattern, code_of_keeping_strings(source))]
    assert found == []


def code_of_keeping_strings(source: str) -> str:
    """The source without its comments (its strings kept: the patterns look into them)."""
    out = re.sub(r"/\*.*?\*/", " ", source, flags=re.DOTALL)
    return re.sub(r"(?m)(^|[^:\\\"'])//[^\n]*", r"\1 ", out)


def test_the_decision_finder_finds_decisions() -> None:
    for text in ('if (error.code === "game-changed") reload();', "e.code !== 'game-live'",
                 'case "game-won":', 'd.rules === "single-pass" ? a : b', '"game-won" === c',
                 'const [from, to] = text.split("-");',
                 't("It then counts as over, with score {score}.")', "st.game.leave_asks"):
        assert any(re.search(p, code_of_keeping_strings(text)) for p in DECISIONS), text
    for text in ('if (error.state) show(error.state);', '// error.code === "game-changed"',
                 'fetch("https://example.org/a")', 'el.dataset.code = code;',
                 '$("stock-img").src = x;', 'lang.toLowerCase().split("-")[0]',
                 'event.target.id === "guide-close"'):
        assert not any(re.search(p, code_of_keeping_strings(text)) for p in DECISIONS), text
