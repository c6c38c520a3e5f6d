"""The structure of docs/ARCHITECTURE.md, kept true: no import cycle, dependencies one way, the
rules in the engine only. The imports are read from the source (``tests/imports.py``)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.imports import (
    PACKAGES,
    ROOT,
    Import,
    app_graph,
    cycles,
    module_graph,
    project_imports,
    source_files,
)

#: Which apps each app may import (besides itself). ``config`` and ``manage.py`` are the entry points.
ALLOWED = {
    "engine": set(),
    "common": set(),
    "games": {"engine", "common"},
    "ratings": {"engine", "common", "games"},
    "tournaments": {"engine", "common", "games", "ratings"},
    "analysis": {"engine", "common", "games", "ratings", "tournaments"},
    "community": {"engine", "common", "games", "ratings", "tournaments", "analysis"},
    "accounts": {"engine", "common", "games", "ratings", "tournaments", "analysis", "community"},
    "live": {"engine", "common", "games", "ratings", "tournaments", "analysis", "community", "accounts"},
    "web": {
        "engine",
        "common",
        "games",
        "ratings",
        "tournaments",
        "analysis",
        "community",
        "accounts",
        "live",
    },
    "config": {
        "common",
        "games",
        "ratings",
        "tournaments",
        "analysis",
        "community",
        "accounts",
        "live",
        "web",
    },
}
#: Modules of ``games`` that other apps must not import: views, URLs, admin, tasks and internals.
GAMES_INTERNAL = {"games.apis", "games.urls", "games.admin", "games.tasks", "games.rows", "games.receivers"}


@pytest.fixture(scope="module")
def imports() -> list[Import]:
    return project_imports()


def internal(imports: list[Import]) -> list[Import]:
    return [i for i in imports if i.target.split(".")[0] in PACKAGES]


def test_every_package_is_known() -> None:
    assert set(ALLOWED) == set(PACKAGES)


def test_no_import_cycle_between_modules(imports: list[Import]) -> None:
    assert cycles(module_graph(imports)) == []


def test_no_import_cycle_between_apps(imports: list[Import]) -> None:
    assert cycles(app_graph(imports)) == []


def test_the_cycle_finder_finds_cycles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_dependencies_run_one_way(imports: list[Import]) -> None:
    wrong = [
        f"{i.source}:{i.line} imports {i.target}"
        for i in internal(imports)
        if i.target.split(".")[0] not in ALLOWED[i.source.split(".")[0]] | {i.source.split(".")[0]}
    ]
    assert wrong == []


def test_nothing_imports_the_entry_points(imports: list[Import]) -> None:
    wrong = [
        f"{i.source}:{i.line}"
        for i in internal(imports)
        if i.target.split(".")[0] == "config" and not i.source.startswith("config")
    ]
    assert wrong == []


def test_other_apps_use_the_public_side_of_games(imports: list[Import]) -> None:
    wrong = []
    for i in internal(imports):
        app = i.source.split(".")[0]
        if app == i.target.split(".")[0]:
            continue
        if any(i.target == m or i.target.startswith(m + ".") for m in GAMES_INTERNAL):
            wrong.append(f"{i.source}:{i.line} imports {i.target}")
        wrong += [
            f"{i.source}:{i.line} takes the private {i.target}.{n}" for n in i.names if n.startswith("_")
        ]
    assert wrong == []


def test_imports_inside_functions_say_why(imports: list[Import]) -> None:
    unexplained = [f"{i.source}:{i.line} {i.target}" for i in imports if i.in_function and not i.explained]
    assert unexplained == []


#: A comparison with a game's name: ``game == "pacru"``, ``T.game !== 'shacru'``, ``"azacru" ===
#: x``, ``game in ("pacru", …)``, ``case "pacru":``. A name followed by more than its closing quote
#: (the setting "pacru.sound") is no game.
GAME_NAME = r"""["'](?:pacru|shacru|azacru)["']"""
GAME_BRANCH = re.compile(
    rf"""(?:(?:[=!]==?|\bin\b)\s*\(?\s*{GAME_NAME})|(?:{GAME_NAME}\s*[=!]==?)|(?:\bcase\s+{GAME_NAME})"""
)


def page_files() -> list[Path]:
    """The templates and the browser scripts: they show the rules, and must not decide them."""
    return sorted((ROOT / "templates").rglob("*.html")) + sorted((ROOT / "static" / "js").glob("*.js"))


def test_only_the_engine_knows_which_game_has_which_rules() -> None:
    """No branch on a game's name outside ``engine/`` (``if game == "pacru"``), in Python, the
    templates or the scripts: ask the engine's variant registry or the state instead (pages read
    the table's ``rules`` and ``powers``)."""
    found = []
    for path in [*source_files([p for p in PACKAGES if p != "engine"]), *page_files()]:
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if GAME_BRANCH.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []
    assert any(p.suffix == ".js" for p in page_files()) and any(p.suffix == ".html" for p in page_files())


@pytest.mark.parametrize(
    "line",
    [
        'if table.game == "pacru":',
        "game != 'shacru'",
        'if (T.game === "shacru") return 1;',
        'if (T.game !== "pacru") {',
        'notationInput.placeholder = boot.game === "pacru"',
        "{% if table.game == 'pacru' %}",
        '{% if table.game != "azacru" %}',
        "if game in ('pacru', 'azacru'):",
        'if ("pacru" === game) {',
        'case "shacru":',
    ],
)
def test_the_game_branch_finder_finds_branches(line: str) -> None:
    assert GAME_BRANCH.search(line)


@pytest.mark.parametrize(
    "line",
    [
        'let soundOn = readSetting("pacru.sound") === "on";',
        'writeSetting("pacru.oneclick", oneClick ? "on" : "off");',
        'const RULES = "/rules/pacru/";',
        "<a href=\"{% url 'rules' 'pacru' %}\">",
        'variant("pacru").rules',
    ],
)
def test_the_game_branch_finder_leaves_names_that_are_no_branch(line: str) -> None:
    assert not GAME_BRANCH.search(line)


def test_every_event_is_announced_through_the_robust_path() -> None:
    """Events are sent only by ``games.events`` (``announce``: each receiver isolated, a failure
    counted): a direct ``signal.send(...)`` would let one listener fail a committed write."""
    direct = re.compile(r"\.send(_robust)?\(\s*sender\s*=")
    found = []
    for path in source_files():
        if path.relative_to(ROOT).as_posix() == "games/events.py":
            continue
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if direct.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []
    assert direct.search("game_finished.send(sender=Table, result=result)")


#: The listeners of other apps' events. Each finds what it needs in the event's typed payload
#: (``games.events``, ``tournaments.events``) and reads only its own app's tables.
LISTENERS = ("accounts.receivers", "live.receivers")
#: Names of other apps' models a listener may still import, as they read no table: an enum, and
#: the model whose ``post_save`` a live receiver listens to (its sender).
NO_QUERY = {"GameKind", "Notification"}


@pytest.mark.parametrize("listener", LISTENERS)
def test_listeners_read_no_table_of_the_apps_they_listen_to(imports: list[Import], listener: str) -> None:
    app = listener.split(".")[0]
    found = [
        f"{i.target}: {', '.join(sorted(set(i.names) - NO_QUERY))}"
        for i in imports
        if i.source == listener
        and i.target.endswith(".models")
        and i.target.split(".")[0] != app
        and set(i.names) - NO_QUERY
    ]
    assert found == []


def test_the_import_reader_sees_imports_inside_functions() -> None:
    found = [i for i in project_imports() if i.in_function]
    # The apps' ready() hooks are Django's idiom, each with its why.
    assert {i.source for i in found} >= {"games.apps", "ratings.apps", "tournaments.apps"}
    assert all(i.explained for i in found if i.source.endswith(".apps"))


def test_every_package_is_installed_and_shipped_in_the_image() -> None:
    """A new app must reach the wheel (pyproject) and the Docker image, or the service breaks there."""
    pyproject = (ROOT / "pyproject.toml").read_text()
    dockerfile = (ROOT / "docker" / "Dockerfile").read_text()
    for package in PACKAGES:
        assert f'"{package}*"' in pyproject, package
        assert f"COPY {package} ./{package}" in dockerfile, package


#: Modules that may pass the limit: data, not code (the generated round-robin schedules, the rules
#: pages' text). Migrations are left out by ``source_files`` already.
LONG_DATA = {"tournaments/pairing/round_robin_data.py", "web/rules_content.py"}
MAX_LINES = 600


def test_no_hand_written_module_passes_600_lines() -> None:
    """A module past about 600 lines holds more than one room's work: split it by role (as
    ``tournaments/competitions``, ``tournaments/ladders`` and ``tournaments/organising`` are)."""
    sizes = {path.relative_to(ROOT).as_posix(): len(path.read_text().splitlines()) for path in source_files()}
    assert set(sizes) >= LONG_DATA, "a data table listed here is gone: take it off the list"
    assert {name: n for name, n in sizes.items() if n > MAX_LINES and name not in LONG_DATA} == {}


#: Modules of services by another name: they write (or read for a service) as ``services`` do.
SERVICE_LIKE = {"accounts/notify.py", "tournaments/ladders/queue.py", "tournaments/organising/actions.py"}
#: The public functions of service modules that keep positional parameters, each with its why.
POSITIONAL_ALLOWED = {
    # A callback: recompute() calls ``progress(game, done, total)`` positionally.
    "ratings/services.py:progress_bar": "a progress callback",
    # A tiny pure helper used like reverse() (an absolute URL of a path): a keyword adds only noise.
}
#: Whole modules left out (none today: add one only with its why).
POSITIONAL_MODULES: set[str] = set()


def service_modules() -> list[Path]:
    """``services.py`` and the modules of ``services/`` packages, in every app, and SERVICE_LIKE."""
    found = [p for p in source_files() if p.name == "services.py" or p.parent.name == "services"]
    return sorted({*found, *(ROOT / name for name in SERVICE_LIKE)})


def not_keyword_only(path: Path) -> list[str]:
    """The public module-level functions of ``path`` with a positional parameter (``*args`` too)
    or without a type on a parameter or the return: ``name(param, …)``."""
    wrong = []
    for node in ast.parse(path.read_text()).body:
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or node.name.startswith("_"):
            continue
        a = node.args
        positional = [p.arg for p in a.posonlyargs + a.args] + ([f"*{a.vararg.arg}"] if a.vararg else [])
        untyped = [p.arg for p in a.posonlyargs + a.args + a.kwonlyargs if p.annotation is None]
        untyped += [f"**{a.kwarg.arg}"] if a.kwarg and a.kwarg.annotation is None else []
        untyped += ["return"] if node.returns is None else []
        if positional or untyped:
            wrong.append(f"{node.name}(positional: {positional}, untyped: {untyped})")
    return wrong


def test_service_functions_take_keyword_only_typed_parameters() -> None:
    """Every public function of a service module is called with keywords (``table_create(creator=…,
    game=…)``): a call reads as what it does and two arguments of one type cannot be swapped. Its
    parameters and return are typed. POSITIONAL_ALLOWED lists the few that must stay positional."""
    modules = service_modules()
    names = {p.relative_to(ROOT).as_posix() for p in modules}
    assert {"games/services/tables.py", "ratings/services.py", "accounts/services.py"} <= names
    assert all((ROOT / name).is_file() for name in SERVICE_LIKE | POSITIONAL_MODULES)
    found = {
        f"{name}:{function.split('(')[0]}": function
        for path in modules
        if (name := path.relative_to(ROOT).as_posix()) not in POSITIONAL_MODULES
        for function in not_keyword_only(path)
    }
    assert set(POSITIONAL_ALLOWED) <= set(found), "an exempted function is keyword-only now: drop it"
    assert {k: v for k, v in found.items() if k not in POSITIONAL_ALLOWED} == {}


def test_the_keyword_only_finder_finds_positional_and_untyped_parameters(tmp_path: Path) -> None:
    module = tmp_path / "services.py"
    module.write_text(
        "def good(*, a: int, b: str = '') -> None: ...\n"
        "def _private(a, b): ...\n"
        "def mixed(a: int, *, b: int) -> None: ...\n"
        "def star(*players: int) -> None: ...\n"
        "def untyped(*, a) -> None: ...\n"
        "def no_return(*, a: int): ...\n"
        "class Thing:\n    def method(self, a: int) -> None: ...\n"
    )
    assert not_keyword_only(module) == [
        "mixed(positional: ['a'], untyped: [])",
        "star(positional: ['*players'], untyped: [])",
        "untyped(positional: [], untyped: ['a'])",
        "no_return(positional: [], untyped: ['return'])",
    ]
