"""Moves in words: why a chevron move is not legal (the :class:`IllegalMove` to
raise), and what a played move did (for reviewing a game). Each is said in
English and as a stable code with params (``docs/engine-refusals.md``), so a
caller can say it again in another language without reading the English.

:func:`explain_unlisted` runs only after a move was not found among the legal
ones, so it may be slow and thorough; move generation itself never calls it.
:func:`described` (and :func:`effects`, its English alone) compares the states
before and after an action and reads the canonical notation the engine
recorded; it never changes either state.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from .board import (
    BORDERLAND,
    CELL_INDEX,
    CELL_NAMES,
    DIRECTION_NAMES,
    FORWARD,
    NEIGHBOUR,
    RAYS,
    borderland_name,
    direction_between,
)
from .errors import IllegalMove, Param, Params
from .notation import Parsed, move_text, parse
from .state import State


def explain_unlisted(state: State, frm: int, to: int, text: str) -> IllegalMove:
    """Why ``frm``→``to`` is not a legal move for the player on turn: the refusal to raise."""
    me = state.to_move
    f, t = CELL_NAMES[frm], CELL_NAMES[to]
    move = text.strip()

    def no(reason: str, code: str, **params: Param) -> IllegalMove:
        return IllegalMove(f"{move}: {reason}", code, {"move": move, **params})

    o = state.occ[frm]
    if o < 0:
        return no(f"there is no chevron on {f}", "no_chevron", field=f)
    if o >> 3 != me:
        return no(
            f"the chevron on {f} belongs to seat {o >> 3}, and seat {me} is on turn",
            "not_your_chevron",
            field=f,
            owner=o >> 3,
            seat=me,
        )
    if frm == to:
        return no("a move must leave its field", "null_move", field=f)
    line = direction_between(frm, to)
    if line is None:
        return no(f"{f} to {t} is not a straight line", "not_a_line", field=f, to=t)
    d, k = line
    facing = o & 7
    if d not in FORWARD[facing]:
        allowed = [DIRECTION_NAMES[x] for x in FORWARD[facing]]
        return no(
            f"the chevron on {f} faces {DIRECTION_NAMES[facing]} and may move only "
            f"{', '.join(allowed)}, not {DIRECTION_NAMES[d]}",
            "wrong_direction",
            field=f,
            facing=DIRECTION_NAMES[facing],
            allowed=allowed,
            direction=DIRECTION_NAMES[d],
        )
    reach = state.power(frm, me)
    if k > reach:
        if state.game == "shacru":
            return no(
                "in Shacru a chevron moves one field at a time", "one_field_at_a_time", field=f, distance=k
            )
        return no(
            f"the chevron on {f} has power {reach} (your markers in its borderland) "
            f"and cannot move {k} fields",
            "power_too_low",
            field=f,
            power=reach,
            distance=k,
        )
    return _unlisted_target(state, frm, to, d, k, no)


def _unlisted_target(
    state: State, frm: int, to: int, d: int, k: int, no: Callable[..., IllegalMove]
) -> IllegalMove:
    """The rest of :func:`explain_unlisted`: a straight move within reach, refused for what
    stands on its way or where it lands."""
    me = state.to_move
    f, t = CELL_NAMES[frm], CELL_NAMES[to]
    between = RAYS[frm][d][: k - 1]
    blockers = [c for c in between if state.occ[c] >= 0]
    connection = k > 1 and state.tiles[frm] == me and state.tiles[to] == me
    target = state.occ[to]
    if target >= 0:
        if target >> 3 == me:
            return no(f"{t} holds your own chevron", "own_chevron", field=t)
        if state.game != "pacru":
            return no(f"{t} holds a chevron, and you may not move onto a chevron", "onto_chevron", field=t)
        if blockers:
            blocker = CELL_NAMES[blockers[0]]
            return no(f"a pincer may not jump: a chevron stands on {blocker}", "pincer_jump", field=blocker)
        n = len(_attackers(state, to, me))
        return no(
            f"a pincer on {t} needs at least two of your chevrons attacking it at the "
            f"start of your turn; {n} {'does' if n == 1 else 'do'}",
            "pincer_attackers",
            field=t,
            attackers=n,
        )
    colour = state.tiles[to]
    if colour not in (0, me):
        return no(
            f"{t} is seat {colour}'s colour, and you may not move onto another player's colour",
            "foreign_colour",
            field=t,
            seat=colour,
        )
    if blockers and not connection:
        blocker = CELL_NAMES[blockers[0]]
        return no(
            f"a chevron on {blocker} stands in the way; only a connection "
            f"(from your colour to your colour) may jump chevrons",
            "blocked",
            field=blocker,
        )
    return no(f"{f}-{t} is not a legal move", "not_legal", field=f, to=t)


def _attackers(state: State, target: int, seat: int) -> list[int]:
    """Chevrons of ``seat`` that attack ``target`` (RULES 6.2, pincer)."""
    out = []
    for c in range(len(state.occ)):
        o = state.occ[c]
        if o < 0 or o >> 3 != seat:
            continue
        reach = state.power(c, seat)
        for d in FORWARD[o & 7]:
            for step in RAYS[c][d][:reach]:
                if state.occ[step] >= 0:
                    if step == target:
                        out.append(c)
                    break
    return out


# ------------------------------------------------------------- effects in words
@dataclass(frozen=True)
class Effect:
    """One thing an action did: a stable ``code`` with ``params`` of plain values (seats as
    numbers), for a caller that says it in another language, and ``text``, the English phrase
    (with the names it was given), for the command line."""

    code: str
    params: Params
    text: str

    def __str__(self) -> str:
        return self.text


#: Every code an :class:`Effect` can carry (see ``docs/engine-refusals.md``).
EFFECT_CODES = frozenset(
    {
        "move",
        "reorient",
        "pass",
        "pincer",
        "connection_jump",
        "connection_colours",
        "connection_already",
        "connection_not_taken",
        "border_marker",
        "border_transformation",
        "border_unchanged",
        "meeting",
        "marker",
        "chevron_leaves",
        "twist",
        "no_twist",
        "out_captured",
        "out_blocked",
        "out_resigned",
        "out_timed_out",
        "out",
        "end_triggered",
        "target_reached",
        "nobody_left",
        "last_standing",
        "ended_without_winner",
        "ended_on_markers",
    }
)

#: How a seat left the game, by the reason the engine records: the effect's code and words.
_OUT_WORDS = {
    "captured": ("out_captured", "{who} has lost the last chevron to the pincer and is out"),
    "blocked": ("out_blocked", "{who} is blocked and out"),
    "resign": ("out_resigned", "{who} resigns and is out; the markers stay on the board"),
    "timeout": ("out_timed_out", "{who} runs out of time and is out; the markers stay on the board"),
}
#: Said after an effect whose field could not be coloured: the supply of markers ran out.
_SHORT = " (the supply of markers ran out)"


def move_effects(before: State, move: str, names: Mapping[int, str] | None = None) -> list[str]:
    """What playing ``move`` in ``before`` does, as short plain-English phrases.

    ``names`` maps seats to the names to use ("seat 2" for a seat not in it).
    """
    return effects(before, before.play(move), names)


def effects(before: State, after: State, names: Mapping[int, str] | None = None) -> list[str]:
    """The effects of the action that turned ``before`` into ``after``, in English words (the
    ``text`` of each of :func:`described`)."""
    return [effect.text for effect in described(before, after, names)]


def described(before: State, after: State, names: Mapping[int, str] | None = None) -> list[Effect]:
    """The effects of the action that turned ``before`` into ``after``, each with its code.

    The action is a ply (a chevron move, a Pacru reorientation, a pass) when
    ``after`` records a ``last_move``, and otherwise a resignation or timeout
    (:meth:`State.eliminate`). The effects come in the order things happen:
    the move itself, its effects, players going out, then the end of the game.
    """
    who = _namer(names)
    out: list[Effect] = []
    if after.last_move is not None:
        parsed = parse(after.last_move)
        if parsed.kind == "pass":
            seat = before.to_move
            out.append(Effect("pass", {"seat": seat}, f"{who(seat)} passes: no chevron can move"))
        elif parsed.kind == "reorient":
            out.append(_reorientation(after, parsed))
        elif before.game == "pacru":
            out.extend(_pacru_move(before, after, parsed, who))
        else:
            out.extend(_marking_move(before, after, parsed, who))
    for seat, reason in after.last_eliminations:
        code, words = _OUT_WORDS.get(reason, ("out", "{who} is out"))
        out.append(Effect(code, {"seat": seat}, words.format(who=who(seat))))
    if before.end_triggered_by is None and after.end_triggered_by is not None and not after.is_over:
        out.append(
            Effect(
                "end_triggered",
                {"seat": after.end_triggered_by},
                "the end is triggered: every other player still in has one last turn",
            )
        )
    if after.is_over and not before.is_over:
        out.append(_ending(after, who))
    return out


def _namer(names: Mapping[int, str] | None) -> Callable[[int], str]:
    known = dict(names or {})
    return lambda seat: known.get(seat) or f"seat {seat}"


def _listed(cells: Iterable[int]) -> str:
    return ", ".join(CELL_NAMES[c] for c in cells)


def _names(cells: Iterable[int]) -> list[str]:
    return [CELL_NAMES[c] for c in cells]


def _travel(frm: int, to: int, capture: bool) -> tuple[Effect, int, int, bool]:
    """The opening effect of a chevron move, its direction and length, and whether it crosses."""
    line = direction_between(frm, to)
    assert line is not None, "a played move runs in a straight line"
    d, k = line
    base = f"{CELL_NAMES[frm]}{'x' if capture else '-'}{CELL_NAMES[to]}"
    text = f"{base}: moves {k} field{'s' if k > 1 else ''} {DIRECTION_NAMES[d]}"
    crossing = BORDERLAND[frm] != BORDERLAND[to]
    land = borderland_name(to) if crossing else None
    if crossing:
        text += f", crossing into borderland {land}"
    params: Params = {
        "move": base,
        "from": CELL_NAMES[frm],
        "to": CELL_NAMES[to],
        "distance": k,
        "direction": DIRECTION_NAMES[d],
        "land": land,
    }
    return Effect("move", params, text), d, k, crossing


def _jump(frm: int, to: int, jumped: list[int]) -> Effect:
    return Effect(
        "connection_jump",
        {"from": CELL_NAMES[frm], "to": CELL_NAMES[to], "cells": _names(jumped)},
        f"connection jump over the chevron{'s' if len(jumped) > 1 else ''} on {_listed(jumped)}: "
        f"the fields between keep their colours",
    )


def _connection(
    frm: int,
    to: int,
    seat: int,
    coloured: list[int],
    who: Callable[[int], str],
    instead: bool = False,
    missed: list[int] | None = None,
) -> Effect:
    """A connection change: the fields it colours (or that they were all the mover's already),
    whether it was taken instead of the border marker and the fields the supply left unchanged."""
    f, t = CELL_NAMES[frm], CELL_NAMES[to]
    unchanged = missed or []
    params: Params = {"from": f, "to": t, "seat": seat, "instead": instead, "unchanged": _names(unchanged)}
    if coloured:
        code, text = "connection_colours", f"connection {f}–{t} colours {_listed(coloured)}"
        params["cells"] = _names(coloured)
    else:
        code, text = "connection_already", f"connection {f}–{t}: the fields between are already {who(seat)}'s"
    if instead:
        text += ", taken instead of the border marker"
    if unchanged:
        text += f"; {_listed(unchanged)} unchanged: the supply of markers ran out"
    return Effect(code, params, text)


def _pacru_move(before: State, after: State, parsed: Parsed, who: Callable[[int], str]) -> list[Effect]:
    me = before.to_move
    frm, to = parsed.frm, parsed.to
    head, d, k, crossing = _travel(frm, to, parsed.capture)
    out = [head]
    t, land = CELL_NAMES[to], borderland_name(to)
    mine = who(me)

    def gained(cell: int) -> bool:
        return after.tiles[cell] == me and before.tiles[cell] != me

    def short(cell: int) -> bool:
        return not gained(cell) and before.tiles[cell] != me

    open_choices = before.choices(move_text(frm, to, parsed.capture))
    tokens = list(parsed.tokens)
    option = tokens.pop(0) if open_choices.effects and tokens else None
    meeting = tokens[0] if tokens else None

    if parsed.capture:
        out.append(_pincer(before, to, me, short(to), who))
    between = RAYS[frm][d][: k - 1]
    jumped = [c for c in between if before.occ[c] >= 0]
    connection = not parsed.capture and k > 1 and before.tiles[frm] == me and before.tiles[to] == me
    if connection and jumped:
        out.append(_jump(frm, to, jumped))
    elif connection and option == "*":
        coloured = [c for c in between if gained(c)]
        missed = [c for c in between if not gained(c) and before.tiles[c] != me]
        out.append(_connection(frm, to, me, coloured, who, open_choices.effect_kind == "either", missed))
    elif connection:
        f = CELL_NAMES[frm]
        out.append(
            Effect(
                "connection_not_taken",
                {"from": f, "to": t},
                f"connection {f}–{t} not taken: the border marker is chosen instead",
            )
        )
    if crossing and option is not None and option != "*":
        out.append(_border(before, land, option, me, short(CELL_INDEX[option]), who))
    elif crossing and not [e for e in open_choices.effects if e != "*"]:
        out.append(Effect("border_unchanged", {"land": land}, f"borderland {land} has no field to change"))
    if meeting is not None:
        partner = CELL_NAMES[NEIGHBOUR[to][d]]
        ran_out = short(CELL_INDEX[meeting])
        out.append(
            Effect(
                "meeting",
                {"field": t, "partner": partner, "cell": meeting, "seat": me, "supply_ran_out": ran_out},
                f"meeting on {t} with the chevron on {partner}: {meeting} changes to {mine}'s colour"
                + (_SHORT if ran_out else ""),
            )
        )
    return out


def _pincer(before: State, to: int, me: int, short: bool, who: Callable[[int], str]) -> Effect:
    t = CELL_NAMES[to]
    victim = before.occ[to] >> 3
    takes = before.tiles[to] != me
    ran_out = takes and short
    text = f"pincer on {t}: {who(victim)}'s chevron is removed"
    if takes:
        text += f" and {t} takes {who(me)}'s colour" + (_SHORT if ran_out else "")
    params: Params = {
        "field": t,
        "victim": victim,
        "seat": me,
        "takes_colour": takes,
        "supply_ran_out": ran_out,
    }
    return Effect("pincer", params, text)


def _border(
    before: State, land: str, option: str, me: int, ran_out: bool, who: Callable[[int], str]
) -> Effect:
    """The borderland change (a neutral field) or transformation (another colour) chosen."""
    was = before.tiles[CELL_INDEX[option]]
    tail = _SHORT if ran_out else ""
    if was == 0:
        return Effect(
            "border_marker",
            {"land": land, "field": option, "seat": me, "supply_ran_out": ran_out},
            f"borderland change in {land}: marker on {option}{tail}",
        )
    return Effect(
        "border_transformation",
        {"land": land, "field": option, "owner": was, "seat": me, "supply_ran_out": ran_out},
        f"borderland transformation in {land}: {option} changes from {who(was)}'s colour "
        f"to {who(me)}'s{tail}",
    )


def _marking_move(before: State, after: State, parsed: Parsed, who: Callable[[int], str]) -> list[Effect]:
    """Shacru and Azacru: arrival marker, connection change or jump, twist."""
    me = before.to_move
    frm, to = parsed.frm, parsed.to
    head, d, k, crossing = _travel(frm, to, False)
    out = [head]
    t = CELL_NAMES[to]
    between = RAYS[frm][d][: k - 1]
    jumped = [c for c in between if before.occ[c] >= 0]
    removed = after.occ[to] < 0
    if k > 1 and before.tiles[frm] == me and before.tiles[to] == me:
        if jumped:
            out.append(_jump(frm, to, jumped))
        else:
            out.append(_connection(frm, to, me, [c for c in between if before.tiles[c] != me], who))
    if before.tiles[to] == 0:
        out.append(Effect("marker", {"field": t, "seat": me}, f"marker on {t}"))
    if removed:
        owners = sorted({before.tiles[c] for c in between if before.tiles[c] not in (0, me)})
        colours = " and ".join(f"{who(s)}'s" for s in owners)
        out.append(
            Effect(
                "chevron_leaves",
                {"field": t, "seats": owners},
                f"the chevron leaves the board: the connection passed over {colours} colour",
            )
        )
    elif crossing and parsed.twist is not None:
        facing = DIRECTION_NAMES[after.occ[to] & 7]
        if parsed.twist:
            out.append(Effect("twist", {"field": t, "facing": facing}, f"twist to {facing}"))
        else:
            out.append(Effect("no_twist", {"field": t, "facing": facing}, f"no twist: keeps facing {facing}"))
    return out


def _reorientation(after: State, parsed: Parsed) -> Effect:
    cell = parsed.frm
    turn = parsed.turn
    facing = DIRECTION_NAMES[after.occ[cell] & 7]
    sense = "clockwise" if turn > 0 else "counter-clockwise"
    cost = 2 * abs(turn)
    params: Params = {
        "field": CELL_NAMES[cell],
        "degrees": 45 * abs(turn),
        "sense": sense,
        "facing": facing,
        "cost": cost,
        "paid": list(parsed.tokens),
    }
    return Effect(
        "reorient",
        params,
        f"{CELL_NAMES[cell]}: reorients {45 * abs(turn)}° {sense} to face {facing}, "
        f"paying {cost} markers ({', '.join(parsed.tokens)})",
    )


#: Why a game ended without a target or a last player standing, by the engine's end reason.
_WHY = {
    "ply-limit": "the ply limit of {limit} is reached",
    "no-progress": "too many plies without a new marker",
    "no-moves": "nobody can move",
    "no-gain": "nobody can gain another marker",
    "end-trigger": "the final turns are played",
}


def _ending(after: State, who: Callable[[int], str]) -> Effect:
    winner = after.winner
    reason = after.end_reason
    if reason == "target":
        assert winner is not None
        return Effect(
            "target_reached",
            {"seat": winner, "target": after.target},
            f"{who(winner)} reaches the marker target of {after.target}: the game ends, {who(winner)} wins",
        )
    if reason == "last-standing":
        if winner is None:
            return Effect("nobody_left", {}, "nobody is left: the game ends")
        return Effect(
            "last_standing",
            {"seat": winner},
            f"only {who(winner)} is left in: the game ends, {who(winner)} wins",
        )
    why = _WHY.get(reason or "", "the game is over").format(limit=after.ply_limit)
    params: Params = {"reason": reason, "ply_limit": after.ply_limit}
    if winner is None:
        return Effect("ended_without_winner", params, f"{why}: the game ends without a single winner")
    return Effect(
        "ended_on_markers", {**params, "seat": winner}, f"{why}: the game ends, {who(winner)} wins on markers"
    )


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
