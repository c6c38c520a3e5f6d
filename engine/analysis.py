"""Analysis of a whole game: how each action changed every seat's prospects, and which moves cost
their player most.

The game is replayed from its start. Every position in which a player had a real choice is
searched once with the search bot (:meth:`engine.bots.search.SearchBot.analyse`) for a fixed
number of positions (the analysis's *depth*, 3 to 8, names a budget of :data:`WORK`), so an
analysis is the same on any machine for the same seed. A search gives every seat's **expected
score** in the position (0 to 1: 1 is first place, 0 is last; with two players, the winning
chance) and the mover's expected score after each root move it tried.

For each move played, the mover's **loss** is the expected score of the search's preferred move
minus that of the move played (taken from the same search when the move was among its root
moves, else from the search of the position after it), never below zero. A loss of at least
:data:`INACCURACY` (0.05) marks an inaccuracy, :data:`MISTAKE` (0.10) a mistake and
:data:`BLUNDER` (0.20) a blunder; a marked move carries the preferred move and the line the
search expects after it.

Not judged: a forced move (the only candidate, and in Pacru no affordable reorientation), whose
position takes the value of the position after it without a search; resignations and timeouts
(``resign N`` / ``timeout N``), which are no choice of play. A finished position's values are
the real result (a tie shares its places' scores).

>>> from engine.analysis import analyse_game
>>> plies = analyse_game(["a3-b4(b4)", "a7-b7"], game="pacru", players=2, iterations=30, seed=1)
>>> [p.action for p in plies], len(plies[0].values)
(['a3-b4(b4)', 'a7-b7'], 3)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from .bots.base import candidates
from .bots.search import SearchBot
from .records import Record
from .state import State
from .variants import new_game

#: The analysis depths (3 to 8) and the positions searched per judged position at each, in Pacru
#: and in Shacru or Azacru (a Pacru position costs about four times as much): each depth about
#: three times the work of the one below. (They were the bot levels' budgets before the levels
#: were graded by depth and carelessness; an analysis keeps its depth's meaning.)
WORK: dict[int, tuple[int, int]] = {
    3: (150, 400),
    4: (700, 1_600),
    5: (2_500, 6_000),
    6: (10_000, 20_000),
    7: (30_000, 60_000),
    8: (100_000, 150_000),
}


def work(depth: int, game: str) -> int:
    """The positions searched per judged position at analysis ``depth`` (3 to 8) in ``game``."""
    pacru, step_games = WORK[depth]
    return pacru if game == "pacru" else step_games


INACCURACY = 0.05
MISTAKE = 0.10
BLUNDER = 0.20
#: Marks from the worst down: (name, the least loss that earns it).
MARKS: tuple[tuple[str, float], ...] = (
    ("blunder", BLUNDER),
    ("mistake", MISTAKE),
    ("inaccuracy", INACCURACY),
)
#: How marks are written beside a move, as in chess annotation.
SYMBOLS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}

_EVENT = re.compile(r"^(resign|timeout) ([1-4])$")


class Judgement(Protocol):
    """What a search says about one position (:class:`engine.bots.search.Verdict`)."""

    @property
    def best(self) -> str: ...
    @property
    def values(self) -> list[float]: ...
    @property
    def moves(self) -> dict[str, float]: ...
    @property
    def line(self) -> list[str]: ...


#: A search of one position: ``(state, iterations, seed) -> Judgement``.
Searcher = Callable[[State, int, int], Judgement]


@dataclass(frozen=True)
class PlyVerdict:
    """One action of the game, judged.

    ``values``: every seat's expected score after the action (index 0 unused), for the graph.
    ``before`` / ``after``: the mover's expected score with the search's preferred move and with
    the move played; ``loss`` their difference (0 for an action not judged). ``mark``: ``None``,
    ``"inaccuracy"``, ``"mistake"`` or ``"blunder"``; then ``best`` is the preferred move and
    ``line`` the line from it (``best`` first).
    """

    seq: int
    action: str
    kind: str  # "move", "resign" or "timeout"
    seat: int  # the mover, or the seat that resigned or timed out
    values: list[float]
    judged: bool = False
    forced: bool = False
    before: float | None = None
    after: float | None = None
    loss: float = 0.0
    mark: str | None = None
    best: str | None = None
    line: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def mark_for(loss: float) -> str | None:
    """The mark a loss of expected score earns (``None`` below :data:`INACCURACY`)."""
    for name, least in MARKS:
        if loss >= least - 1e-9:
            return name
    return None


def result_values(state: State) -> list[float]:
    """A finished game's expected scores, known: first place 1, last 0, places evenly between,
    tied seats sharing the scores of the places they span (index 0 unused)."""
    ranks = state.ranking()
    n = state.players
    out = [0.0]
    for seat in state.seats:
        rank = ranks[seat]
        tied = sum(1 for r in ranks.values() if r == rank)
        places = range(rank, rank + tied)
        out.append(round(sum((n - p) / (n - 1) for p in places) / tied, 4))
    return out


def is_forced(state: State) -> bool:
    """Whether the player on turn has exactly one move to choose (Pacru: and no reorientation)."""
    if len(candidates(state)) != 1:
        return False
    return not state.has_reorientation or state.turn_options()["reorient"] is None


def default_searcher(state: State, iterations: int, seed: int) -> Judgement:
    verdict: Judgement = SearchBot().analyse(state, iterations=iterations, seed=seed)
    return verdict


def _actions_and_start(
    record_or_moves: Record | Sequence[str], game: str | None, players: int | None, start: State | None
) -> tuple[State, list[str]]:
    if isinstance(record_or_moves, Record):
        return (start or record_or_moves.initial_state()), list(record_or_moves.actions)
    if start is None:
        if game is None or players is None:
            raise ValueError("a list of actions needs game and players (or a start state)")
        start = new_game(game, players)
    return start, list(record_or_moves)


def _apply(state: State, action: str) -> State:
    event = _EVENT.match(action)
    if event:
        return state.eliminate(int(event.group(2)), event.group(1))
    return state.play(action)


@dataclass(frozen=True)
class GameAnalysis:
    """A game judged: every seat's expected score at the start, and each action's verdict."""

    start: list[float]
    plies: list[PlyVerdict]


def analyse_game(
    record_or_moves: Record | Sequence[str],
    *,
    game: str | None = None,
    players: int | None = None,
    iterations: int,
    seed: int = 0,
    start: State | None = None,
    searcher: Searcher | None = None,
) -> list[PlyVerdict]:
    """Each action of a game judged (:func:`analyse`'s ``plies``)."""
    return analyse(
        record_or_moves,
        game=game,
        players=players,
        iterations=iterations,
        seed=seed,
        start=start,
        searcher=searcher,
    ).plies


def analyse(
    record_or_moves: Record | Sequence[str],
    *,
    game: str | None = None,
    players: int | None = None,
    iterations: int,
    seed: int = 0,
    start: State | None = None,
    searcher: Searcher | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> GameAnalysis:
    """Judge every action of a game (see the module docstring).

    ``record_or_moves``: a :class:`Record`, or the actions in order (moves in notation,
    ``resign N``, ``timeout N``) of a game of ``game`` at ``players`` seats from the standard
    start (or from ``start``). Each searched position ``j`` uses the seed ``seed + j``.
    ``progress(done, total)`` is called after each search.
    """
    search = searcher or default_searcher
    first, actions = _actions_and_start(record_or_moves, game, players, start)
    states = [first]
    for action in actions:
        states.append(_apply(states[-1], action))
    n = len(actions)
    # Positions searched: not over, and not a forced move that was played (that position is
    # worth what the position after it is worth).
    forced = [False] * (n + 1)
    todo: list[int] = []
    for j, state in enumerate(states):
        if state.is_over:
            continue
        forced[j] = is_forced(state)
        if not (forced[j] and j < n and not _EVENT.match(actions[j])):
            todo.append(j)
    verdicts: dict[int, Judgement] = {}
    for done, j in enumerate(todo, start=1):
        verdicts[j] = search(states[j], iterations, seed + j)
        if progress is not None:
            progress(done, len(todo))
    values: list[list[float]] = [[] for _ in states]
    for j in range(n, -1, -1):
        if states[j].is_over:
            values[j] = result_values(states[j])
        elif j in verdicts:
            values[j] = [round(float(v), 4) for v in verdicts[j].values]
        else:
            values[j] = values[j + 1]
    out: list[PlyVerdict] = []
    for i, action in enumerate(actions):
        before_state, after_values = states[i], values[i + 1]
        event = _EVENT.match(action)
        if event:
            out.append(PlyVerdict(i, action, event.group(1), int(event.group(2)), after_values))
            continue
        mover = before_state.to_move
        verdict = verdicts.get(i)
        if verdict is None:  # forced: nothing to choose, nothing lost
            worth = after_values[mover]
            out.append(
                PlyVerdict(i, action, "move", mover, after_values, forced=True, before=worth, after=worth)
            )
            continue
        out.append(_judged(i, action, mover, verdict, after_values))
    return GameAnalysis(values[0], out)


def _judged(i: int, action: str, mover: int, verdict: Judgement, after_values: list[float]) -> PlyVerdict:
    best_value = verdict.moves.get(verdict.best, verdict.values[mover])
    played = best_value if action == verdict.best else verdict.moves.get(action, after_values[mover])
    loss = max(0.0, best_value - played)
    mark = mark_for(loss) if action != verdict.best else None
    return PlyVerdict(
        i,
        action,
        "move",
        mover,
        after_values,
        judged=True,
        before=round(best_value, 4),
        after=round(played, 4),
        loss=round(loss, 4),
        mark=mark,
        best=verdict.best if mark else None,
        line=list(verdict.line[:6]) if mark else [],
    )


def summary(plies: Sequence[PlyVerdict], players: int) -> dict[str, dict[str, float | int]]:
    """Per seat (keys ``"1"`` …): ``moves`` judged, ``inaccuracies``, ``mistakes``, ``blunders``
    and ``average_loss`` (over the judged moves, 0 without any)."""
    out: dict[str, dict[str, float | int]] = {}
    for seat in range(1, players + 1):
        mine = [p for p in plies if p.judged and p.seat == seat]
        counts = {name: sum(1 for p in mine if p.mark == name) for name, _ in MARKS}
        out[str(seat)] = {
            "moves": len(mine),
            "inaccuracies": counts["inaccuracy"],
            "mistakes": counts["mistake"],
            "blunders": counts["blunder"],
            "average_loss": round(sum(p.loss for p in mine) / len(mine), 4) if mine else 0.0,
        }
    return out


__all__ = [
    "BLUNDER",
    "INACCURACY",
    "MARKS",
    "MISTAKE",
    "SYMBOLS",
    "GameAnalysis",
    "Judgement",
    "PlyVerdict",
    "analyse",
    "analyse_game",
    "is_forced",
    "mark_for",
    "result_values",
    "summary",
]
