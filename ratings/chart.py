"""The rating-history chart, drawn on the server as SVG (no script, no CDN).

The line is the conservative rating (mu − 3σ); the shaded band spans mu ± σ.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape


def history_svg(
    points: Sequence[tuple[float, float]], *, title: str, width: int = 640, height: int = 240
) -> str:
    """``points`` are (mu, sigma) after each rated table, oldest first (the start included)."""
    pad_left, pad_right, pad_top, pad_bottom = 44, 12, 12, 28
    if not points:
        return ""
    lows = [mu - sigma for mu, sigma in points] + [mu - 3 * sigma for mu, sigma in points]
    highs = [mu + sigma for mu, sigma in points]
    low, high = min(lows), max(highs)
    if high - low < 1:
        high, low = high + 0.5, low - 0.5
    inner_w, inner_h = width - pad_left - pad_right, height - pad_top - pad_bottom
    step = inner_w / max(len(points) - 1, 1)

    def x(i: int) -> float:
        return pad_left + i * step

    def y(v: float) -> float:
        return pad_top + (high - v) / (high - low) * inner_h

    upper = [f"{x(i):.1f},{y(mu + s):.1f}" for i, (mu, s) in enumerate(points)]
    lower = [f"{x(i):.1f},{y(mu - s):.1f}" for i, (mu, s) in reversed(list(enumerate(points)))]
    line = " ".join(f"{x(i):.1f},{y(mu - 3 * s):.1f}" for i, (mu, s) in enumerate(points))
    ticks = []
    for k in range(5):
        v = low + (high - low) * k / 4
        ticks.append(
            f'<line x1="{pad_left}" x2="{width - pad_right}" y1="{y(v):.1f}" y2="{y(v):.1f}" class="grid"/>'
            f'<text x="{pad_left - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v:.1f}</text>'
        )
    last_mu, last_sigma = points[-1]
    plural = "" if len(points) == 2 else "s"
    return (
        f'<svg class="rating-chart" role="img" aria-label="{escape(title)}" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" xmlns="http://www.w3.org/2000/svg">'
        f"<title>{escape(title)}</title>"
        f"{''.join(ticks)}"
        f'<polygon class="band" points="{" ".join(upper + lower)}"/>'
        f'<polyline class="line" points="{line}"/>'
        f'<text x="{pad_left}" y="{height - 8}">{len(points) - 1} rated table{plural} · now '
        f"{last_mu - 3 * last_sigma:.1f} (μ {last_mu:.1f}, σ {last_sigma:.2f})</text>"
        f"</svg>"
    )
