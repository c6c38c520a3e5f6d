"""Why a chevron move is not legal, in words (for :class:`IllegalMove` messages).

This runs only after a move was not found among the legal ones, so it may be
slow and thorough; move generation itself never calls it.
"""

from __future__ import annotations

from .board import BORDERLAND, BORDERLAND_CELLS, CELL_NAMES, DIRECTION_NAMES, FORWARD, RAYS, direction_between
from .state import State


def _power(state: State, cell: int, seat: int) -> int:
    if state.game == "shacru":
        return 1
    n = sum(1 for c in BORDERLAND_CELLS[BORDERLAND[cell]] if state.tiles[c] == seat)
    return n or 1


def explain_unlisted(state: State, frm: int, to: int, text: str) -> str:
    """A sentence saying why ``frm``→``to`` is not a legal move for the player on turn."""
    me = state.to_move
    f, t = CELL_NAMES[frm], CELL_NAMES[to]
    head = f"{text.strip()}:"
    o = state.occ[frm]
    if o < 0:
        return f"{head} there is no chevron on {f}"
    if o >> 3 != me:
        return f"{head} the chevron on {f} belongs to seat {o >> 3}, and seat {me} is on turn"
    if frm == to:
        return f"{head} a move must leave its field"
    line = direction_between(frm, to)
    if line is None:
        return f"{head} {f} to {t} is not a straight line"
    d, k = line
    facing = o & 7
    if d not in FORWARD[facing]:
        allowed = ", ".join(DIRECTION_NAMES[x] for x in FORWARD[facing])
        return (
            f"{head} the chevron on {f} faces {DIRECTION_NAMES[facing]} and may move only "
            f"{allowed}, not {DIRECTION_NAMES[d]}"
        )
    reach = _power(state, frm, me)
    if k > reach:
        if state.game == "shacru":
            return f"{head} in Shacru a chevron moves one field at a time"
        return (
            f"{head} the chevron on {f} has power {reach} (your markers in its borderland) "
            f"and cannot move {k} fields"
        )
    between = RAYS[frm][d][: k - 1]
    blockers = [c for c in between if state.occ[c] >= 0]
    connection = k > 1 and state.tiles[frm] == me and state.tiles[to] == me
    target = state.occ[to]
    if target >= 0:
        if target >> 3 == me:
            return f"{head} {t} holds your own chevron"
        if state.game != "pacru":
            return f"{head} {t} holds a chevron, and you may not move onto a chevron"
        if blockers:
            return f"{head} a pincer may not jump: a chevron stands on {CELL_NAMES[blockers[0]]}"
        attackers = _attackers(state, to, me)
        return (
            f"{head} a pincer on {t} needs at least two of your chevrons attacking it at the "
            f"start of your turn; {len(attackers)} {'does' if len(attackers) == 1 else 'do'}"
        )
    colour = state.tiles[to]
    if colour not in (0, me):
        return f"{head} {t} is seat {colour}'s colour, and you may not move onto another player's colour"
    if blockers and not connection:
        return (
            f"{head} a chevron on {CELL_NAMES[blockers[0]]} stands in the way; only a connection "
            f"(from your colour to your colour) may jump chevrons"
        )
    return f"{head} {f}-{t} is not a legal move"


def _attackers(state: State, target: int, seat: int) -> list[int]:
    """Chevrons of ``seat`` that attack ``target`` (RULES 6.2, pincer)."""
    out = []
    for c in range(len(state.occ)):
        o = state.occ[c]
        if o < 0 or o >> 3 != seat:
            continue
        reach = _power(state, c, seat)
        for d in FORWARD[o & 7]:
            for step in RAYS[c][d][:reach]:
                if state.occ[step] >= 0:
                    if step == target:
                        out.append(c)
                    break
    return out
