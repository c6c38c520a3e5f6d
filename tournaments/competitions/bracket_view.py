"""The event page's bracket: a knockout's or double elimination's rounds laid out as SVG boxes."""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from .. import bracket_svg
from ..models import Round, Tournament
from ..pairing import bracket as knockout_plan
from ..pairing import double_elim
from .views import RoundView, TableView

NextBox = Callable[[int, int], str | None]


def _bracket(t: Tournament, views: list[RoundView], rounds: list[Round], names: dict[int, str]) -> str:
    """The bracket as SVG: the rounds played so far, then (single knockout) the rounds still to come."""
    if t.format not in (Tournament.Format.KNOCKOUT, Tournament.Format.DOUBLE_ELIMINATION) or not views:
        return ""
    double = t.format == Tournament.Format.DOUBLE_ELIMINATION
    next_box = _where_next(views)
    columns = [
        bracket_svg.Column(
            _round_heading(v.number, v.final),
            (*_bye_boxes(v, rnd, names, next_box, double), *_table_boxes(v, next_box, double)),
        )
        for v, rnd in zip(views, rounds, strict=True)
    ]
    if not double:
        columns += _planned_columns(t, views[-1].number)
    return bracket_svg.render(columns, label=_label(t, double), band_titles=_band_titles(double))


def _where_next(views: list[RoundView]) -> NextBox:
    """A lookup of the box a player sits in next after a round: (player, round) -> box key or None."""
    # where each player sits, round by round: (round, player) -> box key
    box_of: dict[tuple[int, int], str] = {}
    for v in views:
        for tv in v.tables:
            for s in tv.seats:
                box_of[(v.number, s.player)] = f"t{tv.table_id}"
    last_round = views[-1].number

    def next_box(player: int, after: int) -> str | None:
        for n in range(after + 1, last_round + 1):
            if (n, player) in box_of:
                return box_of[(n, player)]
        return None

    return next_box


def _bye_boxes(
    v: RoundView, rnd: Round, names: dict[int, str], next_box: NextBox, double: bool
) -> list[bracket_svg.Box]:
    """A box per bye of the round, feeding the player's next box."""
    boxes = []
    for p in rnd.byes:
        band = 0 if (not double or v.number == 1) else 1
        target = next_box(p, v.number)
        boxes.append(
            bracket_svg.Box(
                key=f"bye{v.number}-{p}",
                title=pgettext("bracket box", "Bye"),
                entries=(
                    bracket_svg.Entry(
                        names.get(p, "?"), pgettext("bracket entry", "bye"), advanced=True, key=p
                    ),
                ),
                feeds=((p, target),) if target else (),
                band=band,
            )
        )
    return boxes


def _table_boxes(v: RoundView, next_box: NextBox, double: bool) -> list[bracket_svg.Box]:
    """A box per table of the round: its players, who went through and where to."""
    boxes = []
    for tv in v.tables:
        entries = []
        feeds = []
        for s in tv.seats:
            note = s.note
            if double and tv.finished:
                note = pgettext("bracket entry", "won") if s.advanced else pgettext("bracket entry", "lost")
            entries.append(
                bracket_svg.Entry(
                    s.name, note, advanced=s.advanced, out=tv.finished and not s.advanced, key=s.player
                )
            )
            if s.advanced:
                target = next_box(s.player, v.number)
                if target:
                    feeds.append((s.player, target))
        boxes.append(
            bracket_svg.Box(
                key=f"t{tv.table_id}",
                title=_table_title(tv, double),
                entries=tuple(entries),
                href=f"/tables/{tv.table_id}/",
                feeds=tuple(feeds),
                band=1 if tv.bracket == double_elim.LOSERS else 0,
                current=not tv.finished,
            )
        )
    return boxes


def _table_title(tv: TableView, double: bool) -> str:
    """A table box's title: "Table 2", a grand final's label; with the status while unfinished."""
    title = pgettext("bracket box", "Table %(n)s") % {"n": tv.number}
    if double and tv.bracket in (double_elim.GRAND_FINAL, double_elim.RESET):
        title = tv.label
    if not tv.finished:
        title = f"{title} · {tv.status}"
    return title


def _planned_columns(t: Tournament, last_round: int) -> list[bracket_svg.Column]:
    """A single knockout's rounds not yet paired, as empty boxes from the seeded plan."""
    if not (t.seeds and t.rounds and last_round < t.rounds):
        return []
    try:
        plan = knockout_plan.bracket(len(t.seeds), t.seats, t.advance)
    except knockout_plan.BracketError:
        plan = ()
    columns = []
    for n in range(last_round + 1, t.rounds + 1):
        if n - 1 < len(plan):
            boxes = tuple(
                bracket_svg.Box(
                    key=f"plan{n}-{i}",
                    title=pgettext("bracket box", "Table %(n)s") % {"n": i + 1},
                    entries=(),
                )
                for i in range(len(plan[n - 1].tables))
            )
            columns.append(bracket_svg.Column(_round_heading(n, n == t.rounds), boxes))
    return columns


def _label(t: Tournament, double: bool) -> str:
    if double:
        return _("%(event)s: the double elimination bracket") % {"event": t.name}
    return _("%(event)s: the bracket") % {"event": t.name}


def _band_titles(double: bool) -> dict[int, str] | None:
    """The names of a double elimination's two bands (winners above, losers below)."""
    if not double:
        return None
    return {
        0: str(double_elim.bracket_name(double_elim.WINNERS)),
        1: str(double_elim.bracket_name(double_elim.LOSERS)),
    }


def _round_heading(number: int, final: bool) -> str:
    """A bracket column's heading: "Round 2", "Round 3 · final"."""
    if final:
        return pgettext("bracket column", "Round %(n)s · final") % {"n": number}
    return pgettext("bracket column", "Round %(n)s") % {"n": number}
