"""What every bot shares: the protocol, the candidate moves, and the evaluation.

**Evaluation** (:func:`evaluate`), from one seat's point of view, in marker
units:

* a finished game: +1000 for the winner, −1000 for a loss to a declared
  winner, otherwise by place (+100 for first, less for each place below);
  a seat that is out: −500;
* 3 × (own markers − the best opponent's markers);
* Pacru and Azacru: 0.5 × the summed power of movement of own chevrons;
* 0.15 × (own legal moves − the opponents' average): mobility;
* Pacru: −8 for each own chevron under a pincer threat (an opponent could
  take it next turn) and +4 for each pincer the seat could make itself;
  −6 for each legal move below three (the risk of being blocked, which is
  elimination);
* Azacru: 2 × own chevrons on the board (a connection over another colour
  costs the chevron).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Protocol

from ..board import BORDERLAND, BORDERLAND_CELLS, CELL_INDEX, CELL_NAMES
from ..notation import TURN_SYMBOLS, with_effects
from ..pacru import PacruState, generate, power
from ..state import PINCER, State
from ..stepgames import ShacruState
from ..stepgames import generate as step_generate


class Bot(Protocol):
    def choose(
        self,
        state: State,
        *,
        budget: float | None = None,
        seed: int | None = None,
        iterations: int | None = None,
    ) -> str: ...


def mobility(state: State, seat: int) -> list[tuple[int, ...]]:
    if isinstance(state, PacruState):
        return generate(state.tiles, state.occ, seat)
    assert isinstance(state, ShacruState)
    return step_generate(state.tiles, state.occ, seat, state.long_moves)


def evaluate(state: State, seat: int) -> float:
    """How good ``state`` is for ``seat`` (see the module docstring)."""
    if state.is_over:
        if state.winner == seat:
            return 1000.0
        if state.winner is not None:
            return -1000.0
        rank = state.ranking()[seat]
        return 100.0 - 200.0 * (rank - 1) / max(1, state.players - 1)
    if seat in state.eliminated:
        return -500.0
    counts = state.counts
    others = [s for s in state.seats if s != seat]
    score = 3.0 * (counts[seat] - max(counts[o] for o in others))
    active = [s for s in others if s not in state.eliminated]
    mine = mobility(state, seat)
    theirs = {s: mobility(state, s) for s in active}
    avg = sum(len(m) for m in theirs.values()) / max(1, len(theirs))
    score += 0.15 * (len(mine) - avg)
    if state.game != "shacru":
        occ = state.occ
        score += 0.5 * sum(
            power(state.tiles, c, seat) for c in range(81) if occ[c] >= 0 and occ[c] >> 3 == seat
        )
    if state.game == "pacru":
        threatened = {
            m[1] for moves in theirs.values() for m in moves if m[4] == PINCER and occ[m[1]] >> 3 == seat
        }
        score -= 8.0 * len(threatened)
        score += 4.0 * len({m[1] for m in mine if m[4] == PINCER})
        score -= 6.0 * max(0, 3 - len(mine))
    elif state.game == "azacru":
        score += 2.0 * sum(1 for o in state.occ if o >= 0 and o >> 3 == seat)
    return score


def values(state: State) -> list[float]:
    """Every seat's evaluation squashed to 0…1 (index 0 unused), for tree search."""
    out = [0.0]
    for seat in state.seats:
        out.append(1.0 / (1.0 + math.exp(-evaluate(state, seat) / 12.0)))
    return out


def expected_scores(raw: list[float]) -> list[float]:
    """Per-seat values (index 0 unused) scaled into expected scores: each in 0…1 (1 = first
    place, 0 = last) and summing to ``players / 2``, as the scores of a finished game do."""
    seats = len(raw) - 1
    target = seats / 2
    out = [0.0] + [min(1.0, max(0.0, v)) for v in raw[1:]]
    fixed: set[int] = set()
    for _ in range(seats):
        free = [i for i in range(1, seats + 1) if i not in fixed]
        room = target - sum(out[i] for i in fixed)
        total = sum(out[i] for i in free)
        if not free:
            break
        if total <= 1e-12:
            for i in free:
                out[i] = room / len(free)
        else:
            for i in free:
                out[i] = out[i] * room / total
        over = [i for i in free if out[i] > 1.0]
        if not over:
            break
        for i in over:
            out[i] = 1.0
            fixed.add(i)
    return out


@dataclass(frozen=True)
class Verdict:
    """What a search thinks of a position (:meth:`SearchBot.analyse`)."""

    #: The move the search prefers.
    best: str
    #: Index = seat (index 0 unused): each seat's expected score, 1 = first place, 0 = last.
    values: list[float]
    #: The root moves searched -> the mover's expected score after each.
    moves: dict[str, float]
    #: The preferred line from here, best move first (at most :data:`LINE` moves).
    line: list[str]


LINE = 6


def meeting_picks(state: State, cells: tuple[str, ...], limit: int) -> list[str]:
    """The most useful meeting fields: another player's colour, where the mover has chevrons."""
    me = state.to_move
    mine = {BORDERLAND[c] for c in range(81) if state.occ[c] >= 0 and state.occ[c] >> 3 == me}

    def worth(name: str) -> tuple[int, int, str]:
        c = CELL_INDEX[name]
        return (-(state.tiles[c] not in (0, me)), -(BORDERLAND[c] in mine), name)

    return sorted(cells, key=worth)[:limit]


def candidates(state: State, meeting_limit: int = 3) -> list[str]:
    """Complete moves worth considering: every base move and effect, the best few meeting fields."""
    if not isinstance(state, PacruState):
        return state.legal_moves()
    out: list[str] = []
    for base in state.base_moves():
        c = state.choices(base)
        for option in c.effects or (None,):
            head = [] if option is None else [option]
            meeting = c.meetings.get(option, ())
            if meeting:
                out.extend(
                    with_effects(base, [*head, cell]) for cell in meeting_picks(state, meeting, meeting_limit)
                )
            else:
                out.append(with_effects(base, head))
    return out


def random_reorientation(state: State, rng: random.Random) -> str | None:
    """A random affordable reorientation of a random chevron (Pacru), or None."""
    if not isinstance(state, PacruState):
        return None
    removable = state._removable()
    if len(removable) < 2:
        return None
    turn = rng.choice((-2, -1, 1, 2) if len(removable) >= 4 else (-1, 1))
    cell = rng.choice(state._cells_of(state.to_move))
    removed = sorted(CELL_NAMES[c] for c in rng.sample(removable, 2 * abs(turn)))
    return with_effects(CELL_NAMES[cell] + TURN_SYMBOLS[turn], removed)


__all__ = [
    "BORDERLAND_CELLS",
    "LINE",
    "Bot",
    "Verdict",
    "candidates",
    "evaluate",
    "expected_scores",
    "values",
]
