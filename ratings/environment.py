"""The TrueSkill environments, one per game, and the math the rest of the app calls.

Parameters (the same for all three games, on TrueSkill's usual scale):

* ``mu`` 25 and ``sigma`` 25/3: a newcomer's rating and its uncertainty;
* ``beta`` 25/6: the skill difference that gives about a 76 % chance of
  winning — the games have little luck, so the default is kept;
* ``tau`` 25/300: the uncertainty added before each game, so ratings keep
  moving for active players;
* ``draw_probability`` per game: Pacru almost never ties (only shared ranks at
  the ply limit), so 0.02; Shacru and Azacru rank by markers and share ranks
  more often, so 0.10.

A player is **provisional** while sigma is above 2.5 (about 10–15 rated
tables). The library raises ``FloatingPointError`` on some extreme upsets
with its default backend; :func:`rate` then repeats that one update with the
``mpmath`` backend.
"""

from __future__ import annotations

from functools import cache

import trueskill

MU = 25.0
SIGMA = MU / 3
BETA = MU / 6
TAU = MU / 300
DRAW_PROBABILITY = {"pacru": 0.02, "azacru": 0.10, "shacru": 0.10}
PROVISIONAL_SIGMA = 2.5


@cache
def env(game: str, backend: str | None = None) -> trueskill.TrueSkill:
    return trueskill.TrueSkill(
        mu=MU, sigma=SIGMA, beta=BETA, tau=TAU, draw_probability=DRAW_PROBABILITY[game], backend=backend
    )


def conservative(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def rate(game: str, ratings: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """New (mu, sigma) for each player of one table, from their ranks (lower is better, ties equal)."""
    try:
        return _rate(env(game), ratings, ranks)
    except FloatingPointError:
        return _rate(env(game, "mpmath"), ratings, ranks)


def _rate(
    e: trueskill.TrueSkill, ratings: list[tuple[float, float]], ranks: list[int]
) -> list[tuple[float, float]]:
    groups = [(e.create_rating(mu, sigma),) for mu, sigma in ratings]
    return [(float(g[0].mu), float(g[0].sigma)) for g in e.rate(groups, ranks=ranks)]


def quality(game: str, ratings: list[tuple[float, float]]) -> float:
    """TrueSkill's match quality (the draw probability) of a proposed table of 2–4 players."""
    e = env(game)
    return float(e.quality([(e.create_rating(mu, sigma),) for mu, sigma in ratings]))


def fair_quality(game: str, seats: int) -> float:
    """A 'fair table' threshold for ``seats`` players: half the quality of equal newcomers.

    Quality shrinks with the table size (about 0.45 / 0.20 / 0.09 for 2 / 3 / 4
    equal players), so one fixed threshold cannot serve every size.
    """
    return quality(game, [(MU, SIGMA)] * seats) / 2
