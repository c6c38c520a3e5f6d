"""A knockout or double elimination bracket drawn as inline SVG, on the server (pure Python).

The caller describes the bracket as :class:`Column` s (one per round, left to right) of
:class:`Box` es (one per table, or per bye), each listing its players as :class:`Entry` s and
naming, in ``feeds``, the boxes of later rounds its advancing players went on to. :func:`render`
lays the boxes out (a round's boxes centred on the boxes that fed them, as on Challonge), joins
them with elbow lines and returns an ``<svg>`` element as a string, sized to its content (the page
wraps it in ``.scroll`` so a phone scrolls it inside its frame).

A double elimination draws its two brackets as two *bands*: ``band`` 0 (winners bracket and
grand final) above ``band`` 1 (losers bracket), each laid out on its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

from django.utils.translation import pgettext

BOX_W = 184
COL_GAP = 44
ROW_H = 20
HEAD_H = 18
BOX_GAP = 14
BAND_GAP = 36
TOP = 28  # room for the round titles
NAME_CHARS = 19

ADVANCED_FILL = "#e3f1e3"
ADVANCED_TEXT = "#14521a"
OUT_TEXT = "#777777"
LINE = "#8a8a8a"
BORDER = "#b5b5b5"
CURRENT_BORDER = "#2f6db5"


@dataclass(frozen=True)
class Entry:
    """One player in a box: ``advanced`` (went through / won) is highlighted, ``out`` greyed."""

    name: str
    note: str = ""  # "1st", "bye", "playing"...
    advanced: bool = False
    out: bool = False
    key: int | None = None  # the player (to draw a line from the exact row)


@dataclass(frozen=True)
class Box:
    key: str
    title: str  # "Table 1", "Bye", "Final"
    entries: tuple[Entry, ...]
    href: str = ""
    #: The keys of the later boxes each advancing player went to: (player key, box key).
    feeds: tuple[tuple[int | None, str], ...] = ()
    band: int = 0
    current: bool = False  # being played


@dataclass(frozen=True)
class Column:
    title: str
    boxes: tuple[Box, ...] = ()


@dataclass
class _Placed:
    box: Box
    col: int
    x: float
    y: float = 0.0
    h: float = 0.0
    rows: dict[int, float] = field(default_factory=dict)  # player key -> row centre y


def _height(box: Box) -> float:
    return HEAD_H + ROW_H * max(1, len(box.entries)) + 4


def _short(name: str) -> str:
    return name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1] + "…"


def _ordered(columns: list[Column]) -> list[list[Box]]:
    """Each column's boxes in drawing order: from the last round back, a box goes next to the
    others feeding the same later box (in that box's order), so the lines do not cross."""
    rank: dict[str, tuple[int, int]] = {}
    out: list[list[Box]] = [list(c.boxes) for c in columns]
    for ci in range(len(out) - 1, -1, -1):
        boxes = out[ci]

        def key(item: tuple[int, Box]) -> tuple[tuple[int, int], int]:
            i, box = item
            targets = [rank[t] for _, t in box.feeds if t in rank]
            return (min(targets) if targets else (len(out) + 1, 0), i)

        if ci < len(out) - 1:
            boxes = [b for _, b in sorted(enumerate(boxes), key=key)]
            out[ci] = boxes
        for i, box in enumerate(boxes):
            rank[box.key] = (ci, i)
    return out


def layout(
    columns: list[Column], band_titles: dict[int, str] | None = None
) -> tuple[dict[str, _Placed], float]:
    """Place every box: ``{box key: placed}`` and the total height."""
    placed: dict[str, _Placed] = {}
    ordered = _ordered(columns)
    fed_by: dict[str, list[str]] = {}
    for column in columns:
        for box in column.boxes:
            for _, target in box.feeds:
                fed_by.setdefault(target, []).append(box.key)
    bands = sorted({box.band for column in columns for box in column.boxes}) or [0]
    top = float(TOP)
    for band in bands:
        if band_titles and band in band_titles:
            top += 18
        bottom = top
        for ci, boxes in enumerate(ordered):
            x = ci * (BOX_W + COL_GAP) + 1
            next_free = top
            for box in boxes:
                if box.band != band:
                    continue
                h = _height(box)
                feeders = [placed[k] for k in fed_by.get(box.key, []) if k in placed and placed[k].col < ci]
                if feeders:
                    centre = sum(f.y + f.h / 2 for f in feeders) / len(feeders)
                    y = max(next_free, centre - h / 2)
                else:
                    y = next_free
                p = _Placed(box, ci, x, y, h)
                for i, entry in enumerate(box.entries):
                    if entry.key is not None:
                        p.rows[entry.key] = y + HEAD_H + ROW_H * i + ROW_H / 2
                placed[box.key] = p
                next_free = y + h + BOX_GAP
                bottom = max(bottom, y + h)
        top = bottom + BAND_GAP
    return placed, top - BAND_GAP + 4


def render(columns: list[Column], *, label: str, band_titles: dict[int, str] | None = None) -> str:
    """The bracket as an ``<svg>`` element (``label``: what it shows, for screen readers)."""
    placed, height = layout(columns, band_titles)
    width = max(1, len(columns)) * (BOX_W + COL_GAP) - COL_GAP + 2
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="bracket" role="img" '
        f'width="{width:.0f}" height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'font-family="system-ui, sans-serif" font-size="12">',
        f"<title>{escape(label)}</title>",
    ]
    for ci, column in enumerate(columns):
        x = ci * (BOX_W + COL_GAP) + 1
        out.append(
            f'<text x="{x + 2:.0f}" y="16" font-weight="bold" fill="#333333">{escape(column.title)}</text>'
        )
    if band_titles:
        for band, title in band_titles.items():
            ys = [p.y for p in placed.values() if p.box.band == band]
            if ys:
                out.append(
                    f'<text x="2" y="{min(ys) - 6:.0f}" font-style="italic" fill="#555555">'
                    f"{escape(title)}</text>"
                )
    # lines first, under the boxes
    for p in placed.values():
        for player, target in p.box.feeds:
            q = placed.get(target)
            if q is None or q.col <= p.col:
                continue
            y1 = p.rows.get(player, p.y + p.h / 2) if player is not None else p.y + p.h / 2
            y2 = q.rows.get(player, q.y + q.h / 2) if player is not None else q.y + q.h / 2
            x1, x2 = p.x + BOX_W, q.x
            xm = x1 + COL_GAP / 2
            out.append(
                f'<path class="link" d="M{x1:.0f} {y1:.0f} H{xm:.0f} V{y2:.0f} H{x2:.0f}" '
                f'fill="none" stroke="{LINE}" stroke-width="1.5"/>'
            )
    for p in placed.values():
        out.append(_box(p))
    out.append("</svg>")
    return "".join(out)


def _box(p: _Placed) -> str:
    box = p.box
    border = CURRENT_BORDER if box.current else BORDER
    parts = [f'<g class="table" data-key={quoteattr(box.key)}>']
    if box.href:
        parts.append(f"<a href={quoteattr(box.href)}>")
    parts.append(
        f'<rect x="{p.x:.0f}" y="{p.y:.0f}" width="{BOX_W}" height="{p.h:.0f}" rx="4" '
        f'fill="#ffffff" stroke="{border}" stroke-width="{2 if box.current else 1}"/>'
    )
    parts.append(
        f'<text x="{p.x + 6:.0f}" y="{p.y + 13:.0f}" font-size="10.5" fill="#555555">'
        f"{escape(box.title)}</text>"
    )
    if not box.entries:
        unknown = pgettext("bracket: a table whose players are not known yet", "to be decided")
        parts.append(
            f'<text x="{p.x + 6:.0f}" y="{p.y + HEAD_H + 14:.0f}" fill="{OUT_TEXT}">{escape(unknown)}</text>'
        )
    for i, entry in enumerate(box.entries):
        top = p.y + HEAD_H + ROW_H * i
        cls = "advanced" if entry.advanced else ("out" if entry.out else "player")
        parts.append(f'<g class="{cls}">')
        if entry.advanced:
            parts.append(
                f'<rect x="{p.x + 1:.0f}" y="{top:.0f}" width="{BOX_W - 2}" height="{ROW_H}" '
                f'fill="{ADVANCED_FILL}"/>'
            )
        colour = ADVANCED_TEXT if entry.advanced else (OUT_TEXT if entry.out else "#222222")
        weight = ' font-weight="bold"' if entry.advanced else ""
        mark = "✓ " if entry.advanced else ""
        parts.append(
            f'<text x="{p.x + 6:.0f}" y="{top + 14:.0f}" fill="{colour}"{weight}>'
            f"<title>{escape(entry.name)}</title>{escape(mark + _short(entry.name))}</text>"
        )
        if entry.note:
            parts.append(
                f'<text x="{p.x + BOX_W - 6:.0f}" y="{top + 14:.0f}" text-anchor="end" fill="{colour}" '
                f'font-size="10.5">{escape(entry.note)}</text>'
            )
        parts.append("</g>")
    if box.href:
        parts.append("</a>")
    parts.append("</g>")
    return "".join(parts)
