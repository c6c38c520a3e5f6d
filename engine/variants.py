"""The registry of the three games, and building states: :func:`new_game`, :func:`load`.

Every fact a caller needs about a game as such (its label, its editions, the
markers that win it) is read from here or from the state, so nothing outside
the engine has to test a game's name.

>>> variant("pacru").edition_for(None), variant("pacru").target(3)
('302', 28)
>>> variant("azacru").edition_for("2011"), variant("azacru").target(2) is None
('', True)
>>> [v.label for v in VARIANTS.values()]
['Shacru', 'Azacru', 'Pacru']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .board import CELL_COUNT, CELL_INDEX, CELL_NAMES, DIRECTION_INDEX, SIZE
from .errors import InvalidPosition
from .pacru import DEFAULT_EDITION, EDITIONS, PacruState
from .state import DEFAULT_PLY_LIMIT, START_POSITIONS, State
from .stepgames import AzacruState, ShacruState


@dataclass(frozen=True)
class Variant:
    """One game of the family and what a caller needs to know about it."""

    name: str  # "pacru"
    label: str  # "Pacru"
    state_class: type[State]
    editions: tuple[str, ...]  # ("302", "2011") for Pacru, () otherwise
    default_edition: str  # "302" for Pacru, "" otherwise

    @property
    def has_editions(self) -> bool:
        return self.state_class.has_editions

    def edition_for(self, edition: str | None) -> str:
        """The edition stored for a table of this game.

        ``""`` for a game without editions (whatever is given); otherwise the
        given edition, the default for ``None`` or ``""``, or
        :class:`InvalidPosition` (a ``ValueError``) naming the allowed ones.
        """
        if not self.has_editions:
            return ""
        if edition is None or edition == "":
            return self.default_edition
        if edition not in self.editions:
            raise InvalidPosition(_edition_message(self, edition))
        return edition

    @property
    def rules(self) -> dict[str, Any]:
        """What a page needs to know about this game's rules, so that it never tests the name.

        ``reorientation``: a chevron may turn in place, paying markers; ``twist``: a border
        crossing takes a twist and every listed move is complete; ``notation_examples``: moves
        as this game writes them.

        >>> variant("pacru").rules
        {'reorientation': True, 'twist': False, 'notation_examples': ['a3-b4(c5)']}
        """
        cls = self.state_class
        return {
            "reorientation": cls.has_reorientation,
            "twist": cls.has_twist,
            "notation_examples": list(cls.notation_examples),
        }

    def target(self, players: int) -> int | None:
        """Markers that win outright with this many players (Pacru: the supply), else ``None``."""
        return self.state_class.target_for(players)


VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant("shacru", "Shacru", ShacruState, (), ""),
        Variant("azacru", "Azacru", AzacruState, (), ""),
        Variant("pacru", "Pacru", PacruState, EDITIONS, DEFAULT_EDITION),
    )
}
GAMES = tuple(VARIANTS)


def variant(name: str) -> Variant:
    """The game called ``name`` (exactly, in lower case); :class:`InvalidPosition` if there is none.

    >>> variant("chess")
    Traceback (most recent call last):
    ...
    engine.errors.InvalidPosition: unknown game 'chess': choose shacru, azacru or pacru
    """
    return _lookup(name)


def _lookup(name: object) -> Variant:
    found = VARIANTS.get(name) if isinstance(name, str) else None
    if found is None:
        raise InvalidPosition(f"unknown game {name!r}: choose {', '.join(GAMES[:-1])} or {GAMES[-1]}")
    return found


def _edition_message(game: Variant, edition: object) -> str:
    allowed = " or ".join(repr(e) for e in game.editions)
    return f"edition must be {allowed}, not {edition!r}"


def position_scores(position: dict[str, Any]) -> dict[int, int]:
    """Markers per seat of a RULES §9 document, read without building a state.

    For a valid document this equals ``load(position).scores``.

    >>> position_scores(new_game("pacru", 2).play("a3-b4(b4)").to_dict())
    {1: 1, 2: 0}
    """
    tiles = position["tiles"]
    return {seat: tiles.count(str(seat)) for seat in range(1, position["players"] + 1)}


# --------------------------------------------------------------- factories
def _check_common(game: object, players: object, edition: object, ply_limit: object) -> Variant:
    found = _lookup(game)
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 4:
        raise InvalidPosition(f"players must be 2, 3 or 4, not {players!r}")
    if found.has_editions and edition not in found.editions:
        raise InvalidPosition(_edition_message(found, edition))
    if not isinstance(ply_limit, int) or isinstance(ply_limit, bool) or ply_limit < 1:
        raise InvalidPosition(f"ply_limit must be a positive whole number, not {ply_limit!r}")
    return found


def new_game(game: str, players: int, **options: Any) -> State:
    """A game at its start position (RULES §2).

    Options: ``edition`` (Pacru: ``"302"``, the default, or ``"2011"``; the
    other games ignore it) and ``ply_limit`` (default 1000).

    >>> s = new_game("pacru", 2)
    >>> s.to_move, len(s.chevrons()), s.is_over
    (1, 8, False)
    """
    unknown = set(options) - {"edition", "ply_limit"}
    if unknown:
        raise InvalidPosition(f"unknown option(s) {sorted(unknown)}: use edition, ply_limit")
    game = str(game).lower()
    edition = str(options.get("edition", DEFAULT_EDITION))
    ply_limit = options.get("ply_limit", DEFAULT_PLY_LIMIT)
    found = _check_common(game, players, edition, ply_limit)
    state = found.state_class(players, edition if found.has_editions else "", ply_limit)
    for seat, placements in START_POSITIONS[players].items():
        for cell, facing in placements:
            state.occ[CELL_INDEX[cell]] = seat << 3 | DIRECTION_INDEX[facing]
    state._settle()
    return state


def load(position: dict[str, Any]) -> State:
    """Build a state from a RULES §9 document; raise :class:`InvalidPosition` if it is bad."""
    if not isinstance(position, dict):
        raise InvalidPosition("a position must be a JSON object")
    known = {
        "game",
        "edition",
        "players",
        "to_move",
        "tiles",
        "chevrons",
        "eliminated",
        "ply",
        "ply_limit",
        "plies_without_progress",
        "end_triggered_by",
        "final_turns_left",
    }
    unknown = set(position) - known
    if unknown:
        raise InvalidPosition(f"unknown key(s) {sorted(unknown)} in position")
    for key in ("game", "players", "to_move", "tiles", "chevrons"):
        if key not in position:
            raise InvalidPosition(f"position lacks the required key {key!r}")
    game = position["game"]
    players = position["players"]
    edition = position.get("edition", DEFAULT_EDITION)
    ply_limit = position.get("ply_limit", DEFAULT_PLY_LIMIT)
    found = _check_common(game, players, edition, ply_limit)
    if not found.has_editions and "edition" in position:
        raise InvalidPosition("edition is a Pacru option only")
    state = found.state_class(players, edition if found.has_editions else "", ply_limit)

    tiles = position["tiles"]
    if not isinstance(tiles, str) or len(tiles) != CELL_COUNT:
        raise InvalidPosition(
            f"tiles must be a string of 81 characters, got "
            f"{len(tiles) if isinstance(tiles, str) else type(tiles).__name__}"
        )
    for i, ch in enumerate(tiles):
        rank, file = SIZE - 1 - i // SIZE, i % SIZE
        cell = rank * SIZE + file
        if ch == "-":
            continue
        if ch not in "1234" or int(ch) > players:
            raise InvalidPosition(f"tiles[{i}] ({CELL_NAMES[cell]}) is {ch!r}: use '-' or a seat 1…{players}")
        state.tiles[cell] = int(ch)
        state.counts[int(ch)] += 1

    chevrons = position["chevrons"]
    if not isinstance(chevrons, list):
        raise InvalidPosition("chevrons must be a list of 'cell:seat:facing' strings")
    for entry in chevrons:
        parts = entry.split(":") if isinstance(entry, str) else []
        if len(parts) != 3:
            raise InvalidPosition(f"chevron {entry!r} is not 'cell:seat:facing' (e.g. 'a3:1:E')")
        cell_name, seat_text, facing = parts[0].lower(), parts[1], parts[2].upper()
        if cell_name not in CELL_INDEX:
            raise InvalidPosition(f"chevron {entry!r}: {parts[0]!r} is not a field")
        if seat_text not in ("1", "2", "3", "4") or int(seat_text) > players:
            raise InvalidPosition(f"chevron {entry!r}: seat must be 1…{players}")
        if facing not in DIRECTION_INDEX:
            raise InvalidPosition(f"chevron {entry!r}: facing must be one of N NE E SE S SW W NW")
        cell = CELL_INDEX[cell_name]
        if state.occ[cell] >= 0:
            raise InvalidPosition(f"two chevrons on {cell_name}")
        state.occ[cell] = int(seat_text) << 3 | DIRECTION_INDEX[facing]
    per_seat = len(START_POSITIONS[players][1])
    for seat in state.seats:
        if len(state._cells_of(seat)) > per_seat:
            raise InvalidPosition(f"seat {seat} has more than {per_seat} chevrons")

    eliminated = position.get("eliminated", [])
    if (
        not isinstance(eliminated, list)
        or any(not isinstance(s, int) or s not in state.seats for s in eliminated)
        or len(set(eliminated)) != len(eliminated)
    ):
        raise InvalidPosition(f"eliminated must list distinct seats 1…{players}")
    state._eliminated = tuple(eliminated)
    for seat in eliminated:
        if state._cells_of(seat):
            raise InvalidPosition(f"seat {seat} is eliminated but has chevrons on the board")

    to_move = position["to_move"]
    if not isinstance(to_move, int) or to_move not in state.seats:
        raise InvalidPosition(f"to_move must be a seat 1…{players}")
    if to_move in eliminated and len(eliminated) < players:
        raise InvalidPosition(f"to_move is seat {to_move}, which is out of the game")
    state.to_move = to_move

    for key in ("ply", "plies_without_progress", "final_turns_left"):
        value = position.get(key, 0)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise InvalidPosition(f"{key} must be a whole number ≥ 0, not {value!r}")
    state.ply = position.get("ply", 0)
    state._load_extra(position)
    state._settle()
    return state


__all__ = ["GAMES", "VARIANTS", "Variant", "load", "new_game", "position_scores", "variant"]
