"""Moves in words: why a chevron move is not legal (for :class:`IllegalMove`
messages), and what a played move did (for reviewing a game).

:func:`explain_unlisted` runs only after a move was not found among the legal
ones, so it may be slow and thorough; move generation itself never calls it.
:func:`effects` compares the states before and after an action and reads the
canonical notation the engine recorded; it never changes either state.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping

from .board import (
    BORDERLAND,
    BORDERLAND_CELLS,
    CELL_INDEX,
    CELL_NAMES,
    DIRECTION_NAMES,
    FORWARD,
    NEIGHBOUR,
    RAYS,
    borderland_name,
    direction_between,
)
from .notation import Parsed, move_text, parse
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


# ------------------------------------------------------------- effects in words
#: How a seat left the game, by the reason the engine records.
_OUT_WORDS = {
    "captured": "{who} has lost the last chevron to the pincer and is out",
    "blocked": "{who} is blocked and out",
    "resign": "{who} resigns and is out; the markers stay on the board",
    "timeout": "{who} runs out of time and is out; the markers stay on the board",
}


def move_effects(before: State, move: str, names: Mapping[int, str] | None = None) -> list[str]:
    """What playing ``move`` in ``before`` does, as short plain-English phrases.

    ``names`` maps seats to the names to use ("seat 2" for a seat not in it).
    """
    return effects(before, before.play(move), names)


def effects(before: State, after: State, names: Mapping[int, str] | None = None) -> list[str]:
    """The effects of the action that turned ``before`` into ``after``, in words.

    The action is a ply (a chevron move, a Pacru reorientation, a pass) when
    ``after`` records a ``last_move``, and otherwise a resignation or timeout
    (:meth:`State.eliminate`). The phrases come in the order things happen:
    the move itself, its effects, players going out, then the end of the game.
    """
    who = _namer(names)
    out: list[str] = []
    if after.last_move is not None:
        parsed = parse(after.last_move)
        if parsed.kind == "pass":
            out.append(f"{who(before.to_move)} passes: no chevron can move")
        elif parsed.kind == "reorient":
            out.append(_reorientation(before, after, parsed))
        elif before.game == "pacru":
            out.extend(_pacru_move(before, after, parsed, who))
        else:
            out.extend(_marking_move(before, after, parsed, who))
    for seat, reason in after.last_eliminations:
        out.append(_OUT_WORDS.get(reason, "{who} is out").format(who=who(seat)))
    if before.end_triggered_by is None and after.end_triggered_by is not None and not after.is_over:
        out.append("the end is triggered: every other player still in has one last turn")
    if after.is_over and not before.is_over:
        out.append(_ending(after, who))
    return out


def _namer(names: Mapping[int, str] | None) -> Callable[[int], str]:
    known = dict(names or {})
    return lambda seat: known.get(seat) or f"seat {seat}"


def _listed(cells: Iterable[int]) -> str:
    return ", ".join(CELL_NAMES[c] for c in cells)


def _travel(frm: int, to: int, capture: bool) -> tuple[str, int, int, bool]:
    """The opening phrase of a chevron move, its direction and length, and whether it crosses."""
    line = direction_between(frm, to)
    assert line is not None, "a played move runs in a straight line"
    d, k = line
    base = f"{CELL_NAMES[frm]}{'x' if capture else '-'}{CELL_NAMES[to]}"
    text = f"{base}: moves {k} field{'s' if k > 1 else ''} {DIRECTION_NAMES[d]}"
    crossing = BORDERLAND[frm] != BORDERLAND[to]
    if crossing:
        text += f", crossing into borderland {borderland_name(to)}"
    return text, d, k, crossing


def _pacru_move(before: State, after: State, parsed: Parsed, who: Callable[[int], str]) -> list[str]:
    me = before.to_move
    frm, to = parsed.frm, parsed.to
    head, d, k, crossing = _travel(frm, to, parsed.capture)
    out = [head]
    f, t, land = CELL_NAMES[frm], CELL_NAMES[to], borderland_name(to)
    mine = who(me)

    def gained(cell: int) -> bool:
        return after.tiles[cell] == me and before.tiles[cell] != me

    def short(cell: int) -> str:
        return "" if gained(cell) or before.tiles[cell] == me else " (the supply of markers ran out)"

    open_choices = before.choices(move_text(frm, to, parsed.capture))
    tokens = list(parsed.tokens)
    option = tokens.pop(0) if open_choices.effects and tokens else None
    meeting = tokens[0] if tokens else None

    if parsed.capture:
        victim = before.occ[to] >> 3
        text = f"pincer on {t}: {who(victim)}'s chevron is removed"
        if before.tiles[to] != me:
            text += f" and {t} takes {mine}'s colour{short(to)}"
        out.append(text)
    between = RAYS[frm][d][: k - 1]
    jumped = [c for c in between if before.occ[c] >= 0]
    connection = not parsed.capture and k > 1 and before.tiles[frm] == me and before.tiles[to] == me
    if connection and jumped:
        out.append(
            f"connection jump over the chevron{'s' if len(jumped) > 1 else ''} on {_listed(jumped)}: "
            f"the fields between keep their colours"
        )
    elif connection and option == "*":
        coloured = [c for c in between if gained(c)]
        missed = [c for c in between if not gained(c) and before.tiles[c] != me]
        if coloured:
            text = f"connection {f}–{t} colours {_listed(coloured)}"
        else:
            text = f"connection {f}–{t}: the fields between are already {mine}'s"
        if open_choices.effect_kind == "either":
            text += ", taken instead of the border marker"
        if missed:
            text += f"; {_listed(missed)} unchanged: the supply of markers ran out"
        out.append(text)
    elif connection:
        out.append(f"connection {f}–{t} not taken: the border marker is chosen instead")
    if crossing and option is not None and option != "*":
        cell = CELL_INDEX[option]
        was = before.tiles[cell]
        if was == 0:
            out.append(f"borderland change in {land}: marker on {option}{short(cell)}")
        else:
            out.append(
                f"borderland transformation in {land}: {option} changes from {who(was)}'s colour "
                f"to {mine}'s{short(cell)}"
            )
    elif crossing and not [e for e in open_choices.effects if e != "*"]:
        out.append(f"borderland {land} has no field to change")
    if meeting is not None:
        cell = CELL_INDEX[meeting]
        partner = NEIGHBOUR[to][d]
        out.append(
            f"meeting on {t} with the chevron on {CELL_NAMES[partner]}: {meeting} changes to "
            f"{mine}'s colour{short(cell)}"
        )
    return out


def _marking_move(before: State, after: State, parsed: Parsed, who: Callable[[int], str]) -> list[str]:
    """Shacru and Azacru: arrival marker, connection change or jump, twist."""
    me = before.to_move
    frm, to = parsed.frm, parsed.to
    head, d, k, crossing = _travel(frm, to, False)
    out = [head]
    f, t = CELL_NAMES[frm], CELL_NAMES[to]
    between = RAYS[frm][d][: k - 1]
    jumped = [c for c in between if before.occ[c] >= 0]
    removed = after.occ[to] < 0
    if k > 1 and before.tiles[frm] == me and before.tiles[to] == me:
        if jumped:
            out.append(
                f"connection jump over the chevron{'s' if len(jumped) > 1 else ''} on {_listed(jumped)}: "
                f"the fields between keep their colours"
            )
        else:
            coloured = [c for c in between if before.tiles[c] != me]
            if coloured:
                out.append(f"connection {f}–{t} colours {_listed(coloured)}")
            else:
                out.append(f"connection {f}–{t}: the fields between are already {who(me)}'s")
    if before.tiles[to] == 0:
        out.append(f"marker on {t}")
    if removed:
        owners = sorted({before.tiles[c] for c in between if before.tiles[c] not in (0, me)})
        colours = " and ".join(f"{who(s)}'s" for s in owners)
        out.append(f"the chevron leaves the board: the connection passed over {colours} colour")
    elif crossing and parsed.twist is not None:
        facing = DIRECTION_NAMES[after.occ[to] & 7]
        out.append(f"twist to {facing}" if parsed.twist else f"no twist: keeps facing {facing}")
    return out


def _reorientation(before: State, after: State, parsed: Parsed) -> str:
    cell = parsed.frm
    turn = parsed.turn
    facing = DIRECTION_NAMES[after.occ[cell] & 7]
    sense = "clockwise" if turn > 0 else "counter-clockwise"
    paid = ", ".join(parsed.tokens)
    cost = 2 * abs(turn)
    return (
        f"{CELL_NAMES[cell]}: reorients {45 * abs(turn)}° {sense} to face {facing}, "
        f"paying {cost} markers ({paid})"
    )


def _ending(after: State, who: Callable[[int], str]) -> str:
    winner = after.winner
    reason = after.end_reason
    if reason == "target":
        assert winner is not None
        return f"{who(winner)} reaches the marker target of {after.target}: the game ends, {who(winner)} wins"
    if reason == "last-standing":
        if winner is None:
            return "nobody is left: the game ends"
        return f"only {who(winner)} is left in: the game ends, {who(winner)} wins"
    why = {
        "ply-limit": f"the ply limit of {after.ply_limit} is reached",
        "no-progress": "too many plies without a new marker",
        "no-moves": "nobody can move",
        "no-gain": "nobody can gain another marker",
        "end-trigger": "the final turns are played",
    }.get(reason or "", "the game is over")
    if winner is None:
        return f"{why}: the game ends without a single winner"
    return f"{why}: the game ends, {who(winner)} wins on markers"


# ------------------------------------------------------------------ refusals
def without_move_echo(message: str, move: str) -> str:
    """``message`` (an :class:`IllegalMove` text) without its leading repeat of ``move``.

    Engine messages open with the move (``"e9-e5: there is no chevron on e9"``)
    so that they stand alone; a caller that shows the move next to the reason
    uses this to say it once: ``"there is no chevron on e9"``. A message that
    names the move as its subject (``"a3-b4 crosses into borderland b5: …"``)
    says "the move" instead. Anything else is returned unchanged.
    """
    written = move.strip()
    compact = "".join(move.split()).lower()
    heads = {written, compact, repr(written), repr(move)}
    base = _BASE.match(compact)
    if base:
        heads.add(base.group(0))
    for head in sorted((h for h in heads if h), key=len, reverse=True):
        if message.startswith(head + ": "):
            return message[len(head) + 2 :]
        if message.startswith(head + " is not "):
            return "this" + message[len(head) :]
        if message.startswith(head + " "):
            return "the move" + message[len(head) :]
    return message


_BASE = re.compile(r"[a-i][1-9][-x][a-i][1-9]")
