"""Game analysis through the API: ``GET``/``POST /api/v1/tables/<id>/analysis/`` (one table) and
``POST /api/v1/tournaments/<id>/rounds/<n>/analysis/`` (a round, for its organisers).

``GET`` answers 200 with the analysis when it is done (or failed), 202 ``{"status": "queued" |
"running"}`` while it waits, 404 when nobody asked for it. ``POST`` asks for it: 202 while it
waits, 200 when it is done already (asking again never computes it twice)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.errors import InvalidInput
from common.schema import errors
from common.throttles import ScopedThrottle
from engine import IllegalMove
from engine import analysis as engine_analysis
from games.models import Move
from games.review import effects_in_words, seat_names
from games.selectors import initial_state, replay_step

from . import analyse
from .models import Analysis


# ---------------------------------------------------------------- shapes
class LineMoveOut(serializers.Serializer):
    move = serializers.CharField()
    seat = serializers.IntegerField(help_text="the seat that would play it")


class AnalysedPlyOut(serializers.Serializer):
    seq = serializers.IntegerField(help_text="the action's number at the table, from 0")
    action = serializers.CharField(help_text="the move in notation, or resign N / timeout N")
    kind = serializers.CharField(help_text="move, resign or timeout")
    seat = serializers.IntegerField(help_text="the mover (or the seat that resigned or timed out)")
    values = serializers.ListField(
        child=serializers.FloatField(),
        help_text="every seat's expected score after the action, seat 1 first: 1 is first place, 0 last "
        "(with two players, the winning chance)",
    )
    judged = serializers.BooleanField(help_text="a move with a choice, judged by the search")
    forced = serializers.BooleanField(help_text="the only move there was")
    before = serializers.FloatField(allow_null=True, help_text="the mover's expected score, best move")
    after = serializers.FloatField(allow_null=True, help_text="the mover's expected score, move played")
    loss = serializers.FloatField(help_text="before − after, at least 0")
    mark = serializers.ChoiceField(
        choices=["inaccuracy", "mistake", "blunder"],
        allow_null=True,
        help_text="by the loss",
    )
    symbol = serializers.CharField(allow_null=True, help_text="?! ? or ?? for a marked move")
    best = serializers.CharField(allow_null=True, help_text="a marked move: the move the search preferred")
    best_words = serializers.ListField(
        child=serializers.CharField(),
        help_text="what the preferred move does, in words",
    )
    line = LineMoveOut(many=True, help_text="a marked move: the line expected, preferred move first")


class SeatSummaryOut(serializers.Serializer):
    moves = serializers.IntegerField(help_text="moves judged (forced moves are not)")
    inaccuracies = serializers.IntegerField()
    mistakes = serializers.IntegerField()
    blunders = serializers.IntegerField()
    average_loss = serializers.FloatField(help_text="the mean loss of expected score per judged move")


class AnalysisOut(serializers.Serializer):
    status = serializers.CharField(help_text="done, or failed (then ask again)")
    detail = serializers.CharField(required=False, help_text="failed: what to do")
    table = serializers.IntegerField()
    depth = serializers.IntegerField(help_text="the depth whose work judged the moves (3–8)")
    players = serializers.IntegerField()
    work = serializers.IntegerField(help_text="search work per position (the level's node budget)")
    thresholds = serializers.DictField(
        child=serializers.FloatField(), help_text="the least loss of each mark: inaccuracy, mistake, blunder"
    )
    start = serializers.ListField(child=serializers.FloatField(), help_text="expected scores at the start")
    plies = AnalysedPlyOut(many=True)
    summary = serializers.DictField(child=SeatSummaryOut(), help_text='per seat ("1", "2", …)')
    finished_at = serializers.DateTimeField(allow_null=True)


class WaitingOut(serializers.Serializer):
    status = serializers.CharField(help_text="queued or running")
    table = serializers.IntegerField()
    depth = serializers.IntegerField()
    progress = serializers.DictField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="positions searched: done, total",
    )


class AnalysisIn(serializers.Serializer):
    depth = serializers.ChoiceField(
        choices=analyse.DEPTHS,
        default=analyse.DEFAULT_DEPTH,
        help_text="the depth whose work judges the moves (3–8, default 5): deeper is slower and surer",
    )


class AnalysedTableOut(serializers.Serializer):
    table = serializers.IntegerField()
    status = serializers.CharField(help_text="queued, running, done or failed")


class RoundAnalysisOut(serializers.Serializer):
    depth = serializers.IntegerField()
    tables = AnalysedTableOut(many=True, help_text="the round's finished tables")


DEPTH = OpenApiParameter(
    "depth",
    int,
    enum=list(analyse.DEPTHS),
    description="the depth (3–8). GET without it: the deepest analysis done, else the last "
    "asked for; POST: 5 unless the body or the query says",
)
EXAMPLE = OpenApiExample(
    "done",
    value={
        "status": "done",
        "table": 12,
        "depth": 5,
        "players": 2,
        "work": 500,
        "thresholds": {"inaccuracy": 0.05, "mistake": 0.1, "blunder": 0.2},
        "start": [0.5, 0.5],
        "plies": [
            {
                "seq": 0,
                "action": "a3-b4(b6)",
                "kind": "move",
                "seat": 1,
                "values": [0.41, 0.59],
                "judged": True,
                "forced": False,
                "before": 0.57,
                "after": 0.46,
                "loss": 0.11,
                "mark": "mistake",
                "symbol": "?",
                "best": "a3-b4(b4)",
                "best_words": ["a3-b4: moves 1 field NE", "marker on b4"],
                "line": [{"move": "a3-b4(b4)", "seat": 1}, {"move": "a7-b7", "seat": 2}],
            }
        ],
        "summary": {
            "1": {"moves": 1, "inaccuracies": 0, "mistakes": 1, "blunders": 0, "average_loss": 0.11},
            "2": {"moves": 0, "inaccuracies": 0, "mistakes": 0, "blunders": 0, "average_loss": 0.0},
        },
        "finished_at": "2026-11-27T14:00:00Z",
    },
    response_only=True,
    status_codes=["200"],
)


# ---------------------------------------------------------------- reading an analysis
def _seats(values: list[float]) -> list[float]:
    return list(values[1:])


def analysis_out(analysis: Analysis) -> dict[str, Any]:
    """The API's body of an analysis that is done or failed (the preferred moves in words in the
    active language)."""
    table = analysis.table
    body: dict[str, Any] = {
        "status": analysis.status,
        "table": table.pk,
        "depth": analysis.depth,
        "players": table.players,
        "work": analysis.summary.get("work", 0),
        "thresholds": {name: least for name, least in reversed(engine_analysis.MARKS)},
        "start": _seats(analysis.summary.get("start", [0.0] + [0.5] * table.players)),
        "plies": [],
        "summary": analysis.summary.get("seats", {}),
        "finished_at": analysis.finished_at,
    }
    if analysis.status != Analysis.Status.DONE:
        body["detail"] = _("the analysis failed; ask for it again")
        return body
    names = seat_names(table)
    state = initial_state(table)
    for ply, move in zip(analysis.plies, Move.objects.filter(table=table).order_by("seq"), strict=False):
        entry = {
            **ply,
            "values": _seats(ply["values"]),
            "symbol": engine_analysis.SYMBOLS.get(ply["mark"] or ""),
        }
        entry["best_words"], entry["line"] = [], []
        if ply["best"]:
            try:
                entry["best_words"] = effects_in_words(state, state.play(ply["best"]), names)
                entry["line"] = _line(state, ply["line"])
            except IllegalMove:  # an analysis made by an older engine: shown without words
                pass
        body["plies"].append(entry)
        state = replay_step(state, move)
    return body


def _line(state: Any, moves: list[str]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for move in moves:
        if state.is_over:
            break
        out.append({"move": move, "seat": state.to_move})
        state = state.play(move)
    return out


def waiting_out(analysis: Analysis) -> dict[str, Any]:
    progress = analysis.summary.get("progress") if analysis.status == Analysis.Status.RUNNING else None
    return {
        "status": analysis.status,
        "table": analysis.table_id,
        "depth": analysis.depth,
        "progress": progress,
    }


def _answer(analysis: Analysis) -> Response:
    if analysis.status in (Analysis.Status.QUEUED, Analysis.Status.RUNNING):
        return Response(waiting_out(analysis), status=status.HTTP_202_ACCEPTED)
    return Response(analysis_out(analysis))


def _depth(request: Request, required: bool) -> int | None:
    raw = request.query_params.get("depth")
    if raw is None and isinstance(request.data, dict):
        raw = request.data.get("depth")
    if raw is None:
        return None if not required else analyse.DEFAULT_DEPTH
    body = AnalysisIn(data={"depth": raw})
    if not body.is_valid():
        raise InvalidInput(
            _("depth: choose a depth from %(low)s to %(high)s")
            % {"low": analyse.DEPTHS[0], "high": analyse.DEPTHS[-1]}
        )
    return int(body.validated_data["depth"])


# ---------------------------------------------------------------- views
class TableAnalysisApi(APIView):
    """A finished table's analysis: read it (GET), ask for it (POST)."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    throttle_scope = "watch"

    def get_throttles(self) -> list[Any]:
        # Pages poll the GET while the analysis waits (the game pages' budget); a POST counts
        # against the usual ones.
        if self.request.method in ("GET", "HEAD"):
            return [ScopedThrottle()]
        return super().get_throttles()

    @extend_schema(
        parameters=[DEPTH],
        responses={200: AnalysisOut, 202: WaitingOut, **errors(400, 404)},
        examples=[EXAMPLE],
        description="The analysis of a finished table: every action with each seat's expected score after "
        "it (1 first place, 0 last; with two players the winning chance), the mover's loss of expected "
        "score, marks (inaccuracy ≥ 0.05, mistake ≥ 0.10, blunder ≥ 0.20) and, at a marked move, the "
        "engine's preferred move in words with the line it expects; a summary per seat. 202 while it is "
        "queued or running (poll every few seconds), 404 `not_requested` when nobody asked for it.",
    )
    def get(self, request: Request, table_id: int) -> Response:
        depth = _depth(request, required=False)
        found = analyse.find_analysis(table_id=table_id, depth=depth)
        return _answer(found)

    @extend_schema(
        parameters=[DEPTH],
        request=AnalysisIn,
        responses={200: AnalysisOut, 202: WaitingOut, **errors(400, 401, 404, 409, 429)},
        description="Ask for the analysis of a finished table (any signed-in player). It is made once on "
        "the slow queue and kept: asking again, at the same depth, gives the same one. 202 while it waits, "
        "200 when it is done already. 409 `table_not_finished`; 429 `too_many_analyses`: three of your "
        "requests are still waiting.",
    )
    def post(self, request: Request, table_id: int) -> Response:
        depth = _depth(request, required=True)
        assert depth is not None
        analysis = analyse.request_analysis(table_id=table_id, user=request.user, depth=depth)
        return _answer(analysis)


class RoundAnalysisApi(APIView):
    """Analysis of every finished table of a round, for the event's organisers."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        parameters=[DEPTH],
        request=AnalysisIn,
        responses={202: RoundAnalysisOut, **errors(400, 401, 403, 404)},
        description="Ask for the analysis of every finished table of the round (the event's organisers "
        "and staff): each is made once on the slow queue (tables analysed already at this depth are not "
        "analysed again). Read each with GET /api/v1/tables/{id}/analysis/.",
    )
    def post(self, request: Request, tournament_id: int, number: int) -> Response:
        depth = _depth(request, required=True)
        assert depth is not None
        rows = analyse.request_round_analysis(
            tournament_id=tournament_id, round_number=number, user=request.user, depth=depth
        )
        tables = [{"table": a.table_id, "status": a.status} for a in rows]
        return Response({"depth": depth, "tables": tables}, status=status.HTTP_202_ACCEPTED)
