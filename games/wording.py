"""Results in words, as people write them: the winner first, places spelt out, how it ended.

"1st Alice (14 markers) · 2nd Bob: resigned" rather than the seats in order with a rank in
brackets. Read by the event, ladder, lobby and table pages (and anything else that shows a
finished table); built on :func:`games.selectors.game_results`, so no-shows are told apart
from timeouts the same way tournaments count them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy

from .models import Player
from .results import Ending, GameResult
from .selectors import game_results

#: How one seat's game ended, after the player's name ("" when it played to the end).
SEAT_ENDINGS = {
    Ending.FINISHED: "",
    Ending.RESIGNED: pgettext_lazy("how a player's game ended", "resigned"),
    Ending.TIMEOUT: pgettext_lazy("how a player's game ended", "lost on time"),
    Ending.NO_SHOW: pgettext_lazy("how a player's game ended", "no-show (never moved)"),
    Ending.BLOCKED: pgettext_lazy("how a player's game ended", "blocked (could not move)"),
    Ending.CAPTURED: pgettext_lazy("how a player's game ended", "lost the last chevron"),
}

#: How the table ended.
TABLE_ENDINGS = {
    "target": gettext_lazy("reached the marker target"),
    "last-standing": gettext_lazy("last player left"),
    "ply-limit": gettext_lazy("move limit reached: placed by markers"),
    "no-progress": gettext_lazy("no progress for too long: placed by markers"),
    "no-moves": gettext_lazy("nobody could move: placed by markers"),
    "no-gain": gettext_lazy("nobody could gain a marker: placed by markers"),
    "end-trigger": gettext_lazy("the final turns were played: placed by markers"),
    "aborted": gettext_lazy("aborted: nobody moved"),
    "adjudicated": gettext_lazy("result set by the organisers"),
}


#: A place in a ranking, one pattern per kind of number (see :func:`ordinal`).
_ORDINALS = {
    # Translators: a place in a ranking written with digits ("1st of 8", "=2nd Bob"); one pattern
    # per kind of number, keep %(n)d: French "%(n)der" for 1 but "%(n)de" for the rest, German
    # "%(n)d.", Spanish "%(n)d.º", Russian "%(n)d-е".
    "1": pgettext_lazy("place in a ranking: 1", "%(n)dst"),
    # Translators: 21st, 31st, 101st (not 11th): French "%(n)de", German "%(n)d.".
    "x1": pgettext_lazy("place in a ranking: 21, 31, 101, …", "%(n)dst"),
    # Translators: 2nd, 22nd, 102nd (not 12th): French "%(n)de", German "%(n)d.".
    "x2": pgettext_lazy("place in a ranking: 2, 22, 102, …", "%(n)dnd"),
    # Translators: 3rd, 23rd, 103rd (not 13th): French "%(n)de", German "%(n)d.".
    "x3": pgettext_lazy("place in a ranking: 3, 23, 103, …", "%(n)drd"),
    # Translators: 4th to 20th, 11th, 12th, 13th, 25th, 100th: French "%(n)de", German "%(n)d.".
    "th": pgettext_lazy("place in a ranking: 4 to 20, 24 to 30, …", "%(n)dth"),
}


def ordinal(n: int) -> str:
    """A place in words: in English 1st, 2nd, 3rd, 4th, … 11th, 12th, 13th, … 21st, 22nd.

    Each language gives its own pattern for five kinds of number (exactly 1; ending in 1, 2 or 3
    but not 11, 12 or 13; any other), as English needs them: French says 1er but 21e, German 1.
    and 21., Spanish 1.º, Russian 1-е. A place here is a place in a ranking ("1st of 8", "=2nd
    Bob")."""
    if n == 1:
        kind = "1"
    elif 10 <= n % 100 <= 20 or n % 10 not in (1, 2, 3):
        kind = "th"
    else:
        kind = f"x{n % 10}"
    return str(_ORDINALS[kind] % {"n": n})


def names_list(names: list[str]) -> str:
    """ "Bob", "Bob and Carol", "Bob, Carol and Dave"."""
    if len(names) <= 1:
        return "".join(names)
    if len(names) == 2:
        return _("%(first)s and %(second)s") % {"first": names[0], "second": names[1]}
    # Translators: what separates the names of a list but the last two ("Bob, Carol and Dave").
    head = pgettext("list separator", ", ").join(names[:-1])
    return _("%(names)s and %(last)s") % {"names": head, "last": names[-1]}


@dataclass(frozen=True)
class Place:
    place: int
    word: str  # "1st", "=2nd" for a shared place
    player_id: int
    name: str
    markers: int
    ending: str  # "" or "resigned", "no-show (never moved)", …

    def __str__(self) -> str:
        values = {"place": self.word, "name": self.name, "n": self.markers, "ending": self.ending}
        if self.ending:
            return (
                ngettext(
                    "%(place)s %(name)s (%(n)d marker): %(ending)s",
                    "%(place)s %(name)s (%(n)d markers): %(ending)s",
                    self.markers,
                )
                % values
            )
        return ngettext(
            "%(place)s %(name)s (%(n)d marker)", "%(place)s %(name)s (%(n)d markers)", self.markers
        ) % (values)


@dataclass(frozen=True)
class ResultText:
    places: tuple[Place, ...]  # best first
    headline: str  # "Alice won", "Alice and Bob shared 1st place"
    ending: str  # "Bob resigned", "reached the marker target", …
    #: "" or why a rated table was not rated (it ended before every player had moved: aborted).
    aborted: str = ""

    def __str__(self) -> str:
        places = " · ".join(str(p) for p in self.places)
        return _("%(headline)s (%(ending)s): %(places)s") % {
            "headline": self.headline,
            "ending": self.ending,
            "places": places,
        }


#: What a rated table that ended before every seat had moved says (``GameResult.aborted``).
ABORTED_NOT_RATED = gettext_lazy("aborted before every player had moved: not rated")


def describe(result: GameResult, names: dict[int, str]) -> ResultText:
    ranks = [s.rank for s in result.seats]
    places = []
    for s in sorted(result.seats, key=lambda s: (s.rank, s.seat)):
        shared = ranks.count(s.rank) > 1
        places.append(
            Place(
                place=s.rank,
                word=("=" if shared else "") + ordinal(s.rank),
                player_id=s.player_id,
                name=names.get(s.player_id) or _("player %(id)s") % {"id": s.player_id},
                markers=s.markers,
                ending=str(SEAT_ENDINGS[s.ending]),
            )
        )
    winners = [p for p in places if p.place == 1]
    if len(winners) == 1:
        headline = _("%(name)s won") % {"name": winners[0].name}
    else:
        # Translators: the players who tied for first place ("Alice and Bob shared 1st place").
        headline = _("%(names)s shared 1st place") % {"names": names_list([p.name for p in winners])}
    out = [p for p in places if p.ending]
    if result.end_reason == "last-standing" and out:
        # The others left the game: say how, the no-show first (it decides what a round counts).
        # Translators: a player and how the player's game ended ("Bob: resigned").
        ending = "; ".join(_("%(name)s: %(ending)s") % {"name": p.name, "ending": p.ending} for p in out)
    elif result.end_reason in TABLE_ENDINGS:
        ending = str(TABLE_ENDINGS[result.end_reason])
    else:
        ending = result.end_reason or pgettext("how a table ended", "finished")
    aborted = str(ABORTED_NOT_RATED) if result.aborted else ""
    return ResultText(places=tuple(places), headline=headline, ending=ending, aborted=aborted)


def describe_tables(table_ids: Iterable[int], names: dict[int, str] | None = None) -> dict[int, ResultText]:
    """Table id → its result in words, for those tables that are finished (four queries at most,
    or three when ``names`` — player id → display name — covers every player)."""
    results = game_results(table_ids)
    names = dict(names or {})
    missing = {s.player_id for r in results.values() for s in r.seats} - names.keys()
    if missing:
        names.update(Player.objects.filter(pk__in=missing).values_list("pk", "display_name"))
    return {table_id: describe(r, names) for table_id, r in results.items()}


def time_left_text(seconds: float) -> str:
    """A remaining time in words, to the precision that matters ("2 days 3 h", "5 min", "40 s")."""
    s = max(0, int(seconds))
    if s >= 86400:
        days = s // 86400
        # Translators: a time left: days, then hours ("h" abbreviates hours).
        return ngettext("%(days)d day %(hours)d h", "%(days)d days %(hours)d h", days) % {
            "days": days,
            "hours": s % 86400 // 3600,
        }
    if s >= 3600:
        # Translators: a time left, abbreviated: hours ("h") and minutes ("min").
        return _("%(hours)d h %(minutes)d min") % {"hours": s // 3600, "minutes": s % 3600 // 60}
    if s >= 60:
        # Translators: a time left, abbreviated: minutes.
        return _("%(minutes)d min") % {"minutes": s // 60}
    # Translators: a time left, abbreviated: seconds.
    return _("%(seconds)d s") % {"seconds": s}
