"""The explorer's view of a game: positions by a short key, and the moves played from them.

A position's key (:func:`position_key`) is a short, stable hash of what decides the next moves:
the game and its edition, the number of players, the board (fields and chevrons), the seats that
are out and the seat to move. The ply count, the ply limit and the counters of the game's end are
left out, so a position reached by different move orders, or at a different ply, has one key.
The key never changes between versions of the engine unless the encoding of the board does.

:func:`keyed_moves` replays a game and gives, for every move (a resignation or a timeout is not a
move, though it changes the positions after it), the key of the position it was played from, the
move in canonical notation and the seat that played it. :func:`result_scores` says each seat's
result as a score from 1 (first place) to 0 (last), ties sharing the average of their places.

>>> import engine
>>> s = engine.new_game("pacru", 2)
>>> key = position_key(s)
>>> len(key), key == position_key(engine.new_game("pacru", 2))
(24, True)
>>> [(k == key, move, seat) for k, move, seat in keyed_moves(["a3-b4(b4)"], start=s)]
[(True, 'a3-b4(b4)', 1)]
>>> result_scores({1: 1, 2: 2, 3: 2, 4: 4})
{1: 1.0, 2: 0.5, 3: 0.5, 4: 0.0}
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping

from .records import Record, parse_record
from .state import State

#: How many hexadecimal digits a key has (96 bits: no two positions of any history share one).
KEY_LENGTH = 24
#: A service event of a record (not a move): ``resign 2``, ``timeout 3``.
_EVENT = re.compile(r"^(resign|timeout)\s+([1-4])$", re.IGNORECASE)


def position_key(state: State) -> str:
    """The key of the position ``state`` shows (see the module docstring)."""
    edition = state.edition if state.has_editions else ""
    text = "|".join(
        (
            state.game,
            edition,
            str(state.players),
            ",".join(map(str, state.tiles)),
            ",".join(map(str, state.occ)),
            ",".join(map(str, sorted(state.eliminated))),
            str(state.to_move),
        )
    )
    return hashlib.blake2b(text.encode(), digest_size=KEY_LENGTH // 2).hexdigest()


def keyed_moves(
    game: Record | str | Iterable[str], *, start: State | None = None
) -> list[tuple[str, str, int]]:
    """``(key, move, mover)`` for each move of a game, in order.

    ``game`` is a record (or its text), whose start it replays from, or the actions alone
    (record lines without numbers: moves, ``resign N``, ``timeout N``) played from ``start``.
    An action the rules refuse raises :class:`engine.IllegalMove`, as :meth:`State.play` does.
    """
    if isinstance(game, str):
        game = parse_record(game)
    if isinstance(game, Record):
        state, actions = game.initial_state(), list(game.actions)
    else:
        if start is None:
            raise ValueError("keyed_moves needs the start position (start=) to replay bare actions")
        state, actions = start, list(game)
    out: list[tuple[str, str, int]] = []
    for action in actions:
        event = _EVENT.match(action)
        if event:
            state = state.eliminate(int(event.group(2)), event.group(1).lower())
            continue
        before = state
        state = state.play(action)
        out.append((position_key(before), state.last_move or action, before.to_move))
    return out


def result_scores(ranks: Mapping[int, int]) -> dict[int, float]:
    """Seat -> score from a ranking (seat -> rank, 1 best, equal ranks tied as 1, 2, 2, 4): 1 for
    first place, 0 for last, evenly between; tied seats share the average of the places they
    hold (two players tied: ½ each)."""
    n = len(ranks)
    if n < 2:
        return {seat: 1.0 for seat in ranks}
    tied: dict[int, int] = {}
    for rank in ranks.values():
        tied[rank] = tied.get(rank, 0) + 1
    out = {}
    for seat, rank in ranks.items():
        place = rank + (tied[rank] - 1) / 2  # the average of places rank … rank + tied − 1
        out[seat] = (n - place) / (n - 1)
    return dict(sorted(out.items()))


__all__ = ["KEY_LENGTH", "keyed_moves", "position_key", "result_scores"]
