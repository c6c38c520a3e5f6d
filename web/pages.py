"""Server-rendered pages: the lobby, the game page (with the players' ratings), sign-up and guest play.

Every write goes through the same services as the API (same checks, same
transactions); pages add session authentication with CSRF. The game page is
a shell: ``static/js/game.js`` draws the board and talks to the API.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

import engine
from accounts import notify
from accounts import services as account_services
from analysis import hints
from common.errors import NotFound, ServiceError
from common.http import conditional, fragment_response
from common.players import visitor_player
from common.redirects import redirect_next
from common.throttles import client_address
from community import challenges, friends
from community import pages as chat_pages
from engine.render import board_text
from games import botlevels, selectors, services, vacation
from games.guests import guest_creation_allowed
from games.housebots import bots_levels
from games.models import GameKind, Move, Table
from games.results import Ending
from games.wording import SEAT_ENDINGS, describe_tables
from live.views import push_enabled
from tournaments.arena import services as arena_services
from tournaments.pools import selectors as pools

from . import my_reads
from .arena_strip import arena_strip

#: Time controls offered by the lobby form (the API takes any valid one).
TIME_CONTROLS: dict[str, dict[str, Any]] = {
    "untimed": {"kind": "untimed"},
    "blitz": {"kind": "fischer", "base": 180, "increment": 2},
    "rapid": {"kind": "fischer", "base": 600, "increment": 5},
    "classical": {"kind": "fischer", "base": 1800, "increment": 20},
    "byoyomi": {"kind": "byoyomi", "base": 300, "periods": 3, "period": 30},
    "correspondence": {"kind": "correspondence", "days": 3},
}
TIME_CONTROL_LABELS = [
    ("untimed", gettext_lazy("Untimed")),
    ("blitz", gettext_lazy("Blitz 3 min + 2 s")),
    ("rapid", gettext_lazy("Rapid 10 min + 5 s")),
    ("classical", gettext_lazy("Classical 30 min + 20 s")),
    ("byoyomi", gettext_lazy("Byo-yomi 5 min, 3 × 30 s")),
    ("correspondence", gettext_lazy("Correspondence, 3 days a move")),
]
BOT_LEVELS = [("", gettext_lazy("no bot")), *botlevels.choices()]


class BotLevelField(forms.ChoiceField):
    """The levels 1–8 as choices; the legacy kinds (random, greedy, search) are still accepted."""

    def valid_value(self, value: Any) -> bool:
        return value in bots_levels() or super().valid_value(value)


class TableForm(forms.Form):
    game = forms.ChoiceField(choices=GameKind.choices, initial="pacru", label=gettext_lazy("Game"))
    players = forms.TypedChoiceField(
        choices=[(2, "2"), (3, "3"), (4, "4")], coerce=int, initial=2, label=gettext_lazy("Players")
    )
    edition = forms.ChoiceField(
        choices=[
            ("302", gettext_lazy("302 (booklet)")),
            ("2011", gettext_lazy("2011 (meeting needs 9 markers)")),
        ],
        initial="302",
        label=gettext_lazy("Edition"),
        help_text=gettext_lazy("Pacru only"),
    )
    time_control = forms.ChoiceField(
        choices=TIME_CONTROL_LABELS, initial="untimed", label=gettext_lazy("Time control")
    )
    rated = forms.BooleanField(
        required=False,
        initial=True,
        label=gettext_lazy("Rated"),
        help_text=gettext_lazy("casual games are not rated; games with bots never are"),
    )
    bot = BotLevelField(choices=BOT_LEVELS, required=False, label=gettext_lazy("Invite bots"))
    bots = forms.TypedChoiceField(
        choices=[(1, "1"), (2, "2"), (3, "3")], coerce=int, initial=1, label=gettext_lazy("How many bots")
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("bot") and data.get("bots", 1) >= data.get("players", 2):
            raise forms.ValidationError(_("leave at least one seat for yourself: fewer bots than players"))
        if data.get("bot"):
            data["rated"] = False  # house bots play unrated tables only (games.services.tables.BOTS_UNRATED)
        return data


class SignupForm(UserCreationForm):  # type: ignore[type-arg]
    """The sign-up page's form. It checks the rules ``accounts.services.sign_up`` applies (the same
    functions), so that every field's problem shows at once; the service checks them again, in
    its transaction, and does all the writing (never ``form.save()``)."""

    display_name = forms.CharField(
        max_length=40,
        required=False,
        label=gettext_lazy("Display name"),
        help_text=gettext_lazy("shown at tables (optional)"),
    )
    email = forms.EmailField(
        max_length=254,
        required=False,
        label=gettext_lazy("E-mail address"),
        help_text=gettext_lazy(
            "to reset a forgotten password and be told when it is your turn (we send a link to confirm it)"
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["email"].required = settings.SIGNUP_EMAIL_REQUIRED

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username",)

    def clean_username(self) -> str:
        username = super().clean_username()  # None when taken (Django reports it)
        try:  # look-alikes of a taken username, and deleted accounts' (games.services.username_check)
            if username:
                services.username_check(username=username)
        except ServiceError as exc:
            raise forms.ValidationError(exc.extra.get("fields", {}).get("username", [str(exc)])) from None
        return username

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        # The name shown at tables (the username when none is given): games.names' rules.
        if data.get("username") and not self.has_error("display_name"):
            try:
                data["display_name"] = services.display_name_check(
                    display_name=data.get("display_name") or data["username"]
                )
            except ServiceError as exc:
                self.add_error("display_name", exc.extra.get("fields", {}).get("display_name", [str(exc)]))
        if data.get("email") and not self.has_error("email"):
            try:
                data["email"] = account_services.clean_email(email=data["email"])
            except ServiceError as exc:
                self.add_error("email", exc.extra.get("fields", {}).get("email", [str(exc)]))
        return data


def _lobby_context(request: HttpRequest) -> dict[str, Any]:
    tables = selectors.table_list()
    me = visitor_player(request)
    context: dict[str, Any] = {"me": me, "mine_ids": set(), "your_turns": 0}
    if me is not None:
        # My tables (web.my_reads): every table where it is my turn (as the site bar counts them),
        # then the others in play, my open tables and the last finished ones.
        mine = my_reads.my_tables(me)
        context.update(
            my=mine,
            mine_ids={m.t.pk for m in [*mine.turn, *mine.others, *mine.open]},
            your_turns=len(mine.turn),
        )
    context.update(
        # Each list reads the head of an index (games.models.Table.Meta): its cost does not grow
        # with the finished history.
        # A challenge to a table (Table.invited) is for the player challenged: not listed here.
        open_tables=selectors.tables_with_open_seats(tables)
        .filter(invited__isnull=True)
        .order_by("-id")[:20],
        active_tables=tables.filter(status=Table.Status.ACTIVE).order_by("-started_at")[:20],
        finished_tables=_with_results(
            tables.filter(status=Table.Status.FINISHED).order_by("-finished_at")[:10]
        ),
    )
    return context


def _with_results(tables: Any) -> list[Table]:
    """The tables, each with ``result_words`` (``games.wording``: "Alice won", how it ended)."""
    found = list(tables)
    names = {s.player_id: s.player.display_name for t in found for s in t.seats.all()}
    results = describe_tables([t.pk for t in found], names)
    for t in found:
        t.result_words = results.get(t.pk)  # type: ignore[attr-defined]
    return found


def _home_context(request: HttpRequest, form: TableForm | None = None) -> dict[str, Any]:
    """The whole lobby; for a logged-in player "My page": also my events, the challenges waiting
    for me and mine, my ladder places (read once per page load: the live part is the tables)."""
    context = _lobby_context(request)
    context.update(form=form or TableForm(), guest_play=settings.GUEST_PLAY, bot_levels=botlevels.LEVEL_TEXTS)
    # "Play now": the quick pairing pools (tournaments.pools; its live fragment is /play-now/).
    context.update(play=pools.play_now(context["me"]))
    if context["me"] is not None:
        context.update(events=my_reads.my_events(context["me"]), ladders=my_reads.my_ladders(context["me"]))
        context.update(whats_next=my_reads.whats_next(context["me"]))
        # Friends online or playing, and challenges to a table (community.friends, .challenges).
        me = context["me"]
        context.update(friends=friends.friends(player=me), challenged=challenges.waiting_for(player=me))
        context.update(challenging=challenges.sent_by(player=me))
    return context


def home(request: HttpRequest) -> HttpResponse:
    if request.GET.get("fragment") == "lobby":
        # Polled about once a second by every open lobby: answer 304 from one aggregate query.
        return conditional(
            request,
            selectors.lobby_version(request.user.pk),
            lambda: render(
                request,
                "games/_lobby.html",
                {**_lobby_context(request), "part": request.GET.get("part", "")},
            ),
        )
    return render(request, "games/home.html", _home_context(request))


@login_required
@require_POST
def table_create_page(request: HttpRequest) -> HttpResponse:
    form = TableForm(request.POST)
    if not form.is_valid():
        return render(request, "games/home.html", _home_context(request, form), status=400)
    data = form.cleaned_data
    player = visitor_player(request)
    assert player is not None
    try:
        # The table and its bots in one transaction: a refused invitation leaves no table behind.
        table = services.table_create(
            creator=player,
            game=data["game"],
            players=data["players"],
            edition=data["edition"],
            rated=data["rated"],
            time_control=TIME_CONTROLS[data["time_control"]],
            bot=data["bot"],
            bots=data["bots"],
        )
    except ServiceError as exc:
        messages.error(request, str(exc))
        return redirect("home")
    return redirect("table", table.pk)


@login_required
@require_POST
def table_action_page(request: HttpRequest, table_id: int, action: str) -> HttpResponse:
    """Join, leave or invite a bot from a page (the game page's own moves go through the API)."""
    player = visitor_player(request)
    assert player is not None
    try:
        if action == "join":
            services.seat_join(table_id=table_id, player=player)
        elif action == "leave":
            services.seat_leave(table_id=table_id, player=player)
        elif action in ("decline", "withdraw"):  # a challenge to the table (community.challenges)
            getattr(challenges, action)(table_id=table_id, player=player)
            return redirect_next(request, reverse("table", args=[table_id]))  # My page's: back there
        elif action == "invite-bot":
            services.bot_invite(table_id=table_id, player=player, level=request.POST.get("level", ""))
        elif action == "berserk":  # an arena's table: halve your own clock for a point more on a win
            arena_services.berserk(table_id=table_id, player=player)
            messages.success(
                request, _("You went berserk: your clock is halved, and a win earns you a point more.")
            )
        elif action == "rematch":
            try:
                return redirect("table", services.table_rematch(table_id=table_id, player=player).pk)
            except NotFound:
                raise Http404(f"there is no table {table_id}") from None
        else:
            raise Http404(f"no action {action!r}")
    except ServiceError as exc:
        messages.error(request, str(exc))
    return redirect("table", table_id)


def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    try:
        table = selectors.table_detail(table_id)
    except Table.DoesNotExist:
        raise Http404(f"there is no table {table_id}") from None
    me = visitor_player(request)
    my_seat = next((s.number for s in table.seats.all() if me and s.player_id == me.pk), None)
    if request.GET.get("fragment") == "arena":  # the arena strip, followed live (the player's topic)
        moved_yet = Move.objects.filter(table=table, seat=my_seat, kind=Move.Kind.MOVE).exists()
        strip = arena_strip(table, me, moved_yet)
        if strip is None:
            raise Http404("not an arena's table")
        return fragment_response(request, "games/_arena_strip.html", {"table": table, "strip": strip})
    if my_seat is not None and me is not None:
        notify.mark_read_at(user_id=me.user_id, url=request.path)  # the table's notifications are seen
    # Ratings as pages show them (ratings.display: 60 × mu, "1500?" while provisional).
    seat_ratings = my_reads.display_ratings(table.game, [s.player_id for s in table.seats.all()])
    boot = {
        "id": table.pk,
        "game": table.game,
        "mySeat": my_seat,
        "players": table.players,  # the page turns the board to the viewer's home edge (RULES §2)
        "api": f"/api/v1/tables/{table.pk}/",
        # The rating as pages show it; null for a player without one (game.js says "rating new").
        "ratings": {str(s.number): seat_ratings.get(s.player_id) for s in table.seats.all()},
    }
    moves = selectors.move_history(table)
    moved = {m.seat for m in moves if m.kind == Move.Kind.MOVE}
    strip = arena_strip(table, me, my_seat in moved)
    words = my_reads.table_result_words(table, moved)
    # What the script needs to say the no-show rule truthfully (see the report on game.js).
    boot["noShow"] = table.no_show
    # Why an aborted table ended, for the result banner (game.js hides the server-written words).
    if words["aborted"]:
        boot["abortedSentence"] = _("This table was %(aborted)s.") % {"aborted": words["aborted"]}
    # The table's push stream (server-sent events), when this server offers it (live.views).
    boot["push"] = reverse("live-table", args=[table.pk]) if push_enabled(request) else None
    boot["noShowSeats"] = [n for n, e in words["seat_endings"].items() if e == SEAT_ENDINGS[Ending.NO_SHOW]]
    # "on vacation until …" beside a seat whose correspondence clock waits for its player's return.
    boot["vacation"] = vacation.seat_notes(table=table)
    # "Show me a good move" for the seated player (analysis.hints: casual games against the bots).
    boot["hint"] = hints.offered(table=table, seat=my_seat)
    context = {
        "table": table,
        "boot": boot,
        # Where the game belongs (an event's round and board, a ladder challenge or queue).
        "belongs": my_reads.table_belongs(table),
        "no_show_note": my_reads.no_show_note(table, me),
        **words,
        # For readers without JavaScript: the position as text and the move list.
        "board": board_text(engine.load(table.position)) if table.position else "",
        "moves": moves,
        "my_seat": my_seat,
        "bot_levels": BOT_LEVELS[1:],
        "arena_strip": strip,
        "can_invite": table.status == Table.Status.OPEN and me is not None
        and (my_seat is not None or table.created_by_id == me.pk),
        # The table's chat rooms as this viewer sees them (community.pages, static/js/chat.js).
        "chat": chat_pages.table_panel(request=request, table=table),
    }  # fmt: skip
    context["challenge"] = challenges.table_note(table=table, player=me)  # "X challenges you: …"
    return render(request, "games/table.html", context)


def _signup_refused(form: SignupForm, exc: ServiceError) -> None:
    """Show a refusal of ``accounts.services.sign_up`` on the field it is about (the form checked
    the same rules first, so this is a name taken meanwhile, or a mail limit reached)."""
    fields = exc.extra.get("fields") or {}
    for field, problems in fields.items():
        form.add_error(field if field in form.fields else None, problems)
    if not fields:
        form.add_error("email" if exc.status_code == 429 else None, str(exc))


def signup(request: HttpRequest) -> HttpResponse:
    """The sign-up page: the account is made by ``accounts.services.sign_up`` (as the register
    API's is); the page signs the new player in (a session, where the API gives a token)."""
    if request.method == "POST":
        form = SignupForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                player = account_services.sign_up(
                    username=data["username"],
                    password=data["password1"],
                    email=data.get("email") or "",
                    display_name=data["display_name"],
                    client=client_address(request),
                )
            except ServiceError as exc:
                _signup_refused(form, exc)
            else:
                login(request, player.user, backend="django.contrib.auth.backends.ModelBackend")
                # A confirmation link went out: the next page says so, and where to.
                return redirect("signup-check-mail" if player.user.email else "home")
    else:
        form = SignupForm()
    return render(request, "registration/signup.html", {"form": form})


@login_required
def signup_check_mail(request: HttpRequest) -> HttpResponse:
    """After a sign-up with an address: "check your mail", the address the link went to, and what
    to do if it does not come (send it again, correct the address). Without an address to
    confirm (none given, or already confirmed) there is nothing to wait for: the lobby."""
    address = request.user.email
    if not address or account_services.is_verified(user=request.user):
        return redirect("home")
    return render(request, "registration/signup_check_mail.html", {"address": address})


@require_POST
def play_bot(request: HttpRequest) -> HttpResponse:
    """One click to a casual game against a bot: a visitor gets a guest account (``GUEST_PLAY``;
    at most ``GUEST_RATE`` per address). The level is checked before anything is made, and the
    table and its bot are made in one transaction: a failure leaves neither."""
    level = request.POST.get("level", "2")
    game = request.POST.get("game", "pacru")
    if level not in bots_levels() or game not in GameKind.values:
        messages.error(
            request,
            # Translators: %(levels)s lists the bot levels: "1, 2, … 8, random, greedy, search".
            _("choose a bot level (%(levels)s) and a game") % {"levels": ", ".join(bots_levels())},
        )
        return redirect("home")
    if not request.user.is_authenticated:
        if not settings.GUEST_PLAY:
            return redirect("signup")
        if not guest_creation_allowed(request):
            messages.error(
                request, _("too many guest accounts from your address: try again later, or sign up")
            )
            return render(request, "games/home.html", _home_context(request), status=429)
        guest = services.guest_create()
        login(request, guest.user, backend="django.contrib.auth.backends.ModelBackend")
    player = visitor_player(request)
    assert player is not None
    try:
        table = services.table_create(creator=player, game=game, players=2, rated=False, bot=level)
    except ServiceError as exc:
        messages.error(request, str(exc))
        return redirect("home")
    return redirect("table", table.pk)
