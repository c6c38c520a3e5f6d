"""Board geometry: fields, borderlands, directions and rays.

Everything here is a plain lookup table computed once at import, so move
generation only ever indexes lists.

A field is an ``int`` 0…80: ``rank * 9 + file`` with file 0 = ``a`` (west)
and rank 0 = ``1`` (south). ``a1`` is 0, ``i1`` is 8, ``a9`` is 72, ``i9`` is 80.

>>> CELL_NAMES[0], CELL_NAMES[80], parse_cell("e5")
('a1', 'i9', 40)
>>> [CELL_NAMES[c] for c in RAYS[parse_cell("e1")][N][:2]]
['e2', 'e3']
>>> [CELL_NAMES[c] for c in RAYS[parse_cell("g9")][5][:2]]
['f8', 'e7']
>>> CELL_NAMES[BORDERLAND_CENTRE[BORDERLAND[parse_cell("g9")]]]
'h8'
"""

from __future__ import annotations

FILES = "abcdefghi"
SIZE = 9
CELL_COUNT = SIZE * SIZE

#: Direction indices in clockwise order; a chevron faces one of them.
N, NE, E, SE, S, SW, W, NW = range(8)
DIRECTION_NAMES: tuple[str, ...] = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
DIRECTION_INDEX: dict[str, int] = {name: i for i, name in enumerate(DIRECTION_NAMES)}
#: (file delta, rank delta) for each direction.
DELTAS: tuple[tuple[int, int], ...] = (
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
)
#: Arrows used by the terminal board, one per direction.
ARROWS: tuple[str, ...] = ("↑", "↗", "→", "↘", "↓", "↙", "←", "↖")

CELL_NAMES: tuple[str, ...] = tuple(FILES[i % SIZE] + str(i // SIZE + 1) for i in range(CELL_COUNT))
CELL_INDEX: dict[str, int] = {name: i for i, name in enumerate(CELL_NAMES)}


def _borderland(cell: int) -> int:
    return (cell // SIZE // 3) * 3 + (cell % SIZE) // 3


#: Borderland number (0…8) of every field.
BORDERLAND: tuple[int, ...] = tuple(_borderland(c) for c in range(CELL_COUNT))
#: The nine fields of each borderland, in board order.
BORDERLAND_CELLS: tuple[tuple[int, ...], ...] = tuple(
    tuple(c for c in range(CELL_COUNT) if BORDERLAND[c] == b) for b in range(9)
)
#: The centre field of each borderland; a borderland is named after it.
BORDERLAND_CENTRE: tuple[int, ...] = tuple(cells[4] for cells in BORDERLAND_CELLS)


def _ray(cell: int, direction: int) -> tuple[int, ...]:
    df, dr = DELTAS[direction]
    f, r = cell % SIZE + df, cell // SIZE + dr
    out = []
    while 0 <= f < SIZE and 0 <= r < SIZE:
        out.append(r * SIZE + f)
        f, r = f + df, r + dr
    return tuple(out)


#: RAYS[cell][direction]: the fields from ``cell`` (exclusive) to the edge.
RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_ray(c, d) for d in range(8)) for c in range(CELL_COUNT)
)
#: NEIGHBOUR[cell][direction]: the adjacent field, or -1 off the board.
NEIGHBOUR: tuple[tuple[int, ...], ...] = tuple(
    tuple(ray[0] if ray else -1 for ray in RAYS[c]) for c in range(CELL_COUNT)
)
#: The three directions a chevron facing ``d`` may move in: left, ahead, right.
FORWARD: tuple[tuple[int, int, int], ...] = tuple(((d - 1) % 8, d, (d + 1) % 8) for d in range(8))


def parse_cell(text: str) -> int:
    """Return the field index of a name such as ``"e5"`` (case-insensitive)."""
    try:
        return CELL_INDEX[text.strip().lower()]
    except KeyError:
        raise ValueError(f"{text!r} is not a field: fields are a1 to i9") from None


def borderland_name(cell: int) -> str:
    """The name of the borderland holding ``cell`` (its centre field)."""
    return CELL_NAMES[BORDERLAND_CENTRE[BORDERLAND[cell]]]


def direction_between(frm: int, to: int) -> tuple[int, int] | None:
    """``(direction, distance)`` when ``to`` lies on a straight line from ``frm``."""
    for d in range(8):
        ray = RAYS[frm][d]
        if to in ray:
            return d, ray.index(to) + 1
    return None
