"""Reads of leagues, which events and ladders share: what the API and the pages show.

Tournaments are read in :mod:`tournaments.competitions.selectors`, ladders in
:mod:`tournaments.ladders.selectors`, what organisers see in :mod:`tournaments.organising.selectors`.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, F, Func, OuterRef, QuerySet, Subquery
from django.utils.translation import gettext as _

from common.errors import NotFound
from common.validation import ascii_int_or_none
from games.models import Player

from .models import (
    Ladder,
    League,
    Tournament,
)


def is_organiser(league: League, player: Player) -> bool:
    return player.user.is_staff or league.organisers.filter(pk=player.pk).exists()


def find_player(player_id: int | str | None) -> Player | None:
    """The player with this id (``None`` for none, or for anything that is not an id)."""
    if isinstance(player_id, str):
        player_id = ascii_int_or_none(player_id)
    if player_id is None:
        return None
    return Player.objects.filter(pk=player_id).first()


def _count(qs: QuerySet[Any]) -> Subquery:
    """``qs.count()`` for each outer row, as a subquery (``qs`` filters on ``OuterRef``): no join, so
    several counts of one row do not multiply each other."""
    return Subquery(qs.order_by().annotate(n=Func(F("pk"), function="COUNT")).values("n"))


# leagues
def league_list() -> QuerySet[League]:
    """Leagues with their organisers and ``member_count``, by name."""
    # An explicit order: Django leaves ``Meta.ordering`` out of queries with an aggregate.
    return (
        League.objects.prefetch_related("organisers").annotate(member_count=Count("members")).order_by("name")
    )


def league(slug: str) -> League:
    found = League.objects.filter(slug=slug).first()
    if found is None:
        raise NotFound(_("there is no league %(slug)s") % {"slug": repr(slug)})
    return found


def league_summary(slug: str) -> League:
    """A league as :func:`league_list` has it."""
    found = league_list().filter(slug=slug).first()
    if found is None:
        raise NotFound(_("there is no league %(slug)s") % {"slug": repr(slug)})
    return found


def league_directory() -> QuerySet[League]:
    """Leagues by name with their organisers and, each a subquery per row (no joins that multiply):
    ``members_n``, ``events`` (published: not drafts) and ``ladder_count``."""
    members = League.members.through.objects.filter(league=OuterRef("pk"))
    events = Tournament.objects.filter(league=OuterRef("pk")).exclude(status=Tournament.Status.DRAFT)
    ladders = Ladder.objects.filter(league=OuterRef("pk"))
    return (
        League.objects.prefetch_related("organisers")
        .annotate(members_n=_count(members), events=_count(events), ladder_count=_count(ladders))
        .order_by("name")
    )
