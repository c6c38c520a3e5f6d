"""Rules engine for the Pacru family: Shacru, Azacru and Pacru, 2–4 players.

Pure Python, standard library only. The public API:

>>> import engine
>>> s = engine.new_game("pacru", 2)
>>> s.base_moves()[:3]
['a3-b2', 'a3-b3', 'a3-b4']
>>> s = s.play("a3-b4(b4)")
>>> s.to_move, s.scores[1]
(2, 1)
>>> engine.load(s.to_dict()) == s
True
>>> engine.variant("pacru").editions, s.target, s.turn_options()["reorient"]
(('302', '2011'), 42, None)
"""

from __future__ import annotations

from .errors import IllegalMove, InvalidPosition
from .records import Record, export_record, parse_record, replay
from .state import MoveChoices, ReorientChoices, State
from .variants import GAMES, VARIANTS, Variant, load, new_game, position_scores, variant

__all__ = [
    "GAMES",
    "VARIANTS",
    "IllegalMove",
    "InvalidPosition",
    "MoveChoices",
    "Record",
    "ReorientChoices",
    "State",
    "Variant",
    "export_record",
    "load",
    "new_game",
    "parse_record",
    "position_scores",
    "replay",
    "variant",
]
