"""The rating players read: TrueSkill's skill on an Elo-like scale.

TrueSkill rates a player by a skill estimate ``mu`` (25 for a newcomer) and its
uncertainty ``sigma`` (25/3). The leaderboards order players by the cautious
value ``mu - 3 sigma`` (it starts at 0 and is often negative early on), which
reads badly. Pages show instead:

* the **rating** ``60 × mu``, so a newcomer starts at 1500 as on the chess
  sites, a player a class better (one ``beta``, about a 76 % chance of winning)
  stands 250 higher, and the number is never below 0;
* the **uncertainty** ``± 60 × sigma`` (500 for a newcomer, 150 or less once
  established), and a ``?`` after the rating while the player is provisional.

Ordering stays by the cautious value, so a newcomer with one lucky win does not
top an established board.
"""

from __future__ import annotations

from .environment import PROVISIONAL_SIGMA

#: Display points per TrueSkill point.
SCALE = 60


def rating(mu: float) -> int:
    """The displayed rating for a skill estimate (never negative)."""
    return max(0, round(SCALE * mu))


def uncertainty(sigma: float) -> int:
    """The displayed ± for a TrueSkill sigma."""
    return round(SCALE * sigma)


def text(mu: float, sigma: float) -> str:
    """ "1620" for an established player, "1500?" while provisional."""
    return f"{rating(mu)}{'?' if is_provisional(sigma) else ''}"


def is_provisional(sigma: float) -> bool:
    """Still provisional: too few rated tables for the rating to settle (sigma above the bound)."""
    return sigma > PROVISIONAL_SIGMA


def change(mu_before: float, mu_after: float) -> int:
    """A table's effect on the displayed rating (both ends on the display scale, so the change is
    exactly the difference between the two numbers the player saw)."""
    return rating(mu_after) - rating(mu_before)


def signed(n: int) -> str:
    """ "+38", "−12" (a real minus sign), "±0"."""
    if n > 0:
        return f"+{n}"
    if n < 0:
        return f"−{-n}"
    return "±0"
