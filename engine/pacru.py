"""Pacru (RULES §6): long moves, connections, border effects, pincers, meetings,
reorientation, blocked elimination and the marker supply."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .board import (
    BORDERLAND,
    BORDERLAND_CELLS,
    CELL_COUNT,
    CELL_INDEX,
    CELL_NAMES,
    FORWARD,
    NEIGHBOUR,
    RAYS,
    borderland_name,
    parse_cell,
)
from .errors import IllegalMove, InvalidPosition, Params
from .explain import explain_unlisted
from .notation import TURN_SYMBOLS, Parsed, move_text, parse, with_effects
from .state import CONNECTION, JUMP, PINCER, PLAIN, Move, MoveChoices, ReorientChoices, State

#: Marker supply, which is also the target, by number of players (RULES 6.6).
SUPPLY = {2: 42, 3: 28, 4: 24}
#: The Pacru editions (RULES §6); a table without one plays the default.
EDITIONS = ("302", "2011")
DEFAULT_EDITION = "302"
#: Edition "2011": a meeting counts only when an opponent has this many markers.
MEETING_THRESHOLD_2011 = 9


def power(tiles: list[int], cell: int, seat: int) -> int:
    """Power of movement of a chevron of ``seat`` standing on ``cell`` (min 1)."""
    n = 0
    for c in BORDERLAND_CELLS[BORDERLAND[cell]]:
        if tiles[c] == seat:
            n += 1
    return n or 1


def generate(tiles: list[int], occ: list[int], seat: int) -> list[Move]:
    """Every legal Pacru base move of ``seat`` as ``(from, to, dir, k, kind)``.

    One pass over each chevron's three rays finds ordinary moves, connection
    changes and jumps, and which opponent chevrons it attacks; pincers are the
    attacked chevrons with two or more attackers.
    """
    moves: list[Move] = []
    attacks: dict[int, list[Move]] = {}
    for frm in range(CELL_COUNT):
        o = occ[frm]
        if o < 0 or o >> 3 != seat:
            continue
        reach = power(tiles, frm, seat)
        from_own = tiles[frm] == seat
        rays = RAYS[frm]
        for d in FORWARD[o & 7]:
            ray = rays[d]
            blocked = False
            k = 0
            for to in ray[:reach]:
                k += 1
                target = occ[to]
                if target >= 0:
                    if not blocked:
                        if target >> 3 != seat:
                            attacks.setdefault(to, []).append((frm, to, d, k, PINCER))
                        blocked = True
                        if not from_own:
                            break
                    continue
                t = tiles[to]
                if not blocked:
                    if t == 0:
                        moves.append((frm, to, d, k, PLAIN))
                    elif t == seat:
                        moves.append((frm, to, d, k, CONNECTION if k > 1 and from_own else PLAIN))
                elif t == seat and k > 1:
                    moves.append((frm, to, d, k, JUMP))
    for attackers in attacks.values():
        if len(attackers) >= 2:
            moves.extend(attackers)
    return moves


def _border_cells(tiles: list[int], occ: list[int], to: int, seat: int) -> tuple[str, list[int]]:
    """The border effect on arriving at ``to`` (RULES 6.3 step 4): kind and eligible cells."""
    cells = BORDERLAND_CELLS[BORDERLAND[to]]
    for c in cells:
        if tiles[c] == 0:
            return "change", [c for c in cells if tiles[c] == 0 and (occ[c] < 0 or c == to)]
    return "transformation", [c for c in cells if occ[c] < 0 and tiles[c] != seat]


class PacruState(State):
    """A Pacru position."""

    game = "pacru"
    has_editions = True
    has_reorientation = True
    notation_examples = ("a3-b4(c5)",)
    __slots__ = ()

    def power(self, cell: int, seat: int) -> int:
        """Its owner's markers in the chevron's borderland, at least 1 (RULES 6.1)."""
        return power(self.tiles, cell, seat)

    @property
    def supply(self) -> int:
        return SUPPLY[self.players]

    @classmethod
    def target_for(cls, players: int) -> int | None:
        return SUPPLY[players]

    def _ranked_winner(self) -> int | None:
        return self._winner

    def _load_extra(self, position: dict[str, Any]) -> None:
        for key in ("plies_without_progress", "end_triggered_by", "final_turns_left"):
            if key in position:
                raise InvalidPosition(f"{key} is not a Pacru key")
        for seat in self.seats:
            if self.counts[seat] > self.supply:
                raise InvalidPosition(
                    f"seat {seat} has {self.counts[seat]} markers, more than the supply of {self.supply}"
                )
            if seat not in self._eliminated and not self._cells_of(seat):
                raise InvalidPosition(f"seat {seat} has no chevrons but is not eliminated")

    # ------------------------------------------------------------ generation
    def _legal(self) -> list[Move]:
        if self._moves is None:
            self._moves = generate(self.tiles, self.occ, self.to_move)
        return self._moves

    def base_moves(self) -> list[str]:
        """Every legal ``F-T`` / ``FxT`` of the player on turn, sorted, without effects."""
        if self._over:
            return []
        return sorted(move_text(m[0], m[1], m[4] == PINCER) for m in self._legal())

    def _find(self, frm: int, to: int, text: str) -> Move:
        for m in self._legal():
            if m[0] == frm and m[1] == to:
                return m
        raise explain_unlisted(self, frm, to, text)

    # --------------------------------------------------------------- effects
    def _steps_1_2(self, move: Move) -> tuple[list[int], list[int], list[int]]:
        """Board after moving and a pincer (uncapped) and the cells changed so far."""
        frm, to, d, _k, kind = move
        me = self.to_move
        tiles = self.tiles[:]
        occ = self.occ[:]
        occ[frm] = -1
        occ[to] = me << 3 | d
        changes: list[int] = []
        if kind == PINCER:
            changes.append(to)
            tiles[to] = me
        return tiles, occ, changes

    def _effect_options(self, move: Move, tiles: list[int], occ: list[int]) -> tuple[str | None, list[str]]:
        """The effect decision of steps 3–5: its kind and options ('*' and/or cells)."""
        frm, to, _d, _k, kind = move
        crossing = BORDERLAND[frm] != BORDERLAND[to]
        border_kind, cells = _border_cells(tiles, occ, to, self.to_move) if crossing else (None, [])
        names = sorted(CELL_NAMES[c] for c in cells)
        if kind == CONNECTION:
            return ("either" if names else "connection"), ["*", *names]
        return (border_kind if names else None), names

    def _apply_effect(self, move: Move, option: str | None, tiles: list[int], changes: list[int]) -> None:
        if option is None:
            return
        me = self.to_move
        if option == "*":
            frm, _to, d, k, _kind = move
            for c in RAYS[frm][d][: k - 1]:
                changes.append(c)
                tiles[c] = me
        else:
            cell = CELL_INDEX[option]
            changes.append(cell)
            tiles[cell] = me

    def _meeting_cells(self, move: Move, tiles: list[int], occ: list[int]) -> list[int]:
        """Fields a meeting may change after steps 1–5 (empty when there is none)."""
        _frm, to, d, _k, _kind = move
        me = self.to_move
        if tiles[to] != me:
            return []
        partner = NEIGHBOUR[to][d]
        if partner < 0:
            return []
        o = occ[partner]
        if o < 0 or o >> 3 != me or o & 7 != (d + 4) % 8 or tiles[partner] != me:
            return []
        if self.edition == "2011" and not any(
            tiles.count(s) >= MEETING_THRESHOLD_2011 for s in self.seats if s != me
        ):
            return []
        return [c for c in range(CELL_COUNT) if occ[c] < 0 and tiles[c] != me]

    def choices(self, move: str) -> MoveChoices:
        parsed = self._parse_base(move)
        m = self._find(parsed.frm, parsed.to, move)
        tiles, occ, changes = self._steps_1_2(m)
        effect_kind, options = self._effect_options(m, tiles, occ)
        meetings: dict[str | None, tuple[str, ...]] = {}
        option: str | None
        for option in options or (None,):
            t2 = tiles[:]
            self._apply_effect(m, option, t2, changes[:])
            cells = self._meeting_cells(m, t2, occ)
            meetings[option] = tuple(sorted(CELL_NAMES[c] for c in cells))
        return MoveChoices(
            move=move_text(m[0], m[1], m[4] == PINCER),
            effects=tuple(options),
            effect_kind=effect_kind,
            meetings=meetings,
        )

    def _parse_base(self, move: str) -> Parsed:
        if self._over:
            raise IllegalMove(f"{move}: the game is over", "game_over", {"move": move})
        parsed = parse(move)
        if parsed.kind != "move":
            raise IllegalMove(
                f"{move!r} is not a base move such as e1-e2 or d9xd6", "not_a_base_move", {"move": move}
            )
        return parsed

    # ---------------------------------------------------------------- play
    def _play_parsed(self, parsed: Parsed, text: str) -> State:
        if parsed.kind == "pass":
            raise IllegalMove("there is no passing in Pacru: move or reorient a chevron", "no_passing")
        if parsed.kind == "reorient":
            return self._reorient(parsed, text)
        if parsed.twist is not None:
            raise IllegalMove(
                f"{text}: Pacru has no twist after a border crossing", "no_twist_in_pacru", {"move": text}
            )
        move = self._find(parsed.frm, parsed.to, text)
        base = move_text(move[0], move[1], move[4] == PINCER)
        tokens = list(parsed.tokens)
        tiles, occ, changes = self._steps_1_2(move)
        effect_kind, options = self._effect_options(move, tiles, occ)
        option = self._decide(tokens, options, lambda: self._effect_prompt(move, effect_kind, options))
        self._apply_effect(move, option, tiles, changes)
        meeting_cells = self._meeting_cells(move, tiles, occ)
        meeting_names = sorted(CELL_NAMES[c] for c in meeting_cells)
        meeting = self._decide(
            tokens,
            meeting_names,
            lambda: IllegalMove(
                f"{base} makes a meeting: choose one field to change to your colour "
                f"(any field without a chevron that is not yours)",
                "choose_meeting",
                {"move": base, "options": meeting_names},
            ),
        )
        if tokens:
            raise self._unexpected(text, tokens, bool(options or meeting_names))
        if meeting is not None:
            changes.append(CELL_INDEX[meeting])
        chosen = [c for c in (option, meeting) if c is not None]
        return self._apply(move, changes, with_effects(base, chosen))

    @staticmethod
    def _unexpected(text: str, tokens: list[str], choices: bool) -> IllegalMove:
        """Tokens left in the parentheses once every decision of the move is taken."""
        listed = ",".join(tokens)
        if choices:
            return IllegalMove(
                f"{text}: unexpected {listed} in the parentheses",
                "unexpected_tokens",
                {"move": text, "tokens": tokens},
            )
        return IllegalMove(
            f"{text}: unexpected {listed} in the parentheses (this move has no choice to make)",
            "no_choice_to_make",
            {"move": text, "tokens": tokens},
        )

    @staticmethod
    def _decide(tokens: list[str], options: list[str], question: Callable[[], IllegalMove]) -> str | None:
        """Take the next token if it answers this decision, fill in a forced one; else refuse
        with the ``question`` (whose ``move`` is the base move; built only when asked)."""
        if not options:
            return None
        if tokens and tokens[0] in options:
            return tokens.pop(0)
        if len(options) == 1:
            return options[0]
        prompt = question()
        if tokens:
            base = prompt.params["move"]
            raise IllegalMove(
                f"{base}: {tokens[0]} is not a valid choice. {prompt}",
                "not_a_valid_choice",
                {**prompt.params, "choice": tokens[0], "prompt": prompt.code},
            )
        raise prompt

    @staticmethod
    def _effect_prompt(move: Move, kind: str | None, options: list[str]) -> IllegalMove:
        frm, to = CELL_NAMES[move[0]], CELL_NAMES[move[1]]
        base = f"{frm}{'x' if move[4] == PINCER else '-'}{to}"
        land = borderland_name(move[1])
        fields = [o for o in options if o != "*"]
        cells = ", ".join(fields)
        params: Params = {"move": base, "land": land, "options": fields}
        if kind == "either":
            return IllegalMove(
                f"{base} is a connection and crosses a border: choose (*) or one cell of "
                f"borderland {land} ({cells})",
                "choose_effect",
                params,
            )
        if kind == "change":
            return IllegalMove(
                f"{base} crosses into borderland {land}: choose a neutral field for your marker ({cells})",
                "choose_border_marker",
                params,
            )
        return IllegalMove(
            f"{base} crosses into borderland {land}, which has no neutral field: choose a "
            f"field of another colour to transform ({cells})",
            "choose_transformation",
            params,
        )

    def _apply(self, move: Move, changes: list[int], notation: str) -> PacruState:
        """Commit a validated move whose field changes are listed in order."""
        frm, to, d, _k, kind = move
        me = self.to_move
        new = self._child()
        assert isinstance(new, PacruState)
        tiles, counts, occ = new.tiles, new.counts, new.occ
        victim = occ[to] >> 3 if kind == PINCER else 0
        occ[frm] = -1
        occ[to] = me << 3 | d
        supply = SUPPLY[self.players]
        for c in changes:
            old = tiles[c]
            if old == me:
                continue
            if counts[me] >= supply:
                break
            if old:
                counts[old] -= 1
            tiles[c] = me
            counts[me] += 1
        eliminations: list[tuple[int, str]] = []
        if victim and not any(o >= 0 and o >> 3 == victim for o in occ):
            new._eliminated = (*new._eliminated, victim)
            eliminations.append((victim, "captured"))
        new.ply += 1
        new.last_move = notation
        new._end_turn(me, eliminations)
        return new

    def _reorient(self, parsed: Parsed, text: str) -> PacruState:
        me = self.to_move
        cell = parsed.frm
        o = self.occ[cell]
        name = CELL_NAMES[cell]
        if o < 0 or o >> 3 != me:
            raise IllegalMove(
                f"{text}: there is no chevron of yours on {name} to reorient",
                "no_chevron_to_reorient",
                {"move": text, "field": name},
            )
        cost = 2 * abs(parsed.turn)
        removable = self._removable()
        degrees = 45 * abs(parsed.turn)
        if len(removable) < cost:
            raise IllegalMove(
                f"{text}: turning {degrees}° costs {cost} of your markers on fields "
                f"without a chevron and you have {len(removable)}",
                "reorient_cost",
                {"move": text, "degrees": degrees, "cost": cost, "have": len(removable)},
            )
        removed = [CELL_INDEX[t] for t in parsed.tokens if t != "*"]
        if len(removed) != len(parsed.tokens) or len(set(removed)) != len(removed):
            raise IllegalMove(
                f"{text}: list {cost} different fields of your colour to remove",
                "reorient_list",
                {"move": text, "cost": cost},
            )
        if len(removed) != cost:
            if not removed and len(removable) == cost:
                removed = list(removable)
            else:
                named = ",".join(sorted(CELL_NAMES[c] for c in removable)[:cost])
                example = f"{name}{TURN_SYMBOLS[parsed.turn]}({named})"
                raise IllegalMove(
                    f"{text}: turning {degrees}° removes exactly {cost} of your markers; "
                    f"name them, e.g. {example}",
                    "reorient_name",
                    {"move": text, "degrees": degrees, "cost": cost, "example": example},
                )
        for c in removed:
            if c not in removable:
                held = self.occ[c] >= 0
                why = "holds a chevron" if held else "is not your colour"
                raise IllegalMove(
                    f"{text}: {CELL_NAMES[c]} {why}, so its marker cannot be removed",
                    "marker_holds_chevron" if held else "marker_not_yours",
                    {"move": text, "field": CELL_NAMES[c]},
                )
        new = self._child()
        assert isinstance(new, PacruState)
        for c in removed:
            new.tiles[c] = 0
        new.counts[me] -= cost
        new.occ[cell] = me << 3 | ((o & 7) + parsed.turn) % 8
        new.ply += 1
        new.last_move = with_effects(name + TURN_SYMBOLS[parsed.turn], sorted(CELL_NAMES[c] for c in removed))
        new._end_turn(me, [])
        return new

    def _removable(self) -> list[int]:
        me, tiles, occ = self.to_move, self.tiles, self.occ
        return [c for c in range(CELL_COUNT) if tiles[c] == me and occ[c] < 0]

    def reorientations(self, cell: str) -> ReorientChoices:
        c = parse_cell(cell)
        o = self.occ[c]
        if self._over or o < 0 or o >> 3 != self.to_move:
            raise IllegalMove(
                f"there is no chevron of the player on turn on {CELL_NAMES[c]}",
                "no_chevron_on_turn",
                {"field": CELL_NAMES[c]},
            )
        removable = self._removable()
        turns = tuple(t for t in ("<", ">", "<<", ">>") if len(removable) >= 2 * len(t))
        return ReorientChoices(CELL_NAMES[c], turns, tuple(sorted(CELL_NAMES[x] for x in removable)))

    # ------------------------------------------------------- turn options
    def _base_choices(self, bases: list[str]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for base in bases:
            c = self.choices(base)
            entry: dict[str, Any] = {"effects": list(c.effects), "effect_kind": c.effect_kind}
            meetings = {str(k): list(v) for k, v in c.meetings.items() if v}
            if meetings:
                entry["meetings"] = meetings
            out[base] = entry
        return out

    def _reorient_options(self) -> dict[str, Any] | None:
        cells = [CELL_NAMES[cell] for cell, _, _ in self.chevrons(self.to_move)]
        if not cells:
            return None
        options = self.reorientations(cells[0])
        if not options.turns:
            return None
        payments = {t: self.cheapest_payment(options.removable, 2 * len(t)) for t in options.turns}
        return {
            "cells": cells,
            "turns": list(options.turns),
            "removable": list(options.removable),
            "payments": payments,
        }

    def cheapest_payment(self, removable: tuple[str, ...], need: int) -> list[str]:
        """``need`` of the ``removable`` markers whose loss costs the mover's chevrons the least power.

        A suggestion only (RULES 6.4: the player chooses): pages offer it so that a reorientation
        can be confirmed at once, and ask the engine because power is the engine's rule. Power
        counts borderland by borderland, so the choice is made per borderland (the first found
        wins a tie, reading the markers in field order); ``[]`` when too few are removable.
        """
        me = self.to_move
        lands: dict[int, list[str]] = {}
        for name in sorted(removable):
            lands.setdefault(BORDERLAND[CELL_INDEX[name]], []).append(name)
        best: dict[int, tuple[int, list[str]]] = {0: (0, [])}  # k markers: the cheapest found
        for land, names in lands.items():
            here = BORDERLAND_CELLS[land]
            mine = sum(1 for c in here if self.tiles[c] == me)
            chevrons = sum(1 for c in here if self.occ[c] >= 0 and self.occ[c] >> 3 == me)
            found = dict(best)
            for k, (cost, picked) in sorted(best.items()):
                for j in range(1, min(len(names), need - k) + 1):
                    total = cost + chevrons * (max(1, mine) - max(1, mine - j))
                    if k + j not in found or total < found[k + j][0]:
                        found[k + j] = (total, picked + names[:j])
            best = found
        return best[need][1] if need in best else []

    # -------------------------------------------------------- turn and end
    def _end_turn(self, mover: int, eliminations: list[tuple[int, str]]) -> None:
        """After a move or reorientation: win checks, then the next player."""
        if self.counts[mover] >= SUPPLY[self.players]:
            self._finish(mover, "target")
        elif len(self.active_seats) == 1:
            self._finish(self.active_seats[0], "last-standing")
        elif self.ply >= self.ply_limit:
            self._finish(None, "ply-limit")
        if self._over:
            self.to_move = self._next_seat(mover)
        else:
            self._advance(self._next_seat(mover), eliminations)
        self.last_eliminations = tuple(eliminations)

    def _advance(self, seat: int, eliminations: list[tuple[int, str]]) -> None:
        """Put ``seat`` on turn, eliminating blocked players in cascade (RULES 6.5)."""
        while True:
            moves = generate(self.tiles, self.occ, seat)
            if moves:
                self.to_move = seat
                self._moves = moves
                return
            self._remove_player(seat)
            eliminations.append((seat, "blocked"))
            active = self.active_seats
            if len(active) == 1:
                self.to_move = active[0]
                self._finish(active[0], "last-standing")
                return
            seat = self._next_seat(seat)

    def _after_elimination(self, seat: int) -> None:
        eliminations = list(self.last_eliminations)
        active = self.active_seats
        if len(active) == 1:
            self.to_move = active[0]
            self._finish(active[0], "last-standing")
        else:
            start = self._next_seat(seat) if self.to_move == seat else self.to_move
            self._advance(start, eliminations)
        self.last_eliminations = tuple(eliminations)

    def _settle(self) -> None:
        for seat in self.seats:
            if self.counts[seat] >= self.supply:
                self._finish(seat, "target")
                return
        active = self.active_seats
        if len(active) == 1:
            self._finish(active[0], "last-standing")
        elif self.ply >= self.ply_limit:
            self._finish(None, "ply-limit")
        else:
            eliminations: list[tuple[int, str]] = []
            self._advance(self.to_move, eliminations)
            self.last_eliminations = tuple(eliminations)
