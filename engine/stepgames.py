"""Shacru (RULES §4) and Azacru (RULES §5): the marking games.

Both place a marker on every neutral field a chevron arrives at, allow a
border twist, and are ranked by markers on the board. Azacru adds power of
movement, long moves, connection changes and jumps, and its own end trigger.
"""

from __future__ import annotations

from typing import Any

from .board import BORDERLAND, CELL_COUNT, FORWARD, NEIGHBOUR, RAYS
from .errors import IllegalMove, InvalidPosition
from .explain import explain_unlisted
from .notation import TWIST_SYMBOLS, Parsed, move_text, parse
from .pacru import power
from .state import CONNECTION, JUMP, PLAIN, Move, MoveChoices, State

#: An Azacru connection change over another player's colour: the chevron leaves the board.
REMOVED = 4
#: Twist value of a move that takes none (no border crossing, or chevron removed).
NO_TWIST = 9
#: The no-progress rule: this many rounds without a marker placed end the game.
NO_PROGRESS_ROUNDS = 20


def generate(tiles: list[int], occ: list[int], seat: int, long_moves: bool) -> list[Move]:
    """Complete moves ``(from, to, dir, k, kind, twist)`` of ``seat``."""
    moves: list[Move] = []
    for frm in range(CELL_COUNT):
        o = occ[frm]
        if o < 0 or o >> 3 != seat:
            continue
        reach = power(tiles, frm, seat) if long_moves else 1
        from_own = tiles[frm] == seat
        land = BORDERLAND[frm]
        for d in FORWARD[o & 7]:
            ray = RAYS[frm][d]
            blocked = False
            k = 0
            for to in ray[:reach]:
                k += 1
                if occ[to] >= 0:
                    blocked = True
                    if not from_own:
                        break
                    continue
                t = tiles[to]
                if not blocked:
                    if t == 0:
                        kind = PLAIN
                    elif t == seat:
                        kind = PLAIN
                        if k > 1 and from_own:
                            kind = CONNECTION
                            for c in ray[: k - 1]:
                                if tiles[c] and tiles[c] != seat:
                                    kind = REMOVED
                                    break
                    else:
                        continue
                elif t == seat and k > 1:
                    kind = JUMP
                else:
                    continue
                if kind != REMOVED and BORDERLAND[to] != land:
                    moves.append((frm, to, d, k, kind, -1))
                    moves.append((frm, to, d, k, kind, 0))
                    moves.append((frm, to, d, k, kind, 1))
                else:
                    moves.append((frm, to, d, k, kind, NO_TWIST))
    return moves


def move_string(m: Move) -> str:
    text = move_text(m[0], m[1], False)
    return text if m[5] == NO_TWIST else text + TWIST_SYMBOLS[m[5]]


class ShacruState(State):
    """A Shacru position: one field per move, unlimited markers."""

    game = "shacru"
    long_moves = False
    has_twist = True
    notation_examples = ("a3-b4>", "e1-e2")
    __slots__ = ()

    def power(self, cell: int, seat: int) -> int:
        """Shacru: always 1; Azacru (long moves): its owner's markers in its borderland, at least 1."""
        return power(self.tiles, cell, seat) if self.long_moves else 1

    def _load_extra(self, position: dict[str, Any]) -> None:
        for key in ("end_triggered_by", "final_turns_left"):
            if key in position:
                raise InvalidPosition(f"{key} is an Azacru key")
        self.plies_without_progress = position.get("plies_without_progress", 0)

    def to_dict(self) -> dict[str, Any]:
        doc = super().to_dict()
        doc["plies_without_progress"] = self.plies_without_progress
        return doc

    # ------------------------------------------------------------ generation
    def _legal(self) -> list[Move]:
        if self._moves is None:
            self._moves = generate(self.tiles, self.occ, self.to_move, self.long_moves)
        return self._moves

    def base_moves(self) -> list[str]:
        """Every complete legal move (twists included), sorted; ``["pass"]`` if none."""
        if self._over:
            return []
        moves = self._legal()
        if not moves:
            return ["pass"]
        return sorted(move_string(m) for m in moves)

    def legal_moves(self) -> list[str]:
        """Every complete legal move: the same as :meth:`base_moves` in these games."""
        return self.base_moves()

    def choices(self, move: str) -> MoveChoices:
        parsed = parse(move)
        if self._over:
            raise IllegalMove(f"{move}: the game is over", "game_over", {"move": move})
        if parsed.kind != "move":
            raise IllegalMove(
                f"{move!r} is not a chevron move such as c3-d4", "not_a_chevron_move", {"move": move}
            )
        found = [m for m in self._legal() if m[0] == parsed.frm and m[1] == parsed.to]
        if not found:
            raise explain_unlisted(self, parsed.frm, parsed.to, move)
        twists = tuple(TWIST_SYMBOLS[m[5]] for m in found if m[5] != NO_TWIST)
        order = {"^": 0, "<": 1, ">": 2}
        return MoveChoices(
            move=move_text(parsed.frm, parsed.to, False),
            twists=tuple(sorted(twists, key=order.__getitem__)),
        )

    # ---------------------------------------------------------------- play
    def _play_parsed(self, parsed: Parsed, text: str) -> State:
        moves = self._legal()
        if parsed.kind == "pass":
            if moves:
                raise IllegalMove("you may pass only when none of your chevrons can move", "pass_not_allowed")
            return self._apply(None)
        if parsed.kind == "reorient":
            raise IllegalMove(
                f"{text}: there is no reorientation in {self.game.capitalize()}",
                "no_reorientation",
                {"move": text, "game": self.game},
            )
        if parsed.tokens or parsed.capture:
            raise IllegalMove(
                f"{text}: {self.game.capitalize()} moves have no effects or pincers; "
                f"write F-T with a twist ^ < > after a border crossing",
                "no_effects",
                {"move": text, "game": self.game},
            )
        found = [m for m in moves if m[0] == parsed.frm and m[1] == parsed.to]
        if not found:
            raise explain_unlisted(self, parsed.frm, parsed.to, text)
        if found[0][5] == NO_TWIST:
            if parsed.twist not in (None, 0):
                raise IllegalMove(
                    f"{text}: a twist is allowed only after a border crossing",
                    "twist_not_allowed",
                    {"move": text},
                )
            return self._apply(found[0])
        if parsed.twist is None:
            base = move_text(parsed.frm, parsed.to, False)
            raise IllegalMove(
                f"{text}: the move crosses a border: add ^ (keep facing), < (turn 45° "
                f"counter-clockwise) or > (clockwise), e.g. {base}^",
                "twist_required",
                {"move": text, "example": f"{base}^"},
            )
        for m in found:
            if m[5] == parsed.twist:
                return self._apply(m)
        raise IllegalMove(f"{text} is not a legal move", "unlisted_twist", {"move": text})  # pragma: no cover

    def _apply(self, move: Move | None) -> State:
        me = self.to_move
        new = self._child()
        assert isinstance(new, ShacruState)
        placed = False
        if move is not None:
            frm, to, d, k, kind, twist = move
            tiles, counts, occ = new.tiles, new.counts, new.occ
            occ[frm] = -1
            if kind in (CONNECTION, REMOVED):
                for c in RAYS[frm][d][: k - 1]:
                    old = tiles[c]
                    if old != me:
                        if old:
                            counts[old] -= 1
                        tiles[c] = me
                        counts[me] += 1
                        placed = True
            if tiles[to] == 0:
                tiles[to] = me
                counts[me] += 1
                placed = True
            if kind != REMOVED:
                occ[to] = me << 3 | (d + (0 if twist == NO_TWIST else twist)) % 8
        new.ply += 1
        new.last_move = "pass" if move is None else move_string(move)
        new.plies_without_progress = 0 if placed else new.plies_without_progress + 1
        new._end_turn(me, passed=move is None)
        return new

    # -------------------------------------------------------- turn and end
    def _end_turn(self, mover: int, passed: bool) -> None:
        self.to_move = self._next_seat(mover)
        self._check_end()

    def _check_end(self) -> None:
        active = self.active_seats
        if len(active) <= 1:
            self._finish(active[0] if active else None, "last-standing")
        elif self.ply >= self.ply_limit:
            self._finish(None, "ply-limit")
        elif self.plies_without_progress >= NO_PROGRESS_ROUNDS * len(active):
            self._finish_by_markers("no-progress")
        else:
            self._check_specific_end(active)

    def _check_specific_end(self, active: list[int]) -> None:
        """Shacru S-R6: nobody can move, or nobody can gain another marker."""
        if not any(self._has_move(s) for s in active):
            self._finish_by_markers("no-moves")
        elif not any(self.can_gain(s) for s in active):
            self._finish_by_markers("no-gain")

    def _finish_by_markers(self, reason: str) -> None:
        self._over = True
        ranks = self.ranking()
        top = [s for s, r in ranks.items() if r == 1]
        self._finish(top[0] if len(top) == 1 else None, reason)

    def _has_move(self, seat: int) -> bool:
        tiles, occ = self.tiles, self.occ
        for frm in range(CELL_COUNT):
            o = occ[frm]
            if o >= 0 and o >> 3 == seat:
                for d in FORWARD[o & 7]:
                    to = NEIGHBOUR[frm][d]
                    if to >= 0 and occ[to] < 0 and tiles[to] in (0, seat):
                        return True
        return False

    def can_gain(self, seat: int) -> bool:
        """Whether some chevron of ``seat`` can still reach a neutral field (RULES §4).

        Search over (field, facing) by Shacru steps over fields of the seat's
        colour, twists included, ignoring every chevron.
        """
        tiles = self.tiles
        seen = bytearray(CELL_COUNT * 8)
        stack: list[int] = []
        for frm in range(CELL_COUNT):
            o = self.occ[frm]
            if o >= 0 and o >> 3 == seat:
                key = frm * 8 + (o & 7)
                if not seen[key]:
                    seen[key] = 1
                    stack.append(key)
        while stack:
            key = stack.pop()
            cell, facing = divmod(key, 8)
            for d in FORWARD[facing]:
                nxt = NEIGHBOUR[cell][d]
                if nxt < 0:
                    continue
                colour = tiles[nxt]
                if colour == 0:
                    return True
                if colour != seat:
                    continue
                turns = (d - 1, d, d + 1) if BORDERLAND[nxt] != BORDERLAND[cell] else (d,)
                for f in turns:
                    k2 = nxt * 8 + f % 8
                    if not seen[k2]:
                        seen[k2] = 1
                        stack.append(k2)
        return False

    def _after_elimination(self, seat: int) -> None:
        if self.to_move == seat:
            self.to_move = self._next_seat(seat)
        self._check_end()

    def _settle(self) -> None:
        self._check_end()


class AzacruState(ShacruState):
    """An Azacru position: Shacru plus power of movement, long moves and connections."""

    game = "azacru"
    long_moves = True
    __slots__ = ()

    def _load_extra(self, position: dict[str, Any]) -> None:
        self.plies_without_progress = position.get("plies_without_progress", 0)
        trigger = position.get("end_triggered_by")
        if trigger is not None and trigger not in self.seats:
            raise InvalidPosition(f"end_triggered_by must be a seat 1…{self.players} or null")
        self.end_triggered_by = trigger
        self.final_turns_left = position.get("final_turns_left", 0)
        if trigger is None and self.final_turns_left:
            raise InvalidPosition("final_turns_left is set but the end is not triggered")

    def to_dict(self) -> dict[str, Any]:
        doc = super().to_dict()
        doc["end_triggered_by"] = self.end_triggered_by
        doc["final_turns_left"] = self.final_turns_left
        return doc

    def _end_turn(self, mover: int, passed: bool) -> None:
        if self.end_triggered_by is None:
            if passed:
                self.end_triggered_by = mover
                self.final_turns_left = len(self.active_seats) - 1
        else:
            self.final_turns_left -= 1
        super()._end_turn(mover, passed)

    def _check_specific_end(self, active: list[int]) -> None:
        """Azacru A-R10: the end is triggered and every final turn is played."""
        if self.end_triggered_by is not None and self.final_turns_left <= 0:
            self._finish_by_markers("end-trigger")

    def _after_elimination(self, seat: int) -> None:
        if self.end_triggered_by is None:
            # Resigning or running out of time triggers the end (RULES §7).
            self.end_triggered_by = seat
            self.final_turns_left = len(self.active_seats)
        else:
            # The seat loses its final turn if it had not played it yet.
            pending, s = [], self.to_move
            for _ in range(self.players):
                if s == seat or s not in self._eliminated:
                    pending.append(s)
                s = s % self.players + 1
            if seat in pending[: self.final_turns_left]:
                self.final_turns_left -= 1
        super()._after_elimination(seat)
