"""The rules pages as data: for each game a list of sections, each with plain-language text and
small diagrams (``web/rules_pages.py`` renders them, ``static/js/diagram.js`` draws them).

A diagram is a real position, built with the engine from a start position plus moves or from a
position description (RULES §9), and an example move in notation. The page shows the position
before and after the move, both computed by the engine; ``tests/games/test_rules_pages.py``
checks that every example move is legal where it stands. The text is in the project's own
words and follows ``docs/RULES.md``, the authority.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

import engine

FILES = "abcdefghi"


def _tiles(markers: dict[int, str]) -> str:
    """The 81-character ``tiles`` string (rank 9 first) for ``{seat: "a1 b2 …"}``."""
    out = ["-"] * 81
    for seat, cells in markers.items():
        for cell in cells.split():
            out[(9 - int(cell[1])) * 9 + FILES.index(cell[0])] = str(seat)
    return "".join(out)


@dataclass(frozen=True)
class Diagram:
    """One small board: a position and the example move the reader can play there.

    Either ``chevrons`` (with ``markers``) describes the position, or it is the start position
    for ``players`` after ``moves``.
    """

    key: str
    move: str
    caption: str | Promise  # what to look at before the move (lazy: translated when rendered)
    after: str | Promise  # what the move did, in words
    players: int = 2
    moves: tuple[str, ...] = ()
    markers: dict[int, str] = field(default_factory=dict)
    chevrons: str = ""
    to_move: int = 1
    edition: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def position(self, game: str) -> engine.State:
        """The position before the move, built by the engine."""
        if not self.chevrons:
            options = {"edition": self.edition} if self.edition else {}
            state = engine.new_game(game, self.players, **options)
            for move in self.moves:
                state = state.play(move)
            return state
        doc: dict[str, Any] = {
            "game": game,
            "players": self.players,
            "to_move": self.to_move,
            "tiles": _tiles(self.markers),
            "chevrons": self.chevrons.split(),
            "eliminated": [],
            "ply": 0,
        }
        if self.edition:
            doc["edition"] = self.edition
        doc.update(self.extra)
        return engine.load(doc)


@dataclass(frozen=True)
class Section:
    key: str
    title: str | Promise
    text: tuple[str | Promise, ...]
    diagrams: tuple[Diagram, ...] = ()
    differs: str | Promise = ""  # how this rule differs in the other games (or editions)


@dataclass(frozen=True)
class RulesPage:
    game: str
    label: str  # the game's name: a proper name, not translated
    intro: tuple[str | Promise, ...]
    sections: tuple[Section, ...]


# ---------------------------------------------------------------- shared sections
def _board(first: Diagram) -> Section:
    return Section(
        "borderlands",
        _("The board and its borderlands"),
        (
            # Translators: text between backticks is game notation (a field `a1`, a move
            # `a3-b4<`, a direction `N`): keep it exactly as it is, backticks included.
            # Shacru, Azacru and Pacru are the games' names.
            _(
                "The game is played on a square of 9 × 9 fields. Columns are lettered `a` to `i` from "
                "left (west) to right (east), rows numbered `1` to `9` from bottom (south) to top "
                "(north), so the bottom-left field is `a1` and the top-right one `i9`."
            ),
            _(
                "Thick lines cut the board into nine blocks of 3 × 3 fields, the borderlands. Each is "
                "named after its middle field: `b2`, `e2`, `h2` along the bottom, `b5`, `e5`, `h5` "
                "across the middle and `b8`, `e8`, `h8` along the top."
            ),
            _(
                "Each player has a colour (seat 1 red, seat 2 black, seat 3 yellow, seat 4 green) and "
                "a few chevrons: arrow-shaped pieces that always point in one of eight directions. A "
                "field holds at most one chevron, and at most one marker: a small token that gives "
                "the field its owner's colour. A field without a marker is neutral. In the diagrams a "
                "coloured field carries its owner's marker, and the white dot on a chevron shows its "
                "power (how far it may travel)."
            ),
        ),
        (first,),
    )


def _starts(game: str, two: str, three: str, four: str) -> Section:
    return Section(
        "start",
        _("Start positions for 2, 3 and 4 players"),
        (
            _("The board starts empty of markers. With two players each has four chevrons; with "
            "three or four players each has three. Seat 1 moves first, then seat 2, and so on "
            "round the table."),
            _("Every player starts with a chevron in the middle of their own edge of the board, "
            "pointing inwards, and the others near the corners."),
        ),
        (
            Diagram(f"{game}-start-2", two, _("Two players: red (seat 1) against black (seat 2)."),
                    _("Red has made the first move."), players=2),
            Diagram(f"{game}-start-3", three, _("Three players: red, black and yellow."),
                    _("Red has made the first move."), players=3),
            Diagram(f"{game}-start-4", four, _("Four players: green joins along the bottom edge."),
                    _("Red has made the first move."), players=4),
        ),
    )  # fmt: skip


_MOVING = (
    # Translators: text between backticks is game notation (a field `a1`, a move
    # `a3-b4<`, a direction `N`): keep it exactly as it is, backticks included.
    # Shacru, Azacru and Pacru are the games' names.
    _(
        "A chevron only goes forwards: straight ahead, or diagonally 45° to its left or right, never "
        "sideways or back. A chevron pointing north (`N`) may go north-west, north or north-east. "
        "After the move it points the way it travelled."
    ),
)
_POWER = (
    _(
        "Power: a chevron may travel in a straight line as many fields as its power, and no more. "
        "Its power is the number of fields of its owner's colour in the borderland it starts from "
        "(its own field included), and at least 1. Other players' markers never add to it."
    ),
)


def _twist(game: str) -> Section:
    return Section(
        "crossing",
        _("Crossing a border: the twist"),
        (
            _("A move that ends in another borderland than it started from crosses a border. After "
            "a crossing you may give the chevron a twist: keep its new direction (written `^`), "
            "or turn it 45° counter-clockwise (`<`) or clockwise (`>`). The twist is part of the "
            "move: `a3-b4<` goes from `a3` to `b4` and ends up pointing north."),
            _("A move that stays in its borderland takes no twist: `a3-b3` stays in `b2`."),
        ),
        (
            Diagram(f"{game}-twist", "a3-b4<", _("Red's chevron on `a3` points east. `b4` lies in the "
                    "next borderland up, `b5`."), _("The chevron crossed into `b5`, turned to point "
                    "north, and left a red marker on `b4`.")),
        ),
        differs=_("Pacru has no twist: a border crossing places a marker instead (see the Pacru page)."),
    )  # fmt: skip


# ---------------------------------------------------------------- Shacru
SHACRU = RulesPage(
    "shacru",
    "Shacru",
    (
        # Translators: text between backticks is game notation (a field `a1`, a move
        # `a3-b4<`, a direction `N`): keep it exactly as it is, backticks included.
        # Shacru, Azacru and Pacru are the games' names.
        _(
            "Shacru is the entry game of the family: every move is one step, and you win by covering "
            "more of the board with your colour than anybody else. It is Azacru and Pacru without "
            "power, connections, captures or reorientation."
        ),
    ),
    (
        _board(
            Diagram(
                "shacru-board",
                "a3-b3",
                _(
                    "The two-player start. Click red's chevron on `a3`, then the green dot, "
                    "or press the button."
                ),
                _(
                    "Red stepped to `b3` and coloured it: a neutral field takes the colour of "
                    "the chevron that lands on it."
                ),
            )
        ),
        _starts("shacru", "e1-e2", "g9-g8", "i5-h5"),
        Section(
            "moving",
            _("Moving: one step, and a marker"),
            (
                *_MOVING,
                _(
                    "In Shacru every move is exactly one field. The field you step onto must be free "
                    "of chevrons and may not carry another player's marker. Landing on a neutral "
                    "field puts your marker there; landing on your own colour changes nothing. You "
                    "never run out of markers."
                ),
            ),
            (
                Diagram(
                    "shacru-move",
                    "e5-f6",
                    _(
                        "Red's chevron on `e5` points north. Black's "
                        "marker on `e6` is closed to red, so red may step to `d6` or `f6`."
                    ),
                    _("Red stepped diagonally to `f6`, now points north-east, and `f6` is red."),
                    markers={1: "e5", 2: "e6 e7"},
                    chevrons="e5:1:N a9:2:S",
                ),
            ),
            differs=_("In Azacru and Pacru a chevron may go further than one field: see power."),
        ),
        _twist("shacru"),
        Section(
            "pass",
            _("No move: you pass"),
            (
                _(
                    "You must move if you can. When none of your chevrons has a legal step, you pass "
                    "(written `pass`) and stay in the game: maybe a step opens up later."
                ),
            ),
            (
                Diagram(
                    "shacru-pass",
                    "pass",
                    _(
                        "Red's only chevron is in the corner pointing "
                        "south-west: every forward step leaves the board."
                    ),
                    _("Red passed; black is on turn."),
                    markers={1: "a1 b2", 2: "e5"},
                    chevrons="a1:1:SW e5:2:N",
                ),
            ),
            differs=_(
                "In Azacru a pass starts the end of the game; in Pacru there is no passing: "
                "a player who cannot move is out."
            ),
        ),
        Section(
            "end",
            _("How the game ends and who wins"),
            (
                _(
                    "The game ends when nobody can move any more, or when nobody can gain another "
                    "marker: no chevron can reach a neutral field by walking over its own colour. It "
                    "also ends after 20 full rounds in which nobody placed a marker."
                ),
                _(
                    "Then the markers are counted: the most markers on the board takes first place; "
                    "equal numbers share a place."
                ),
            ),
            (
                Diagram(
                    "shacru-end",
                    "i8-i9",
                    _(
                        "Black's chevron is stuck in the corner; red's last "
                        "step takes it into the top-right corner."
                    ),
                    _("Now nobody can move: the game is over and the markers decide."),
                    markers={1: "i8 h7 g7", 2: "a1 b1"},
                    chevrons="i8:1:N a1:2:SW",
                ),
            ),
        ),
    ),
)

# ---------------------------------------------------------------- Azacru
AZACRU = RulesPage(
    "azacru",
    "Azacru",
    (
        _(
            "Azacru is Shacru with long moves: a chevron travels as far as its power allows, and a "
            "long move between two of your fields (a connection) can paint the fields in between, "
            "at the risk of losing the chevron. When a player can no longer move, the game is "
            "about to end."
        ),
    ),
    (
        _board(
            Diagram(
                "azacru-board",
                "a3-b3",
                _(
                    "The two-player start. Click red's chevron on `a3`, then the green dot, "
                    "or press the button."
                ),
                _(
                    "Red stepped to `b3` and coloured it: a neutral field takes the colour of "
                    "the chevron that lands on it."
                ),
            )
        ),
        _starts("azacru", "e1-e2", "g9-g8", "i5-h5"),
        Section(
            "moving",
            _("Moving and power"),
            (
                *_MOVING,
                *_POWER,
                _(
                    "The field you land on must be free of chevrons and either neutral or already "
                    "yours; a neutral one gets your marker. The fields you pass over must be free of "
                    "chevrons (except in a connection jump, below); their markers do not matter."
                ),
            ),
            (
                Diagram(
                    "azacru-move",
                    "e4-e6",
                    _("Red has three markers in borderland `e5`, so the chevron on `e4` has power 3."),
                    _("Red went two fields north to `e6` and coloured it; `e5` keeps its marker."),
                    markers={1: "e4 d5 f6"},
                    chevrons="e4:1:N a9:2:S",
                ),
            ),
            differs=_("In Shacru every move is one field."),
        ),
        _twist("azacru"),
        Section(
            "connection",
            _("Connections: painting the fields in between"),
            (
                _(
                    "A move of two or more fields from a field of your colour to a free field of your "
                    "colour is a connection. If nothing stands between the two, every field in "
                    "between takes your colour. But if any of those fields belonged to another "
                    "player, your chevron is taken off the board after the move. Neutral fields in "
                    "between cost nothing."
                ),
                _(
                    "A connection may also jump over chevrons in between (a connection jump); then "
                    "the fields in between keep their markers."
                ),
                _("A move that costs the chevron takes no twist."),
            ),
            (
                Diagram(
                    "azacru-connect",
                    "c3-e3^",
                    _(
                        "Red owns `c3` and `e3`; `d3` between them is neutral. "
                        "The chevron on `c3` has power 2."
                    ),
                    _("`d3` turned red and the chevron survived, pointing east."),
                    markers={1: "a1 c3 e3"},
                    chevrons="c3:1:E a9:2:S",
                ),
                Diagram(
                    "azacru-connect-lost",
                    "c3-e3",
                    _("The same, but `d3` belongs to black."),
                    _("`d3` turned red, and because it was black's, red's chevron left the board."),
                    markers={1: "a1 c3 e3", 2: "d3"},
                    chevrons="c3:1:E a9:1:S i9:2:SW",
                ),
                Diagram(
                    "azacru-jump",
                    "c3-e3>",
                    _("Now black's chevron stands on `d3`."),
                    _("Red jumped over it; `d3` stays black and the chevron is safe."),
                    markers={1: "a1 c3 e3", 2: "d3"},
                    chevrons="c3:1:E d3:2:N",
                ),
            ),
            differs=_("Shacru has no connections. In Pacru a connection change never costs the chevron."),
        ),
        Section(
            "end",
            _("Passing, the end and who wins"),
            (
                _(
                    "A player with no move when their turn comes (every chevron lost, or none able to "
                    "move) passes, and that pass starts the end: every other player still in gets "
                    "one last turn, in the usual order, and then the game is over."
                ),
                _(
                    "As in Shacru, the game also ends after 20 full rounds without a new marker. The "
                    "most markers on the board takes first place; equal numbers share a place."
                ),
            ),
            (
                Diagram(
                    "azacru-trigger",
                    "pass",
                    _("Three players. Red has lost its last chevron to a connection."),
                    _("Red's pass starts the end: black and yellow each play once more."),
                    players=3,
                    markers={1: "a1 b1 c1 d3", 2: "c9 b8", 3: "e9 f8"},
                    chevrons="c9:2:S a5:2:E e9:3:S i7:3:W",
                ),
                Diagram(
                    "azacru-last",
                    "i7-h7",
                    _("The end was triggered; yellow has the last turn."),
                    _("Yellow has played its last turn: the game is over and the markers are counted."),
                    players=3,
                    to_move=3,
                    markers={1: "a1 b1 c1 d3", 2: "c9 b8 c8", 3: "e9 f8"},
                    chevrons="c8:2:S a5:2:E e9:3:S i7:3:W",
                    extra={"end_triggered_by": 1, "final_turns_left": 1},
                ),
            ),
            differs=_("In Shacru a pass changes nothing; in Pacru a player who cannot move is out."),
        ),
    ),
)

# ---------------------------------------------------------------- Pacru
_SEAT1_40 = "a1 b1 c1 b2 c2 b3 c3 a5 " + " ".join(f + r for r in "789" for f in FILES) + " g1 h1 i1 g2 h2"

PACRU = RulesPage(
    "pacru",
    "Pacru",
    (
        # Translators: text between backticks is game notation (a field `a1`, a move
        # `a3-b4<`, a direction `N`): keep it exactly as it is, backticks included.
        # Shacru, Azacru and Pacru are the games' names.
        _(
            "Pacru is the full game: long moves and connections as in Azacru, markers placed by "
            "crossing borders, captures by a pincer, meetings and reorientation. You win by getting "
            "your whole supply of markers onto the board (42 with two players, 28 with three, 24 "
            "with four), or by being the last with chevrons."
        ),
        _(
            'There are two editions. The booklet\'s "302" rules are the default; the "2011" '
            "amendment changes only the meeting (see below). Every table is played in one edition."
        ),
    ),
    (
        _board(
            Diagram(
                "pacru-board",
                "a3-b4(b4)",
                _(
                    "The two-player start. Click red's chevron on `a3`, then the green dot, "
                    "or press the button."
                ),
                _("Red crossed into borderland `b5` and put a marker there, on `b4`."),
            )
        ),
        _starts("pacru", "a3-b4(b4)", "g9-g8", "i5-h5"),
        Section(
            "moving",
            _("Moving and power"),
            (
                *_MOVING,
                *_POWER,
                _(
                    "An ordinary move lands on a field that is neutral or yours, with no chevron on "
                    "the way or on the landing field. Landing by itself places no marker: markers "
                    "come from the effects below. On your turn you move one chevron or reorient one; "
                    "there is no passing."
                ),
            ),
            (
                Diagram(
                    "pacru-move",
                    "g9-g7",
                    _("Red has markers on `g9` and `h8`: the chevron on `g9` has power 2."),
                    _("Red went two fields south, stayed in borderland `h8`, and placed nothing."),
                    markers={1: "g9 h8"},
                    chevrons="g9:1:SW a1:2:NE",
                ),
            ),
            differs=_("Shacru moves one field; in Shacru and Azacru landing on a neutral field colours it."),
        ),
        Section(
            "crossing",
            _("Crossing a border: borderland change and transformation"),
            (
                _(
                    "When a move ends in another borderland, look at that borderland. If it still has "
                    "a neutral field, you put a marker on one of its neutral fields without a chevron "
                    "(or on the field you landed on, if it is neutral): a borderland change. The "
                    "field is written in brackets: `g9-f8(d8)`."
                ),
                _(
                    "If the borderland has no neutral field left, you instead turn one of its "
                    "opponent-coloured fields without a chevron to your colour: a borderland "
                    "transformation."
                ),
            ),
            (
                Diagram(
                    "pacru-change",
                    "g9-f8(f8)",
                    _("Borderland `e8` is still empty."),
                    _(
                        "Red entered `e8` and placed a marker on `f8`; "
                        "any free field of `e8` would have done."
                    ),
                    markers={1: "g9 h8"},
                    chevrons="g9:1:SW a1:2:NE",
                ),
                Diagram(
                    "pacru-transform",
                    "g9-f8(d8)",
                    _("Borderland `e8` is full: red owns four fields, black five."),
                    _("Red entered the full borderland and turned black's `d8` red."),
                    markers={1: "g9 h8 e7 e8 f8 f7", 2: "d7 d8 d9 e9 f9"},
                    chevrons="g9:1:SW a1:2:NE",
                ),
            ),
            differs=_("Shacru and Azacru give a twist instead of a marker after a crossing."),
        ),
        Section(
            "connection",
            _("Connection change, and the choice"),
            (
                _(
                    "A move of two or more fields from your colour to a free field of your colour is "
                    "a connection. With nothing standing in between, every field in between takes "
                    "your colour, whoever owned it, and the chevron is never lost. Written `(*)`."
                ),
                _(
                    "If the connection also crosses a border with a field on offer, you choose one: "
                    "the connection change or the border marker, not both. A connection may jump "
                    "over chevrons; then nothing in between changes."
                ),
            ),
            (
                Diagram(
                    "pacru-connect",
                    "g9-e7(*)",
                    _("Red owns `g9`, `h8` and `e7`; `f8` between them is neutral."),
                    _(
                        "Red took the connection change: `f8` is red. Choosing `g9-e7(d8)` would "
                        "have put a border marker on `d8` instead and left `f8` neutral."
                    ),
                    markers={1: "g9 h8 e7"},
                    chevrons="g9:1:SW a1:2:NE",
                ),
            ),
            differs=_(
                "In Azacru a connection over another player's colour costs the chevron; in Pacru it does not."
            ),
        ),
        Section(
            "pincer",
            _("Pincer: capturing a chevron"),
            (
                _(
                    "An opponent's chevron is attacked by one of yours when it stands on one of your "
                    "chevron's forward lines, within its power, with nothing in between. If two or "
                    "more of your chevrons attack it when your turn begins, any of them may capture "
                    "it by moving onto its field (written with `x`). The captured chevron leaves the "
                    "board and the field takes your colour, then the usual border effect follows."
                ),
            ),
            (
                Diagram(
                    "pincer",
                    "e3xe5(d6)",
                    _("Red's chevrons on `e3` and `c5` (power 2 each) both attack black's chevron on `e5`."),
                    _(
                        "Black's chevron is gone, `e5` is red, and the border crossing into `e5` "
                        "gave red a marker on `d6`."
                    ),
                    markers={1: "e3 d2 c5 b4"},
                    chevrons="e3:1:N c5:1:E e5:2:S i9:2:SW",
                ),
            ),
            differs=_("Only Pacru has captures."),
        ),
        Section(
            "meeting",
            _("Meeting, and the two editions"),
            (
                _(
                    "After all the other effects: if you landed on your own colour and the next field "
                    "in your chevron's new direction holds another chevron of yours, on your colour, "
                    "pointing straight back at it, your chevrons meet. You then change one more field "
                    "without a chevron, anywhere on the board, to your colour (the field you just "
                    "left is allowed)."
                ),
                _(
                    'Edition "302" (the booklet): every meeting counts. Edition "2011": a meeting '
                    "only counts once some opponent has 9 or more markers on the board."
                ),
            ),
            (
                Diagram(
                    "meeting-302",
                    "e4-e5(e4)",
                    _("Edition 302. Red owns `e5` and `e6`; red chevrons on `e4` (north) and `e6` (south)."),
                    _(
                        "The chevrons meet face to face on red fields: red coloured one more "
                        "field, the vacated `e4`."
                    ),
                    markers={1: "e5 e6"},
                    chevrons="e4:1:N e6:1:S a9:2:S",
                    edition="302",
                ),
                Diagram(
                    "meeting-2011",
                    "e4-e5",
                    _("The same position in edition 2011; black has no markers yet."),
                    _(
                        "The chevrons face each other, but no opponent has 9 "
                        "markers, so the meeting does not count."
                    ),
                    markers={1: "e5 e6"},
                    chevrons="e4:1:N e6:1:S a9:2:S",
                    edition="2011",
                ),
                Diagram(
                    "meeting-2011-9",
                    "e4-e5(e4)",
                    _("Edition 2011 again, but black now has 9 markers (bottom right)."),
                    _("With an opponent on 9 markers the meeting counts: red colours `e4`."),
                    markers={1: "e5 e6", 2: "g1 h1 i1 g2 h2 i2 g3 h3 i3"},
                    chevrons="e4:1:N e6:1:S a9:2:S",
                    edition="2011",
                ),
            ),
            differs=_("Only Pacru has meetings; the 2011 edition adds the 9-marker threshold."),
        ),
        Section(
            "reorient",
            _("Reorientation"),
            (
                _(
                    "Instead of moving, you may turn one of your chevrons where it stands: 45° either "
                    "way costs 2 of your markers, 90° costs 4. You pick which markers to pay; they "
                    "leave the board and must lie on fields without a chevron. Nothing else happens. "
                    "Written with the field, the turn (`>` 45° clockwise, `>>` 90°, `<` and `<<` "
                    "counter-clockwise) and the paid fields: `e5<<(a1,b2,c3,d4)`."
                ),
            ),
            (
                Diagram(
                    "reorient",
                    "e5<<(a1,b2,c3,d4)",
                    _(
                        "Red's chevron on `e5` points north; "
                        "red has markers on `a1`, `b2`, `c3`, `d4` and under the chevron on `e5`."
                    ),
                    _("Four markers paid, and the chevron now points west."),
                    markers={1: "a1 b2 c3 d4 e5"},
                    chevrons="e5:1:N i9:2:SW",
                ),
            ),
            differs=_("Only Pacru has reorientation."),
        ),
        Section(
            "blocked",
            _("Blocked: out of the game"),
            (
                _(
                    "If none of your chevrons can make a legal move when your turn comes, you are out: "
                    "your chevrons leave the board, but your markers stay and still count. Losing "
                    "your last chevron to a pincer also puts you out."
                ),
            ),
            (
                Diagram(
                    "blocked",
                    "i8-i9",
                    _("Three players. Black's only chevron, on `h9`, can only go east, to `i9`."),
                    _("Red took `i9`: black cannot move when its turn comes and is out; yellow plays next."),
                    players=3,
                    markers={2: "h9 g9"},
                    chevrons="i8:1:N a5:1:E h9:2:NE e1:3:N",
                ),
            ),
            differs=_("In Shacru a player without a move passes; in Azacru the pass starts the end."),
        ),
        Section(
            "end",
            _("How the game ends and who wins"),
            (
                _(
                    "You win the moment your turn ends with your whole supply on the board: 42 "
                    "markers with two players, 28 with three, 24 with four. You also win when nobody "
                    "else has a chevron left. If an effect needs more markers than you have left, you "
                    "place what remains (a connection is filled from your starting field onwards)."
                ),
                _(
                    "The others are ranked by markers on the board; players who went out come after "
                    "those still in, the later ones first."
                ),
            ),
            (
                Diagram(
                    "target",
                    "a1-a5(*)",
                    _("Red has 40 of its 42 markers on the board; the chevron on `a1` has plenty of power."),
                    _(
                        "The connection wants `a2`, `a3` and `a4`, but only two markers were left: "
                        "`a2` and `a3` turn red, red has all 42 on the board and wins."
                    ),
                    markers={1: _SEAT1_40, 2: "d4 e4 f4"},
                    chevrons="a1:1:N e5:2:S",
                ),
            ),
        ),
    ),
)

PAGES: dict[str, RulesPage] = {page.game: page for page in (SHACRU, AZACRU, PACRU)}


def diagrams(game: str) -> list[Diagram]:
    """Every diagram of one game's page, in page order."""
    return [d for s in PAGES[game].sections for d in s.diagrams]
