"""An event's audit log in words: what each stored action says, who did it (a name, or the
calendar for what it did by itself), the places before and after a result."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import pgettext, pgettext_lazy

from games.models import Player
from games.wording import ordinal

from ..models import AuditEntry, Tournament


def places_text(places: list[tuple[str, str]]) -> str:
    """ "Alice 1st, Bob 2nd" from (place word, name) pairs."""
    return ", ".join(
        pgettext("a player and their place at a table", "%(name)s %(place)s") % {"name": name, "place": word}
        for word, name in places
    )


def place_words(ranks: dict[int, int]) -> dict[int, str]:
    """Seat -> "1st", "=2nd" (a shared place)."""
    counts: dict[int, int] = {}
    for rank in ranks.values():
        counts[rank] = counts.get(rank, 0) + 1
    return {seat: ("=" if counts[rank] > 1 else "") + ordinal(rank) for seat, rank in ranks.items()}


#: What each audit action (``AuditEntry.action``, a stored key) says in the log.
ACTION_WORDS = {
    "result entered": pgettext_lazy("audit log", "entered a result"),
    "result corrected": pgettext_lazy("audit log", "corrected a result"),
    "register": pgettext_lazy("audit log", "registered"),
    "remove": pgettext_lazy("audit log", "removed"),
    "check in": pgettext_lazy("audit log", "checked in"),
    "seeds": pgettext_lazy("audit log", "set the seeds"),
    "start": pgettext_lazy("audit log", "started the event"),
    "pause": pgettext_lazy("audit log", "paused the event"),
    "resume": pgettext_lazy("audit log", "resumed the event"),
    "reopen": pgettext_lazy("audit log", "reopened the event: a corrected result means more games to play"),
    "late entry": pgettext_lazy("audit log", "entered a player late"),
    "late entry invited": pgettext_lazy("audit log", "invited a player to enter late"),
    "late entry accepted": pgettext_lazy("audit log", "accepted an invitation to enter late"),
    "late entry declined": pgettext_lazy("audit log", "declined an invitation to enter late"),
    "auto_start": pgettext_lazy("audit log", "started the event at its start time"),
    "postpone": pgettext_lazy("audit log", "moved the start time"),
    "called_off": pgettext_lazy("audit log", "called the event off"),
    "starts_soon": pgettext_lazy("audit log", "told the players it starts within the hour"),
    "check_in_open": pgettext_lazy("audit log", "told the players check-in is open"),
    "deadline": pgettext_lazy("audit log", "settled a game at the round's deadline"),
    "deadline reminder": pgettext_lazy("audit log", "told the players 24 hours are left before the deadline"),
    "series_occurrence": pgettext_lazy("audit log", "created the event from its recurring series"),
}
#: The same, naming the player concerned (``%(name)s``).
ACTION_WORDS_NAMED = {
    "register": pgettext_lazy("audit log", "registered %(name)s"),
    "remove": pgettext_lazy("audit log", "removed %(name)s"),
    "check in": pgettext_lazy("audit log", "checked in %(name)s"),
}


@dataclass(frozen=True)
class AuditLine:
    at: Any
    by: str
    what: str
    reason: str


def audit_log(*, t: Tournament, limit: int = 100) -> list[AuditLine]:
    """The event's audit log, newest first, in words (names, places)."""
    entries = list(AuditEntry.objects.filter(tournament=t).select_related("by")[:limit])
    ids: set[int] = set()
    for e in entries:
        for key in ("before", "after"):
            ids.update(int(p) for p in (e.detail.get(key) or {}))
        ids.update(int(p) for p in (e.detail.get("seeds") or {}))
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "display_name"))
    lines = []
    for e in entries:
        lines.append(
            AuditLine(
                e.at,
                _who(e),
                _what(e, names),
                e.reason,
            )
        )
    return lines


def _who(e: AuditEntry) -> str:
    """Who did it: a name; the calendar for what it does by itself (no one), else "someone"."""
    if e.by is not None:
        return str(e.by.display_name)
    if e.action in CALENDAR_ACTIONS:
        return pgettext("audit log", "the calendar")
    return pgettext("audit log", "someone")


#: What the calendar does by itself (``tournaments.calendar``), audited with no one as ``by``.
CALENDAR_ACTIONS = {
    "auto_start",
    "called_off",
    "starts_soon",
    "check_in_open",
    "series_occurrence",
    "deadline",
    "deadline reminder",
}


def _what(e: AuditEntry, names: dict[int, str]) -> str:
    """What an audit entry did, in words (names and places)."""
    d = e.detail or {}
    if "after" in d:
        words = {
            "round": d.get("round"),
            "board": d.get("board"),
            "before": _ranks_words(d.get("before") or {}, names),
            "after": _ranks_words(d["after"], names),
        }
        if e.action == "result corrected":
            return (
                pgettext(
                    "audit log",
                    "corrected a result for round %(round)s, board %(board)s: %(before)s → %(after)s",
                )
                % words
            )
        if e.action == "result entered":
            return (
                pgettext(
                    "audit log",
                    "entered a result for round %(round)s, board %(board)s: %(before)s → %(after)s",
                )
                % words
            )
        return pgettext(
            "audit log", "%(action)s for round %(round)s, board %(board)s: %(before)s → %(after)s"
        ) % {
            **words,
            "action": ACTION_WORDS.get(e.action, e.action),
        }
    if e.action.startswith("late entry") and "name" in d:
        return _late_entry_words(e.action, d)
    if "name" in d:
        named = ACTION_WORDS_NAMED.get(e.action)
        if named is not None:
            return named % {"name": d["name"]}
        return pgettext("audit log", "%(action)s %(name)s") % {
            "action": ACTION_WORDS.get(e.action, e.action),
            "name": d["name"],
        }
    if "seeds" in d:
        seeds = sorted(d["seeds"].items(), key=lambda kv: (kv[1] is None, kv[1] or 0))
        listed = ", ".join(
            pgettext("audit log: a player and their seed", "%(name)s %(seed)s")
            % {
                "name": names.get(int(p), "?"),
                "seed": seed if seed is not None else pgettext("audit log", "unseeded"),
            }
            for p, seed in seeds
        )
        return pgettext("audit log", "set the seeds: %(seeds)s") % {"seeds": listed}
    if e.action == "pause" and d.get("round"):
        return pgettext("audit log", "paused the event in round %(round)s") % {"round": d["round"]}
    if e.action == "reopen" and d.get("round"):
        return pgettext(
            "audit log",
            "reopened the event after round %(round)s: a corrected result means more games to play",
        ) % {"round": d["round"]}
    if e.action == "called_off" and d.get("needed"):
        words = {"came": d.get("came", 0), "needed": d["needed"]}
        return pgettext("audit log", "called the event off: %(came)s came, %(needed)s were needed") % words
    if e.action == "resume" and d.get("round"):
        return pgettext("audit log", "resumed the event in round %(round)s") % {"round": d["round"]}
    return str(ACTION_WORDS.get(e.action, e.action))


def _late_entry_words(action: str, d: dict[str, Any]) -> str:
    """A late entry or invitation in the audit log: who, from which round, at what for the missed."""
    words = {
        "name": d["name"],
        "round": d.get("round", "?"),
        "missed": (
            pgettext("audit log: missed rounds pay", "half")
            if d.get("missed") == "half"
            else pgettext("audit log: missed rounds pay", "nothing")
        ),
    }
    if action == "late entry":
        return (
            pgettext(
                "audit log", "entered %(name)s late, from round %(round)s (missed rounds pay %(missed)s)"
            )
            % words
        )
    if action == "late entry invited":
        return (
            pgettext(
                "audit log",
                "invited %(name)s to enter late, from round %(round)s (missed rounds pay %(missed)s); "
                "they are entered only if they accept",
            )
            % words
        )
    if action == "late entry accepted":
        return pgettext("audit log", "accepted the invitation: %(name)s plays from round %(round)s") % words
    return pgettext("audit log", "declined the invitation to enter late (%(name)s)") % words


def _ranks_words(ranks: dict[str, int | None], names: dict[int, str]) -> str:
    if not ranks or all(r is None for r in ranks.values()):
        return pgettext("audit log: a table's result", "not finished")
    known = {int(p): r for p, r in ranks.items() if r is not None}
    words = place_words(known)
    order = sorted(known, key=lambda p: known[p])
    return places_text([(words[p], names.get(p, "?")) for p in order])
