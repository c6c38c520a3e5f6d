"""Input and output shapes of the games API."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import serializers

import engine
from common.validation import DB_INT_MAX
from engine.bots import LEVELS as KINDS
from engine.bots.levels import CODES as LEVEL_CODES

from . import selectors
from .clocks import TimeControl
from .models import GameKind, Move, Player, Seat, Table


# ----------------------------------------------------------------------- input
class RegisterIn(serializers.Serializer):
    username = serializers.RegexField(
        r"^[A-Za-z0-9_.-]{3,30}$",
        error_messages={"invalid": gettext_lazy("use 3 to 30 letters, digits, '_', '.' or '-'")},
    )
    password = serializers.CharField(min_length=8, max_length=128, write_only=True)
    display_name = serializers.CharField(max_length=40, required=False, allow_blank=True)


class TokenIn(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, write_only=True)


class TableCreateIn(serializers.Serializer):
    game = serializers.ChoiceField(choices=GameKind.choices)
    players = serializers.IntegerField(min_value=2, max_value=4)
    edition = serializers.ChoiceField(choices=[("302", "302"), ("2011", "2011")], default="302")
    ply_limit = serializers.IntegerField(min_value=1, max_value=10000, default=1000)
    rated = serializers.BooleanField(
        required=False,
        allow_null=True,
        default=None,
        help_text="rated unless bots are invited: house bots play unrated tables only (rated: true with "
        "bot is refused)",
    )
    join = serializers.BooleanField(default=True, help_text="take a seat at the new table")
    seat = serializers.IntegerField(min_value=1, max_value=4, required=False, allow_null=True)
    time_control = serializers.JSONField(
        required=False,
        help_text='e.g. {"kind": "fischer", "base": 600, "increment": 5}; kinds: untimed, fischer '
        "(base, increment), delay (base, delay), byoyomi (base, periods, period), correspondence "
        "(days, bank_days, vacation: false lets clocks run during vacations); seconds unless named days",
    )
    bot = serializers.CharField(
        max_length=10,
        required=False,
        allow_blank=True,
        help_text="invite house bots of this level (1 to 8, or random, greedy, search) at once: the "
        "table and its bots, or nothing",
    )
    bots = serializers.IntegerField(min_value=1, max_value=3, default=1, help_text="how many bots")


class JoinIn(serializers.Serializer):
    seat = serializers.IntegerField(min_value=1, max_value=4, required=False, allow_null=True)


#: The longest move notation accepted.
MOVE_MAX = 80


class MoveIn(serializers.Serializer):
    ply = serializers.IntegerField(
        min_value=0, max_value=DB_INT_MAX, help_text="the table's ply the move answers"
    )
    move = serializers.CharField(max_length=MOVE_MAX, help_text="notation, e.g. g9-e7(*) or a3-b4(b4)")


class InviteBotIn(serializers.Serializer):
    level = serializers.ChoiceField(
        choices=[(c, c) for c in (*LEVEL_CODES, *KINDS)],
        required=False,
        help_text="a house bot of this level: 1 (weakest) to 8, or a legacy kind random, greedy, search",
    )
    player = serializers.IntegerField(
        min_value=1,
        required=False,
        help_text="or an outside bot account (its program plays through the API): its player id",
    )

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if ("level" in data) == ("player" in data):
            raise serializers.ValidationError(
                # Translators: level and player are the names of the request's fields: keep them.
                _("give either level (a house bot) or player (an outside bot account)")
            )
        return data

    seat = serializers.IntegerField(min_value=1, max_value=4, required=False, allow_null=True)


class ImportIn(serializers.Serializer):
    record = serializers.CharField(max_length=200_000, help_text="a game record in the engine's format")
    rated = serializers.BooleanField(default=False)


# ---------------------------------------------------------------------- output
class PlayerBriefOut(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username")

    class Meta:
        model = Player
        fields = ["id", "username", "display_name", "is_bot"]


class PlayerOut(PlayerBriefOut):
    tables_played = serializers.IntegerField(read_only=True)

    class Meta(PlayerBriefOut.Meta):
        fields = [*PlayerBriefOut.Meta.fields, "created", "tables_played"]


class SeatOut(serializers.ModelSerializer):
    player = PlayerBriefOut()

    class Meta:
        model = Seat
        fields = [
            "number",
            "colour",
            "player",
            "state",
            "eliminated_at_ply",
            "elimination_reason",
            "rank",
            "markers",
        ]


class MoveOut(serializers.ModelSerializer):
    class Meta:
        model = Move
        fields = ["seq", "ply", "seat", "kind", "notation", "played_at"]


class TableOut(serializers.ModelSerializer):
    seats = SeatOut(many=True, read_only=True)
    created_by = PlayerBriefOut(read_only=True)
    seats_taken = serializers.SerializerMethodField()
    scores = serializers.SerializerMethodField()
    target = serializers.SerializerMethodField()
    invited = serializers.IntegerField(
        source="invited_id",
        read_only=True,
        allow_null=True,
        help_text="a challenge to a table: the player a seat is kept for until they take it or decline",
    )

    class Meta:
        model = Table
        fields = [
            "id",
            "game",
            "edition",
            "players",
            "ply_limit",
            "rated",
            "status",
            "created_by",
            "invited",
            "created_at",
            "started_at",
            "finished_at",
            "ply",
            "to_move",
            "seats_taken",
            "seats",
            "scores",
            "target",
            "end_reason",
            "winner_seat",
            "result",
            "time_control",
            "time_control_text",
            "clocks",
            "turn_started_at",
            "deadline",
        ]

    time_control_text = serializers.SerializerMethodField()

    def to_representation(self, instance: Table) -> dict[str, Any]:
        data: dict[str, Any] = super().to_representation(instance)
        if instance.status == Table.Status.ACTIVE and instance.position:
            # A seat's stored markers are written when the game ends; during play they are the board's.
            now = engine.position_scores(instance.position)
            for seat in data["seats"]:
                seat["markers"] = now.get(seat["number"], seat["markers"])
        return data

    def get_time_control_text(self, table: Table) -> str:
        return TimeControl.from_dict(table.time_control).describe()

    def get_seats_taken(self, table: Table) -> int:
        # The prefetched seats (selectors.table_list): no aggregate over the list's query.
        return len(table.seats.all())

    def get_scores(self, table: Table) -> dict[str, int]:
        if not table.position:
            # A finished table's markers are in its result too, which archiving keeps (lists do not
            # rebuild an archived position from the move log).
            stored = (table.result or {}).get("scores") if isinstance(table.result, dict) else None
            return {str(seat): int(n) for seat, n in stored.items()} if isinstance(stored, dict) else {}
        return {str(seat): n for seat, n in engine.position_scores(table.position).items()}

    def get_target(self, table: Table) -> int | None:
        return engine.variant(table.game).target(table.players)


class TableDetailOut(TableOut):
    position = serializers.JSONField(read_only=True)
    base_moves = serializers.SerializerMethodField()
    choices = serializers.SerializerMethodField()
    reorient = serializers.SerializerMethodField(
        help_text="Pacru: chevron cells that may turn, affordable turns and the markers that may pay"
    )
    moves = serializers.SerializerMethodField()
    powers = serializers.SerializerMethodField(
        help_text="each chevron's power (how far it may move), by its field, as the engine counts it; "
        "{} before the start"
    )
    rules = serializers.SerializerMethodField(
        help_text="what the game's rules offer: reorientation (a chevron turns in place, paying markers), "
        "twist (border crossings take a twist; listed moves are complete), notation_examples"
    )
    server_time = serializers.SerializerMethodField(help_text="the server's clock, to correct for drift")
    clock_grace = serializers.SerializerMethodField(help_text="seconds past a deadline a move still counts")

    class Meta(TableOut.Meta):
        fields = [
            *TableOut.Meta.fields,
            "position",
            "base_moves",
            "choices",
            "reorient",
            "moves",
            "powers",
            "rules",
            "server_time",
            "clock_grace",
        ]

    def get_server_time(self, table: Table) -> str:
        return timezone.now().isoformat().replace("+00:00", "Z")

    def get_clock_grace(self, table: Table) -> float:
        return float(settings.CLOCK_GRACE_SECONDS)

    def _state(self, table: Table) -> Any:
        """The table's position loaded once per answer (the legal moves and the powers read it)."""
        cache = self.context.setdefault("_state", {})
        if table.pk not in cache:
            cache[table.pk] = engine.load(table.position) if table.position else None
        return cache[table.pk]

    def _legal(self, table: Table) -> dict[str, Any]:
        cache = self.context.setdefault("_legal", {})
        if table.pk not in cache:
            cache[table.pk] = selectors.legal_for_turn(table, state=self._state(table))
        return cache[table.pk]  # type: ignore[no-any-return]

    def get_base_moves(self, table: Table) -> list[str]:
        return self._legal(table)["base_moves"]  # type: ignore[no-any-return]

    def get_choices(self, table: Table) -> dict[str, Any]:
        return self._legal(table)["choices"]  # type: ignore[no-any-return]

    def get_reorient(self, table: Table) -> dict[str, Any] | None:
        return self._legal(table)["reorient"]  # type: ignore[no-any-return]

    def get_moves(self, table: Table) -> list[str]:
        return [m.action for m in table.moves.order_by("seq")]

    def get_powers(self, table: Table) -> dict[str, int]:
        state = self._state(table)
        return state.powers() if state is not None else {}

    def get_rules(self, table: Table) -> dict[str, Any]:
        return engine.variant(table.game).rules


class MoveTableOut(serializers.Serializer):
    """The table just after a move: enough to go on without reloading it."""

    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Table.Status.choices)
    ply = serializers.IntegerField()
    to_move = serializers.IntegerField(allow_null=True)
    result = serializers.JSONField(
        allow_null=True,
        help_text="ranking, scores, winner, end (when finished); aborted: true when a rated table ended "
        "before every seat had moved (then rated for nobody, and rated is false)",
    )
    clocks = serializers.JSONField(allow_null=True)
    turn_started_at = serializers.DateTimeField(allow_null=True)
    deadline = serializers.DateTimeField(allow_null=True)
    server_time = serializers.DateTimeField()


class MoveResultOut(serializers.Serializer):
    """The answer to a move submission (rendered by hand in the view, documented here)."""

    move = MoveOut()
    table = MoveTableOut()


class PlayerDetailOut(PlayerOut):
    tables = TableOut(many=True, read_only=True, help_text="the player's latest tables, newest first")

    class Meta(PlayerOut.Meta):
        fields = [*PlayerOut.Meta.fields, "tables"]


class ReadyCheckOut(serializers.Serializer):
    ok = serializers.BooleanField()


class ReadyOut(serializers.Serializer):
    status = serializers.CharField(
        help_text='"unready" (503) when the database does not answer: the only check a load balancer '
        'acts on; "degraded" (200, still serving) when another check fails, named in `degraded` '
        '(shown only with `checks`: anyone else gets "ready"); else "ready" (200)'
    )
    time = serializers.DateTimeField()
    degraded = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="the failing checks that do not take the host out (redis, clock_sweep, overdue_tables, "
        "bot_turns): alert on them through /metrics. With `checks` only.",
    )
    checks = serializers.DictField(
        child=ReadyCheckOut(),
        required=False,
        help_text=(
            "database, redis (with queue depths: messages waiting per queue and `unacked`, held by "
            "workers), clock_sweep (age of the last run), overdue_tables, bot_turns (stranded); "
            "each with `ok` and its reading, or `error`. Only for local clients and for "
            "`Authorization: Bearer <METRICS_TOKEN>` (as /metrics); absent for anyone else."
        ),
    )


class HealthOut(serializers.Serializer):
    status = serializers.CharField(help_text='"ok" when the database answers')
    time = serializers.DateTimeField(help_text="the server's clock")


class TokenOut(serializers.Serializer):
    token = serializers.CharField()
    device = serializers.CharField(
        help_text="a device cookie for this account (also set as a cookie): send it back in the "
        "X-Device-Cookie header when signing in again (common.devices)"
    )


class ActionPositionOut(serializers.Serializer):
    seq = serializers.IntegerField()
    ply = serializers.IntegerField(allow_null=True, help_text="null for resignations and timeouts")
    seat = serializers.IntegerField()
    action = serializers.CharField(help_text="the record line: a move, or resign N / timeout N")
    position = serializers.JSONField(help_text="the position after this action")
    powers = serializers.JSONField(help_text="each chevron's power in that position, by its field")


class PositionsOut(serializers.Serializer):
    start = serializers.JSONField(help_text="the start position")
    start_powers = serializers.JSONField(help_text="each chevron's power at the start, by its field")
    actions = ActionPositionOut(many=True)
