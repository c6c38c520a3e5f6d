"""Time controls and per-seat clocks: pure arithmetic, no database, no wall clock.

A table's time control is one of:

* ``untimed`` — no clock (casual and bot tables).
* ``fischer`` — ``base`` seconds, plus ``increment`` seconds after every move.
* ``delay`` — simple (US) delay: each turn the first ``delay`` seconds are
  free; only time beyond them comes off the ``base`` bank. Unused delay is
  lost (it is not added to the bank, unlike Bronstein's variant).
* ``byoyomi`` — ``base`` seconds of main time, then ``periods`` periods of
  ``period`` seconds: a move made within a period keeps it; every period that
  runs out is lost; the player flags when the last one runs out.
* ``correspondence`` — ``days`` per move. Without ``bank_days`` every move
  starts a fresh allowance of ``days``; with it, unused time is kept, up to
  ``bank_days`` in all. ``vacation`` (default true) says whether a player's
  vacation (``games.vacation``) stops their clock; an event or ladder that wants
  its games to move on sets it false.

The server is the authority: it charges a seat with the wall time between the
start of its turn and the arrival of its move, and a seat flags when that
time is past what :func:`time_available` allows (plus the grace in
``settings.CLOCK_GRACE_SECONDS``, for network lag).

>>> tc = TimeControl.from_dict({"kind": "fischer", "base": 60, "increment": 2})
>>> clock = tc.initial_clock()
>>> charge(tc, clock, 10.0)
SeatClock(remaining=52.0, periods=0)
>>> charge(tc, clock, 61.0) is None
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

KINDS = ("untimed", "fischer", "delay", "byoyomi", "correspondence")
DAY = 86400.0


@dataclass(frozen=True)
class SeatClock:
    """What a seat has left: main time (or bank) in seconds, and byo-yomi periods."""

    remaining: float
    periods: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"remaining": round(self.remaining, 3), "periods": self.periods}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SeatClock:
        return cls(float(data["remaining"]), int(data.get("periods", 0)))


@dataclass(frozen=True)
class TimeControl:
    kind: str = "untimed"
    base: float = 0.0
    increment: float = 0.0
    delay: float = 0.0
    periods: int = 0
    period: float = 0.0
    days: float = 0.0
    bank_days: float | None = None
    #: Correspondence only: a player's vacation stops their clock (``games.vacation``).
    vacation: bool = True

    @property
    def timed(self) -> bool:
        return self.kind != "untimed"

    @property
    def per_move(self) -> float:
        """Correspondence: the allowance added for every move, in seconds."""
        return self.days * DAY

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> TimeControl:
        """Validate a time control document; :class:`ValueError` says what is wrong."""
        if not data:
            return cls()
        if not isinstance(data, dict):
            # Translators: time_control, kind, fischer and base are names the API reads: keep them.
            raise ValueError(_("time_control must be an object such as {'kind': 'fischer', 'base': 600}"))
        kind = data.get("kind", "untimed")
        if kind not in KINDS:
            raise ValueError(
                _("time_control kind must be one of %(kinds)s, not %(kind)s")
                % {"kinds": ", ".join(KINDS), "kind": repr(kind)}
            )
        allowed = {
            "untimed": set(),
            "fischer": {"base", "increment"},
            "delay": {"base", "delay"},
            "byoyomi": {"base", "periods", "period"},
            "correspondence": {"days", "bank_days", "vacation"},
        }[kind]
        extra = set(data) - allowed - {"kind"}
        if extra:
            if not allowed:
                raise ValueError(
                    _("%(kind)s time control takes no options, not %(extra)s")
                    % {"kind": kind, "extra": sorted(extra)}
                )
            raise ValueError(
                _("%(kind)s time control takes %(allowed)s, not %(extra)s")
                % {"kind": kind, "allowed": sorted(allowed), "extra": sorted(extra)}
            )

        def number(key: str, low: float, high: float, default: float = 0.0) -> float:
            value = data.get(key, default)
            if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
                raise ValueError(
                    _("time_control %(key)s must be a number from %(low)s to %(high)s, not %(value)s")
                    % {"key": key, "low": f"{low:g}", "high": f"{high:g}", "value": repr(value)}
                )
            return float(value)

        if kind == "fischer":
            return cls(kind, base=number("base", 0.1, 86400), increment=number("increment", 0, 3600))
        if kind == "delay":
            return cls(kind, base=number("base", 0.1, 86400), delay=number("delay", 0, 3600))
        if kind == "byoyomi":
            periods = number("periods", 1, 30, 1)
            if periods != int(periods):
                raise ValueError(_("time_control periods must be a whole number"))
            return cls(
                kind, base=number("base", 0, 86400), periods=int(periods), period=number("period", 0.1, 3600)
            )
        if kind == "correspondence":
            days = number("days", 1 / 1440, 60)
            bank = data.get("bank_days")
            bank_days = None if bank is None else number("bank_days", days, 365)
            vacation = data.get("vacation", True)
            if not isinstance(vacation, bool):
                # Translators: time_control, vacation, true and false are names the API reads: keep them.
                words = _("time_control vacation must be true or false, not %(value)s")
                raise ValueError(words % {"value": repr(vacation)})
            return cls(kind, days=days, bank_days=bank_days, vacation=vacation)
        return cls()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.kind == "fischer":
            out.update(base=self.base, increment=self.increment)
        elif self.kind == "delay":
            out.update(base=self.base, delay=self.delay)
        elif self.kind == "byoyomi":
            out.update(base=self.base, periods=self.periods, period=self.period)
        elif self.kind == "correspondence":
            out.update(days=self.days, bank_days=self.bank_days)
            if not self.vacation:  # the default (true) is left out: stored documents stay as they were
                out["vacation"] = False
        return out

    def describe(self) -> str:
        """Short human form: ``10+5``, ``10 d3``, ``10 + 5×30s``, ``3 days/move``, ``untimed``
        (``3 days/move, no vacation`` when a player's vacation does not stop the clock)."""
        minutes = f"{self.base / 60:g}"
        if self.kind == "fischer":
            return f"{minutes}+{self.increment:g}"
        if self.kind == "delay":
            return f"{minutes} d{self.delay:g}"
        if self.kind == "byoyomi":
            return f"{minutes} + {self.periods}×{self.period:g}s"
        if self.kind == "correspondence":
            per_move = ngettext("%(days)s days/move", "%(days)s days/move", _plural_count(self.days)) % {
                "days": f"{self.days:g}"
            }
            text = per_move
            if self.bank_days:
                # Translators: the most days a player can save up in a correspondence game.
                bank = ngettext("bank %(days)s days", "bank %(days)s days", _plural_count(self.bank_days)) % {
                    "days": f"{self.bank_days:g}"
                }
                # Translators: a correspondence time control: "3 days/move, bank 10 days".
                text = pgettext("time control", "%(per_move)s, %(bank)s") % {
                    "per_move": per_move,
                    "bank": bank,
                }
            if not self.vacation:
                # Translators: a correspondence time control whose clock runs during a player's
                # vacation: "3 days/move, no vacation".
                text = pgettext("time control", "%(clock)s, no vacation") % {"clock": text}
            return text
        return pgettext("time control", "untimed")

    @property
    def stops_for_vacation(self) -> bool:
        """A player's vacation stops their clock here: correspondence that allows it."""
        return self.kind == "correspondence" and self.vacation

    def initial_clock(self) -> SeatClock:
        if self.kind == "correspondence":
            return SeatClock(self.per_move)
        return SeatClock(self.base, self.periods)


def _plural_count(value: float) -> int:
    """The number a plural form is chosen by: a whole number of days is itself, a fraction
    (½ day) takes the form of a few (languages read "0.5 days" as a plural)."""
    return int(value) if value == int(value) else 2


def time_available(tc: TimeControl, clock: SeatClock) -> float:
    """Seconds the seat may think this turn before its flag falls (infinite when untimed)."""
    if tc.kind == "fischer" or tc.kind == "correspondence":
        return clock.remaining
    if tc.kind == "delay":
        return tc.delay + clock.remaining
    if tc.kind == "byoyomi":
        return clock.remaining + clock.periods * tc.period
    return math.inf


def charge(tc: TimeControl, clock: SeatClock, elapsed: float) -> SeatClock | None:
    """The seat's clock after a move that took ``elapsed`` seconds; ``None`` if it flagged.

    A move that arrives within the grace after the flag is charged as if it had
    arrived at the flag (the caller decides about grace).
    """
    elapsed = max(0.0, elapsed)
    if tc.kind == "untimed":
        return clock
    if tc.kind == "fischer":
        left = clock.remaining - elapsed
        return None if left < 0 else SeatClock(left + tc.increment)
    if tc.kind == "delay":
        left = clock.remaining - max(0.0, elapsed - tc.delay)
        return None if left < 0 else SeatClock(left)
    if tc.kind == "byoyomi":
        if elapsed <= clock.remaining:
            return SeatClock(clock.remaining - elapsed, clock.periods)
        lost = math.floor((elapsed - clock.remaining) / tc.period)
        return None if lost >= clock.periods else SeatClock(0.0, clock.periods - lost)
    # correspondence
    left = clock.remaining - elapsed
    if left < 0:
        return None
    allowance = tc.per_move if tc.bank_days is None else min(left + tc.per_move, tc.bank_days * DAY)
    return SeatClock(allowance)


def clamp_to_flag(tc: TimeControl, clock: SeatClock, elapsed: float) -> float:
    """``elapsed`` limited to the time available (a move inside the grace spends it all)."""
    return min(elapsed, time_available(tc, clock))
