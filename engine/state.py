"""The shared core of every game state: board, seats, turn order, results.

A :class:`State` is immutable from the outside: :meth:`State.play` and
:meth:`State.eliminate` return a new state and leave the old one usable.
The three games are small subclasses (``pacru.PacruState``,
``stepgames.ShacruState`` and ``stepgames.AzacruState``) that supply move
generation, move application and end conditions; :mod:`engine.variants`
registers them and builds states (``new_game``, ``load``). This module
imports none of them.

Board encoding (internal): ``tiles[cell]`` is 0 for a neutral field or the
seat whose marker is there; ``occ[cell]`` is -1 for no chevron or
``seat << 3 | facing``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from .board import CELL_COUNT, CELL_NAMES, DIRECTION_NAMES, SIZE
from .errors import IllegalMove, InvalidPosition
from .notation import Parsed, parse
from .render import board_text

DEFAULT_PLY_LIMIT = 1000
SEAT_COLOURS = {1: "red", 2: "black", 3: "yellow", 4: "green"}

#: Start positions (RULES §2): seat -> [(cell, facing), …] per player count.
_START_3 = {
    1: [("g9", "S"), ("i5", "W"), ("g1", "N")],
    2: [("c9", "S"), ("a5", "E"), ("c1", "N")],
    3: [("e9", "S"), ("a7", "E"), ("i7", "W")],
}
START_POSITIONS: dict[int, dict[int, list[tuple[str, str]]]] = {
    2: {
        1: [("a3", "E"), ("e1", "N"), ("i3", "W"), ("i9", "SW")],
        2: [("a7", "E"), ("e9", "S"), ("i7", "W"), ("a1", "NE")],
    },
    3: _START_3,
    4: {**_START_3, 4: [("a3", "E"), ("i3", "W"), ("e1", "N")]},
}

# Internal move tuple: (from, to, direction, distance, kind[, twist]).
PLAIN, CONNECTION, JUMP, PINCER = 0, 1, 2, 3
Move = tuple[int, ...]


@dataclass(frozen=True)
class MoveChoices:
    """What a caller still has to choose for one base move.

    ``effects`` lists the options of the effect decision (Pacru steps 4–5):
    ``"*"`` (take the connection change) first when possible, then the
    eligible border cells; it is empty when the move has no effect decision.
    ``meetings`` maps each effect option (``None`` when there is no effect
    decision) to the fields the meeting may change; an empty tuple means that
    no meeting follows. ``twists`` lists the Shacru/Azacru twist suffixes
    (``^ < >``) after a border crossing. ``moves()`` spells out every
    complete canonical move.
    """

    move: str
    effects: tuple[str, ...] = ()
    effect_kind: str | None = None  # "connection", "change", "transformation", "either"
    meetings: dict[str | None, tuple[str, ...]] = field(default_factory=dict)
    twists: tuple[str, ...] = ()

    def moves(self) -> list[str]:
        if self.twists:
            return [self.move + t for t in self.twists]
        out = []
        for option in self.effects or (None,):
            head = [] if option is None else [option]
            meeting = self.meetings.get(option, ())
            for cell in meeting or (None,):
                tokens = head if cell is None else [*head, cell]
                out.append(f"{self.move}({','.join(tokens)})" if tokens else self.move)
        return out


@dataclass(frozen=True)
class ReorientChoices:
    """A Pacru reorientation of the chevron on ``cell`` (RULES 6.4).

    ``turns`` are the affordable turns (``<`` / ``>`` cost 2 markers, ``<<`` /
    ``>>`` cost 4) and ``removable`` the markers that may be taken off.
    """

    cell: str
    turns: tuple[str, ...]
    removable: tuple[str, ...]


class State:
    """A position of one game, with whose turn it is and how it stands."""

    game: ClassVar[str] = ""
    #: Whether the game is played in editions (Pacru) and a position stores one.
    has_editions: ClassVar[bool] = False
    #: Whether a chevron may turn in place, paying markers (Pacru, RULES 6.4).
    has_reorientation: ClassVar[bool] = False
    #: Whether a border crossing takes a twist and the listed moves are complete (Shacru, Azacru).
    has_twist: ClassVar[bool] = False
    #: Moves written the way this game writes them, for a page's "e.g." hint (RULES §8).
    notation_examples: ClassVar[tuple[str, ...]] = ()
    __slots__ = (
        "_eliminated",
        "_moves",
        "_over",
        "_winner",
        "counts",
        "edition",
        "end_reason",
        "end_triggered_by",
        "final_turns_left",
        "last_eliminations",
        "last_move",
        "occ",
        "players",
        "plies_without_progress",
        "ply",
        "ply_limit",
        "tiles",
        "to_move",
    )

    players: int
    edition: str
    ply_limit: int
    tiles: list[int]
    occ: list[int]
    counts: list[int]
    to_move: int
    _eliminated: tuple[int, ...]
    ply: int
    plies_without_progress: int
    end_triggered_by: int | None
    final_turns_left: int
    _over: bool
    _winner: int | None
    end_reason: str | None
    _moves: list[Move] | None
    last_eliminations: tuple[tuple[int, str], ...]
    last_move: str | None

    # ----------------------------------------------------------- construction
    def __init__(self, players: int, edition: str = "302", ply_limit: int = DEFAULT_PLY_LIMIT):
        self.players = players
        self.edition = edition
        self.ply_limit = ply_limit
        self.tiles = [0] * CELL_COUNT
        self.occ = [-1] * CELL_COUNT
        self.counts = [0] * 5
        self.to_move = 1
        self._eliminated = ()
        self.ply = 0
        self.plies_without_progress = 0
        self.end_triggered_by = None
        self.final_turns_left = 0
        self._over = False
        self._winner = None
        self.end_reason = None
        self._moves = None
        self.last_eliminations = ()
        self.last_move = None

    def _child(self) -> State:
        """A copy sharing nothing mutable, ready to be changed by a transition."""
        new = object.__new__(type(self))
        new.players = self.players
        new.edition = self.edition
        new.ply_limit = self.ply_limit
        new.tiles = self.tiles[:]
        new.occ = self.occ[:]
        new.counts = self.counts[:]
        new.to_move = self.to_move
        new._eliminated = self._eliminated
        new.ply = self.ply
        new.plies_without_progress = self.plies_without_progress
        new.end_triggered_by = self.end_triggered_by
        new.final_turns_left = self.final_turns_left
        new._over = False
        new._winner = None
        new.end_reason = None
        new._moves = None
        new.last_eliminations = ()
        new.last_move = None
        return new

    # ---------------------------------------------------------------- queries
    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def winner(self) -> int | None:
        """The winning seat once the game is over, else ``None``."""
        return self._winner

    @property
    def eliminated(self) -> tuple[int, ...]:
        """Seats that are out, in elimination order."""
        return self._eliminated

    @property
    def seats(self) -> range:
        return range(1, self.players + 1)

    @property
    def active_seats(self) -> list[int]:
        """Seats still in the game (not out), in seat order."""
        return [s for s in self.seats if s not in self._eliminated]

    @property
    def scores(self) -> dict[int, int]:
        """Markers on the board per seat (players who are out included)."""
        return {s: self.counts[s] for s in self.seats}

    @classmethod
    def target_for(cls, players: int) -> int | None:
        """Markers that win a game of ``players`` outright; ``None`` when markers only rank."""
        return None

    @property
    def target(self) -> int | None:
        """Markers that win this game outright (Pacru: the supply); ``None`` in the step games."""
        return self.target_for(self.players)

    def chevrons(self, seat: int | None = None) -> list[tuple[int, int, int]]:
        """``(cell, seat, facing)`` of every chevron (of ``seat`` if given)."""
        out = []
        for cell, o in enumerate(self.occ):
            if o >= 0 and (seat is None or o >> 3 == seat):
                out.append((cell, o >> 3, o & 7))
        return out

    def power(self, cell: int, seat: int) -> int:
        """How many fields a chevron of ``seat`` standing on ``cell`` may move (RULES: its power).

        Each game says (see the subclasses); pages show the engine's answer rather than
        repeating the rule.
        """
        raise NotImplementedError

    def powers(self) -> dict[str, int]:
        """The power of every chevron on the board, by the name of its field.

        >>> from engine import new_game
        >>> new_game("shacru", 2).play("e1-e2").powers()["e2"]
        1
        """
        return {CELL_NAMES[cell]: self.power(cell, seat) for cell, seat, _ in self.chevrons()}

    def _cells_of(self, seat: int) -> list[int]:
        occ = self.occ
        return [c for c in range(CELL_COUNT) if occ[c] >= 0 and occ[c] >> 3 == seat]

    def _next_seat(self, seat: int) -> int:
        """The next seat after ``seat`` in turn order that is not out."""
        out = self._eliminated
        s = seat
        for _ in range(self.players):
            s = s % self.players + 1
            if s not in out:
                return s
        return seat

    def ranking(self) -> dict[int, int]:
        """Seat -> rank (1 best; equal ranks share, as 1, 2, 2, 4).

        The winner (Pacru) first; then the players still in, by markers on the
        board; then the players who are out, the later-eliminated above.
        """
        groups: list[list[int]] = []
        winner = self._ranked_winner()
        if winner is not None:
            groups.append([winner])
        by_markers: dict[int, list[int]] = {}
        for s in self.active_seats:
            if s != winner:
                by_markers.setdefault(self.counts[s], []).append(s)
        groups.extend(by_markers[n] for n in sorted(by_markers, reverse=True))
        groups.extend([s] for s in reversed(self._eliminated) if s != winner)
        ranks: dict[int, int] = {}
        place = 1
        for group in groups:
            for s in group:
                ranks[s] = place
            place += len(group)
        return dict(sorted(ranks.items()))

    def _ranked_winner(self) -> int | None:
        """A winner ranked first whatever the markers (Pacru); ``None`` when markers decide."""
        return None

    # --------------------------------------------------------------- actions
    def base_moves(self) -> list[str]:
        """Sorted canonical base moves for the player on turn (see subclasses)."""
        raise NotImplementedError

    def play(self, move: str) -> State:
        """Play ``move`` (RULES §8 notation) and return the next state."""
        if self._over:
            raise IllegalMove(f"{move}: the game is over", "game_over", {"move": move})
        return self._play_parsed(parse(move), move)

    def _play_parsed(self, parsed: Parsed, text: str) -> State:
        raise NotImplementedError

    def choices(self, move: str) -> MoveChoices:
        """The choices still open for one base move (see :class:`MoveChoices`)."""
        raise NotImplementedError

    def reorientations(self, cell: str) -> ReorientChoices:
        raise IllegalMove(
            f"{self.game.capitalize()} has no reorientation", "no_reorientations", {"game": self.game}
        )

    def legal_moves(self) -> list[str]:
        """Every complete canonical move except Pacru reorientations."""
        out: list[str] = []
        for base in self.base_moves():
            out.extend(self.choices(base).moves() if base != "pass" else [base])
        return out

    def turn_options(self) -> dict[str, Any]:
        """What the player on turn can choose, as plain JSON-ready data.

        ``base_moves``: :meth:`base_moves`. ``choices``: per base move, the Pacru
        ``{"effects": [...], "effect_kind": ..., "meetings": {option: [cells]}}``
        (``meetings`` only where a meeting follows; ``{}`` in Shacru and Azacru,
        whose base moves are complete). ``reorient``: the chevrons of the player
        on turn, the affordable turns and the removable markers, or ``None``
        when no reorientation is affordable (always ``None`` outside Pacru).

        >>> from engine import new_game
        >>> new_game("shacru", 2).turn_options()["choices"]
        {}
        """
        if self._over:
            return {"base_moves": [], "choices": {}, "reorient": None}
        bases = self.base_moves()
        return {
            "base_moves": bases,
            "choices": self._base_choices(bases),
            "reorient": self._reorient_options(),
        }

    def _base_choices(self, bases: list[str]) -> dict[str, Any]:
        """The ``choices`` of :meth:`turn_options`: nothing to choose by default."""
        return {}

    def _reorient_options(self) -> dict[str, Any] | None:
        """The ``reorient`` of :meth:`turn_options`: no reorientation by default."""
        return None

    def eliminate(self, seat: int, reason: str = "resign") -> State:
        """Take ``seat`` out of the game by resignation or timeout (RULES 6.5, §7).

        Its chevrons leave the board, its markers stay, play goes on among the
        others. It is not a ply.
        """
        if reason not in ("resign", "timeout"):
            raise ValueError(f"reason must be 'resign' or 'timeout', not {reason!r}")
        if self._over:
            raise IllegalMove(
                f"seat {seat} cannot {reason}: the game is over",
                "game_over_cannot_leave",
                {"seat": seat, "reason": reason},
            )
        if seat not in self.seats:
            raise IllegalMove(
                f"there is no seat {seat} in a {self.players}-player game",
                "no_such_seat",
                {"seat": seat, "players": self.players},
            )
        if seat in self._eliminated:
            raise IllegalMove(f"seat {seat} is already out of the game", "seat_already_out", {"seat": seat})
        new = self._child()
        new._remove_player(seat)
        new.last_eliminations = ((seat, reason),)
        new._after_elimination(seat)
        return new

    def _remove_player(self, seat: int) -> None:
        occ = self.occ
        for c in range(CELL_COUNT):
            if occ[c] >= 0 and occ[c] >> 3 == seat:
                occ[c] = -1
        self._eliminated = (*self._eliminated, seat)

    def _after_elimination(self, seat: int) -> None:
        raise NotImplementedError

    def _finish(self, winner: int | None, reason: str) -> None:
        self._over = True
        self._winner = winner
        self.end_reason = reason

    # ------------------------------------------------------ interchange JSON
    def to_dict(self) -> dict[str, Any]:
        """The RULES §9 document for this position, with every default filled in."""
        rows = []
        for rank in range(SIZE - 1, -1, -1):
            row = self.tiles[rank * SIZE : rank * SIZE + SIZE]
            rows.append("".join(str(t) if t else "-" for t in row))
        chevrons = [
            f"{CELL_NAMES[c]}:{s}:{DIRECTION_NAMES[d]}"
            for c, s, d in sorted(self.chevrons(), key=lambda x: (x[1], x[0]))
        ]
        doc: dict[str, Any] = {"game": self.game}
        if self.has_editions:
            doc["edition"] = self.edition
        doc.update(
            players=self.players,
            to_move=self.to_move,
            tiles="".join(rows),
            chevrons=chevrons,
            eliminated=list(self._eliminated),
            ply=self.ply,
            ply_limit=self.ply_limit,
        )
        return doc

    def _key(self) -> tuple[Any, ...]:
        return (
            self.game,
            self.players,
            self.edition,
            self.ply_limit,
            tuple(self.tiles),
            tuple(self.occ),
            self.to_move,
            self._eliminated,
            self.ply,
            self.plies_without_progress,
            self.end_triggered_by,
            self.final_turns_left,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"<{type(self).__name__} ply={self.ply} to_move={self.to_move} over={self._over}>"

    def __str__(self) -> str:
        return board_text(self, color=False)

    # ---------------------------------------------------------- subclass API
    def _load_extra(self, position: dict[str, Any]) -> None:
        """Read the game-specific keys of a §9 document."""
        if "plies_without_progress" in position or "end_triggered_by" in position:
            raise InvalidPosition(f"{self.game} positions have no progress or end-trigger keys")

    def _settle(self) -> None:
        """Decide whether the game is over and who moves, after a load."""
        raise NotImplementedError
