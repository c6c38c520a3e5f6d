"""The rating-history chart, drawn on the server as SVG (no script, no CDN).

Drawn on the display scale players read (:mod:`ratings.display`): the line is the rating
(60 × mu) after each rated table, the shaded band its ± (60 × sigma), never below 0; the axis
is labelled in those numbers, at round steps.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

from django.utils.translation import ngettext

from . import display


def _step(span: float) -> int:
    """A round grid step (1, 2 or 5 × a power of ten) giving about four lines over ``span``."""
    raw = max(span / 4, 1)
    power = 10 ** math.floor(math.log10(raw))
    return int(next(m * power for m in (1, 2, 5, 10) if m * power >= raw))


def history_svg(
    points: Sequence[tuple[float, float]], *, title: str, width: int = 480, height: int = 200
) -> str:
    """``points`` are (mu, sigma) after each rated table, oldest first (the start included)."""
    pad_left, pad_right, pad_top, pad_bottom = 44, 12, 12, 28
    if not points:
        return ""
    shown = [(display.SCALE * mu, display.SCALE * sigma) for mu, sigma in points]
    lows = [max(0.0, r - u) for r, u in shown]
    highs = [r + u for r, u in shown]
    step = _step(max(highs) - min(lows))
    low = math.floor(min(lows) / step) * step
    high = math.ceil(max(highs) / step) * step
    if high <= low:
        high = low + step
    inner_w, inner_h = width - pad_left - pad_right, height - pad_top - pad_bottom
    dx = inner_w / max(len(shown) - 1, 1)

    def x(i: int) -> float:
        return pad_left + i * dx

    def y(v: float) -> float:
        return pad_top + (high - max(v, 0.0)) / (high - low) * inner_h

    upper = [f"{x(i):.1f},{y(r + u):.1f}" for i, (r, u) in enumerate(shown)]
    lower = [f"{x(i):.1f},{y(r - u):.1f}" for i, (r, u) in reversed(list(enumerate(shown)))]
    line = " ".join(f"{x(i):.1f},{y(r):.1f}" for i, (r, _) in enumerate(shown))
    ticks = []
    for v in range(int(low), int(high) + 1, step):
        ticks.append(
            f'<line x1="{pad_left}" x2="{width - pad_right}" y1="{y(v):.1f}" y2="{y(v):.1f}" class="grid"/>'
            f'<text x="{pad_left - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v}</text>'
        )
    last_mu, last_sigma = points[-1]
    tables = len(points) - 1
    now = f"{display.text(last_mu, last_sigma)} ± {display.uncertainty(last_sigma)}"
    # Translators: under the rating chart: "12 rated tables · now 1620 ± 150".
    caption = ngettext(
        "%(n)d rated table · now %(rating)s", "%(n)d rated tables · now %(rating)s", tables
    ) % {
        "n": tables,
        "rating": now,
    }
    return (
        f'<svg class="rating-chart" role="img" aria-label="{escape(title)}" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" xmlns="http://www.w3.org/2000/svg">'
        f"<title>{escape(title)}</title>"
        f"{''.join(ticks)}"
        f'<polygon class="band" points="{" ".join(upper + lower)}"/>'
        f'<polyline class="line" points="{line}"/>'
        f'<text x="{pad_left}" y="{height - 8}">{escape(caption)}</text>'
        f"</svg>"
    )
