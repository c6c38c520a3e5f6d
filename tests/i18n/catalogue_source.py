"""The messages the source marks for translation, read without GNU gettext: Python files with
``ast``, templates through Django's own ``templatize`` (what ``makemessages`` feeds xgettext),
browser scripts by their ``gettext("…")`` calls. tests/i18n/test_catalogues.py checks that the
catalogues hold every one of them, so a string marked but never extracted fails the suite."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from django.utils.translation.template import templatize

ROOT = Path(__file__).resolve().parents[2]
PY_DIRS = ["accounts", "common", "config", "games", "live", "ratings", "tournaments", "web"]
#: gettext's function names and which arguments are (context, singular, plural).
FUNCTIONS = {
    "_": (None, 0, None),
    "gettext": (None, 0, None),
    "gettext_lazy": (None, 0, None),
    "gettext_noop": (None, 0, None),
    "ngettext": (None, 0, 1),
    "ngettext_lazy": (None, 0, 1),
    "pgettext": (0, 1, None),
    "pgettext_lazy": (0, 1, None),
    "npgettext": (0, 1, 2),
    "npgettext_lazy": (0, 1, 2),
}

#: (context, msgid, msgid_plural); context and plural are "" when absent.
Message = tuple[str, str, str]


def _message(name: str, args: list[ast.expr]) -> Message | None:
    ctx_i, id_i, plural_i = FUNCTIONS[name]

    def literal(i: int | None) -> str | None:
        if i is None:
            return ""
        if i >= len(args) or not isinstance(args[i], ast.Constant) or not isinstance(args[i].value, str):
            return None
        return str(args[i].value)

    parts = (literal(ctx_i), literal(id_i), literal(plural_i))
    if any(p is None for p in parts):
        return None
    return (parts[0] or "", parts[1] or "", parts[2] or "")


def _calls(tree: ast.AST) -> Iterator[Message]:
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if name in FUNCTIONS:
            message = _message(name, list(node.args))
            if message is not None and message[1]:
                yield message


def python_messages() -> set[Message]:
    out: set[Message] = set()
    for folder in PY_DIRS:
        for path in (ROOT / folder).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            out.update(_calls(ast.parse(path.read_text(encoding="utf-8"))))
    return out


_CALL = re.compile(r"\b(n?p?gettext)\(")


def _calls_in_text(text: str) -> Iterator[Message]:
    """Every gettext-family call with literal arguments in ``text`` (templatize's output, or a
    script): each call is cut at the first ``)`` that closes a parseable expression."""
    for match in _CALL.finditer(text):
        start = match.start()
        end = text.find(")", match.end())
        while end != -1:
            try:
                node = ast.parse(text[start : end + 1].replace("\n", " "), mode="eval").body
            except SyntaxError:
                end = text.find(")", end + 1)
                continue
            if isinstance(node, ast.Call):
                message = _message(match.group(1), list(node.args))
                if message is not None and message[1]:
                    yield message
            break


def template_messages() -> set[Message]:
    out: set[Message] = set()
    for path in (ROOT / "templates").rglob("*"):
        if path.suffix in (".html", ".txt") and path.is_file():
            out.update(_calls_in_text(templatize(path.read_text(encoding="utf-8"), origin=str(path))))
    return out


def script_messages() -> set[Message]:
    out: set[Message] = set()
    for path in (ROOT / "static" / "js").glob("*.js"):
        out.update(_calls_in_text(path.read_text(encoding="utf-8")))
    return out
