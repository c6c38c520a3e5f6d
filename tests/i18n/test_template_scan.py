"""Every text a reader sees in a template is marked for translation (issue 21).

The scan tokenizes each template with Django's own template lexer, so it sees templates the way
Django does: the text between the tags and variables. Text inside ``{% blocktranslate %}`` and
``{% comment %}`` blocks is marked (or invisible) and skipped; every other text token is put back
together into one HTML page, with each template tag or variable standing in as a placeholder, and
read with :class:`html.parser.HTMLParser`. What is left between the HTML tags (outside ``<script>``,
``<style>`` and ``<svg>``), and the values of the attributes a reader sees or hears (``title``,
``placeholder``, ``aria-label``, ``alt``, and ``value`` of buttons), is user-visible when it
contains a letter: then it must come from ``{% translate %}``, ``{% blocktranslate %}`` or a
variable, never from the template's own text.

Template tags and variables can carry text too: a prose literal handed to a filter such as
``default``, ``yesno``, ``pluralize`` or ``join``, or to ``firstof``, ``with`` and ``include ... with``,
is reported as well (a literal with a space in ``with``/``include``; one-word values there are
usually machine values such as ``part="mine"``).

A second check keeps dates in the reader's locale: ``|date`` and ``|time`` take one of Django's
named, localized formats (``"SHORT_DATETIME_FORMAT"`` …), or a machine format such as ``"c"``.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.template.base import Lexer, Token, TokenType

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"

LETTER = re.compile(r"[^\W\d_]", re.UNICODE)

# Words that contain letters and yet are the same in every language. Only whole words are
# allowed; anything else in the same piece of text is still reported.
ALLOWED_WORDS = (
    # The three games' names are proper names (brands), written the same in every language.
    "Pacru",
    "Azacru",
    "Shacru",
    # The names of data formats and programming interfaces, not words: the links "API" and "JSON".
    "API",
    "JSON",
    # The name of the program drf_spectacular shows the API schema with (the page title's default).
    "Redoc",
)
ALLOWED = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(w) for w in ALLOWED_WORDS) + r")(?!\w)")

# Attributes whose value is read out or shown to the reader.
SPOKEN_ATTRIBUTES = {"title", "placeholder", "aria-label", "alt"}
# ``value`` is the label of these input types (and of <button>, where it is only sent, but a
# prose value there is almost certainly meant to be seen).
LABELLED_INPUTS = {"submit", "button", "reset"}
# The contents of these elements are code or drawings, never read as text.
HIDDEN_ELEMENTS = {"script", "style", "svg"}

# Block tags whose contents are marked text (or comments) and are skipped whole.
SKIPPED_BLOCKS = {
    "blocktranslate": "endblocktranslate",
    "blocktrans": "endblocktrans",
    "comment": "endcomment",
}
# Tags that carry no prose of their own (a template name, a URL name, a translated literal).
NO_PROSE_TAGS = {"translate", "trans", "url", "load", "extends", "static", "csrf_token", "block", "endblock"}
# Filters whose argument is shown to the reader.
PROSE_FILTERS = {"default", "default_if_none", "yesno", "pluralize", "join"}
FILTER_ARGUMENT = re.compile(r"""\|\s*(\w+)\s*:\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')""")
LITERAL = re.compile(r"""(?<![\w)])(_\()?(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')""")
KEYWORD_LITERAL = re.compile(r"""\b\w+=(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')""")

HOLE = "\x00"  # stands for a template tag or variable in the page put back together


def _has_words(text: str) -> bool:
    return bool(LETTER.search(ALLOWED.sub("", text.replace(HOLE, " "))))


def _worded_lines(text: str, first_line: int) -> list[tuple[int, str]]:
    """Each line of a text that has words, with its line number."""
    return [(first_line + n, _shown(line)) for n, line in enumerate(text.split("\n")) if _has_words(line)]


def _shown(text: str) -> str:
    """The text as reported: template parts as {…}, white space collapsed."""
    text = text.strip(HOLE + " \t\r\n\f")
    return re.sub(r"(?:\{…\}\s*)+(?=\{…\})", "", " ".join(text.replace(HOLE, "{…}").split()))


class _PageReader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self.hidden = 0  # depth inside <script>, <style>, <svg>

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._check_attributes(tag, attrs)
        if tag in HIDDEN_ELEMENTS:
            self.hidden += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._check_attributes(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag in HIDDEN_ELEMENTS and self.hidden:
            self.hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.found += _worded_lines(data, self.getpos()[0])

    def _check_attributes(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.hidden:
            return
        kind = dict(attrs).get("type") or ""
        labelled = tag == "button" or (tag == "input" and kind.lower() in LABELLED_INPUTS)
        raw = self.get_starttag_text() or ""
        for name, value in attrs:
            if value is None or not (name in SPOKEN_ATTRIBUTES or (name == "value" and labelled)):
                continue
            if _has_words(value):
                line = self.getpos()[0] + raw[: max(raw.find(f"{name}="), 0)].count("\n")
                self.found.append((line, f'{name}="{_shown(value)}"'))


def _tag_name(token: Token) -> str:
    bits = token.split_contents() if token.token_type == TokenType.BLOCK else []
    return bits[0] if bits else ""


def _prose_literals(token: Token) -> list[str]:
    """Prose handed to a tag or variable as a string literal (see the module's docstring)."""
    name = _tag_name(token)
    if name in NO_PROSE_TAGS:
        return []
    found = [
        double or single
        for filter_name, double, single in FILTER_ARGUMENT.findall(token.contents)
        if filter_name in PROSE_FILTERS
    ]
    if name == "firstof":
        found += [d or s for marked, d, s in LITERAL.findall(token.contents) if not marked]
    if name in {"with", "include"}:
        found += [d or s for d, s in KEYWORD_LITERAL.findall(token.contents) if " " in (d or s)]
    return [text for text in found if _has_words(text)]


def _tokens(source: str) -> list[Token]:
    return Lexer(source).tokenize()


def unmarked_text(source: str, html: bool = True) -> list[tuple[int, str]]:
    """The user-visible texts of a template that are not marked for translation, as
    (line, text) pairs, the text with each template tag or variable shown as {…}. A plain-text
    template (``html=False``, the .txt e-mails) is read line by line, without looking for tags."""
    page: list[str] = []
    found: list[tuple[int, str]] = []
    closing = ""  # the end tag of the skipped block we are in
    for token in _tokens(source):
        if closing:
            if token.token_type == TokenType.BLOCK and _tag_name(token) == closing:
                closing = ""
                page.append(HOLE)
            elif token.token_type == TokenType.TEXT:
                page.append("\n" * token.contents.count("\n"))  # keep the line numbers
            continue
        if token.token_type == TokenType.TEXT:
            page.append(token.contents)
            continue
        if token.token_type == TokenType.BLOCK and _tag_name(token) in SKIPPED_BLOCKS:
            closing = SKIPPED_BLOCKS[_tag_name(token)]
        elif token.token_type in (TokenType.VAR, TokenType.BLOCK):
            shown = (
                f"{{% {token.contents} %}}"
                if token.token_type == TokenType.BLOCK
                else f"{{{{ {token.contents} }}}}"
            )
            found += [(token.lineno, f'"{text}" in {shown}') for text in _prose_literals(token)]
        page.append(HOLE)
    if not html:
        return sorted(found + _worded_lines("".join(page), 1))
    # A tag or variable right after an element's name (<tr{% if … %} class="me"{% endif %}>) would
    # stop the HTML parser from seeing the element: a space keeps the hole among the attributes.
    reader = _PageReader()
    reader.feed(re.sub(rf"(<[a-zA-Z][^\s/>{HOLE}]*){HOLE}", rf"\1 {HOLE}", "".join(page)))
    reader.close()
    return sorted(found + reader.found)


# Django's named formats follow the active language (django/conf/locale/<lang>/formats.py).
NAMED_FORMATS = {
    "DATE_FORMAT",
    "DATETIME_FORMAT",
    "SHORT_DATE_FORMAT",
    "SHORT_DATETIME_FORMAT",
    "TIME_FORMAT",
    "MONTH_DAY_FORMAT",
    "YEAR_MONTH_FORMAT",
}
# Formats for machines (ISO 8601 for datetime="", seconds since the epoch) or without words
# (the time zone's abbreviation, as "UTC" or "CET").
#: Machine formats: ISO values for <time datetime> and form inputs, and day keys to compare.
MACHINE_FORMATS = {"c", "U", "T", "Y-m-d", "Y-m-d\\TH:i", "Ymd"}


def fixed_date_formats(source: str) -> list[tuple[int, str]]:
    """The ``|date``/``|time`` filters of a template with a fixed, English-looking format."""
    found = []
    for token in _tokens(source):
        if token.token_type not in (TokenType.VAR, TokenType.BLOCK):
            continue
        for name, double, single in FILTER_ARGUMENT.findall(token.contents):
            fmt = double or single
            if name in {"date", "time"} and fmt not in NAMED_FORMATS | MACHINE_FORMATS:
                found.append((token.lineno, f"|{name}:{fmt!r}"))
    return found


def _templates() -> list[Path]:
    return sorted(p for p in TEMPLATES.rglob("*") if p.suffix in {".html", ".txt"})


def _name(path: Path) -> str:
    return str(path.relative_to(TEMPLATES))


def test_there_are_templates_to_scan() -> None:
    assert len(_templates()) > 40 and (TEMPLATES / "base.html") in _templates()


@pytest.mark.parametrize("path", _templates(), ids=_name)
def test_every_visible_text_is_marked_for_translation(path: Path) -> None:
    found = unmarked_text(path.read_text(encoding="utf-8"), html=path.suffix == ".html")
    assert not found, f"text not marked for translation in templates/{_name(path)}:\n" + "\n".join(
        f"  line {line}: {text}" for line, text in found
    )


@pytest.mark.parametrize("path", _templates(), ids=_name)
def test_dates_and_times_use_the_locales_formats(path: Path) -> None:
    found = fixed_date_formats(path.read_text(encoding="utf-8"))
    assert not found, f"fixed date format in templates/{_name(path)} (use a named format):\n" + "\n".join(
        f"  line {line}: {text}" for line, text in found
    )


# The scan must find what it is meant to find: a scan that reports nothing proves nothing.

UNMARKED = """{% extends "base.html" %}
{% block title %}Settings{% endblock %}
{% block content %}
<h1 title="Your account">{{ user }}</h1>
<p>Hello {{ name }},
   welcome back.</p>
<input type="submit" value="Save"><input type="hidden" name="next" value="elsewhere">
<img src="x.png" alt="A chevron">
<a href="{% url 'home' %}" aria-label="Home{% if n %}: {{ n }} unread{% endif %}">{{ n }}</a>
{{ who|default:"nobody" }} {{ rated|yesno:"rated,casual" }}
{% include "list.html" with empty="No tables yet." part="mine" %}
<table><tr{% if me %} class="me"{% endif %} title="Your row">
<td>{{ n }} <small>(you)</small></td></tr></table>
{% endblock %}
"""


def test_the_scan_reports_unmarked_text_with_its_line() -> None:
    found = unmarked_text(UNMARKED)
    assert found == [
        (2, "Settings"),
        (4, 'title="Your account"'),
        (5, "Hello {…},"),
        (6, "welcome back."),
        (7, 'value="Save"'),
        (8, 'alt="A chevron"'),
        (9, 'aria-label="Home{…}: {…} unread"'),
        (10, '"nobody" in {{ who|default:"nobody" }}'),
        (10, '"rated,casual" in {{ rated|yesno:"rated,casual" }}'),
        (11, '"No tables yet." in {% include "list.html" with empty="No tables yet." part="mine" %}'),
        (12, 'title="Your row"'),
        (13, "(you)"),
    ]


def test_the_scan_reads_plain_text_mails_line_by_line() -> None:
    mail = "{% load i18n %}{% autoescape off %}Hello {{ name }},\n\n{% translate 'Bye' %} <b>now</b>\n"
    assert unmarked_text(mail, html=False) == [(1, "Hello {…},"), (3, "<b>now</b>")]


MARKED = """{% extends "base.html" %}{% load i18n l10n %}
{% block title %}{% translate "Settings" %}{% endblock %}
{% block content %}
{# a comment: not shown #}
{% comment %}Nor is this.{% endcomment %}
<h1 title="{% translate 'Your account' %}">{{ user }}</h1>
<p>{% blocktranslate trimmed with name=user.name %}Hello {{ name }},
   welcome back.{% endblocktranslate %}</p>
<p>{% blocktranslate trimmed count n=tables|length %}{{ n }} table{% plural %}
   {{ n }} tables{% endblocktranslate %}</p>
<input type="submit" value="{% translate 'Save' %}"><input type="hidden" name="next" value="elsewhere">
<a href="/" data-x="{{ x|unlocalize }}" class="primary wide">Pacru · API → {{ n }}</a> <a href="/j">JSON</a>
<script>const text = "not for readers";</script><style>p::after { content: "none" }</style>
<svg viewBox="0 0 9 9"><text>a</text></svg>
<!-- an HTML comment -->
<time datetime="{{ at|date:'c' }}">{{ at|date:"SHORT_DATETIME_FORMAT" }}</time>
{% include "list.html" with empty=_("No tables yet.") part="mine" %}
{% endblock %}
"""


def test_the_scan_passes_marked_text() -> None:
    assert unmarked_text(MARKED) == []


def test_the_date_check_reports_fixed_formats() -> None:
    source = '{{ a|date:"j M Y" }} {{ b|time:"H:i" }} {{ c|date:"c" }} {{ d|date:"DATE_FORMAT" }}'
    assert fixed_date_formats(source) == [(1, "|date:'j M Y'"), (1, "|time:'H:i'")]
    assert fixed_date_formats(MARKED) == []
