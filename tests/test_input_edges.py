"""Numbers and redirects from clients, at the edges: other scripts' digits, numbers beyond 64 bits,
a POST without its trailing slash, and a ``next`` that leads off the site.

``"²".isdigit()`` is true and ``int("²")`` fails; ``int("٣")`` is 3. Every number a client sends is
read by ``common.validation.ascii_int`` (ASCII digits, 64-bit): the API answers 400 in its error
shape, pages ignore the junk or say what is wrong, and nothing changes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from accounts.models import Notification
from common import validation
from common.validation import DB_INT_MAX
from games import services as games
from games.models import Table
from tournaments.competitions import services as clubs
from tournaments.models import Announcement, Registration, Tournament

from .games.conftest import Actor, as_organiser, ladder_for, started_table
from .tournaments.test_formats_flow import current_tables

pytestmark = pytest.mark.django_db

#: Digits that ``str.isdigit()`` passes: superscript two, Arabic-Indic three, fullwidth seven.
ODD_DIGITS = ["²", "٣", "７", "1²"]


def client_for(actor: Actor) -> Client:
    c = Client()
    c.force_login(actor.player.user)
    return c


def messages_of(response: Any) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def _api_error(response: Any, status: int = 400) -> dict[str, Any]:
    assert response.status_code == status, (response.status_code, response.content[:300])
    body = response.json()
    assert set(body) >= {"detail", "code"} and body["code"] == "invalid", body
    return body


# ------------------------------------------------------------------ the parser


@pytest.mark.parametrize("text", ["0", "7", " 42 ", "+5", "9223372036854775807", "0009"])
def test_ascii_int_reads_ascii_whole_numbers(text: str) -> None:
    assert validation.ascii_int(text) == int(text)


@pytest.mark.parametrize(
    "value",
    [
        "",
        " ",
        "²",
        "٣",
        "７",
        "1²",
        "1e3",
        "0x10",
        "1.0",
        "1_000",
        "-1",
        "9223372036854775808",
        "9" * 40,
        None,
        True,
    ],
)
def test_ascii_int_refuses_everything_else_with_a_message(value: Any) -> None:
    with pytest.raises(ValueError, match="page"):
        validation.ascii_int(value, name="page")
    assert validation.ascii_int_or_none(value) is None


def test_ascii_int_bounds() -> None:
    assert validation.ascii_int("-3", lo=-5) == -3 and validation.ascii_int(2**63 - 1) == DB_INT_MAX
    with pytest.raises(ValueError, match="between 1 and 4"):
        validation.ascii_int("5", name="seat", lo=1, hi=4)
    with pytest.raises(ValueError):
        validation.ascii_int(2**63)


# ------------------------------------------------------------------ the API


@pytest.fixture
def note(alice: Actor) -> Notification:
    return Notification.objects.create(user=alice.player.user, kind="event", key="k1", params={})


@pytest.mark.parametrize("digit", ODD_DIGITS)
def test_notifications_before_with_other_digits_is_400(alice: Actor, note: Notification, digit: str) -> None:
    _api_error(alice.get("/api/v1/notifications/", data={"before": digit}))


def test_marking_a_notification_beyond_64_bits_is_400_and_marks_nothing(
    alice: Actor, note: Notification
) -> None:
    body = _api_error(alice.post("/api/v1/notifications/read/", {"ids": [2**63]}))
    assert "ids" in body["detail"] or "ids" in str(body.get("fields", body))
    note.refresh_from_db()
    assert note.read_at is None
    assert alice.post("/api/v1/notifications/read/", {"ids": [2**63 - 1]}).json()["marked"] == 0


@pytest.mark.parametrize("digit", ODD_DIGITS)
def test_standings_of_round_with_other_digits_is_400(make_actor: Callable[..., Actor], digit: str) -> None:
    org = make_actor("org")
    league = clubs.league_create(organiser=as_organiser(org.player), name="Edge Club")
    t = clubs.tournament_create(organiser=org.player, league=league, name="E", game="shacru", seats=2)
    url = f"/api/v1/tournaments/{t.pk}/standings/"
    _api_error(org.get(url, data={"round": digit}))
    assert org.get(url, data={"round": "0"}).status_code == 200


def test_positions_from_with_other_digits_is_400(alice: Actor, bob: Actor) -> None:
    table = started_table([alice, bob])
    url = f"/api/v1/tables/{table.pk}/positions/"
    for digit in ODD_DIGITS:
        _api_error(alice.get(url, data={"from": digit}))
    assert alice.get(url, data={"from": "-3"}).status_code == 200, "before the start: from the start"


def test_match_quality_with_other_digits_is_400(alice: Actor, bob: Actor) -> None:
    ids = f"{alice.player.pk},{bob.player.pk}"
    assert alice.get("/api/v1/ratings/pacru/quality/", data={"players": ids}).status_code == 200
    for digit in ODD_DIGITS:
        _api_error(
            alice.get("/api/v1/ratings/pacru/quality/", data={"players": f"{alice.player.pk},{digit}"})
        )


# ------------------------------------------------------------------ pages


@pytest.mark.parametrize("digit", [*ODD_DIGITS, "9" * 25])
def test_pages_ignore_a_before_they_cannot_read(alice: Actor, digit: str) -> None:
    c = Client()
    for path in ("/tournaments/", f"/players/{alice.player.pk}/"):
        r = c.get(path, {"before": digit})
        assert r.status_code == 200, (path, r.status_code)


@pytest.fixture
def org(make_actor: Callable[..., Actor]) -> Actor:
    return make_actor("pageorg")


@pytest.fixture
def event(org: Actor, make_actor: Callable[..., Actor]) -> Tournament:
    league = clubs.league_create(organiser=as_organiser(org.player), name="Page Club")
    t = clubs.tournament_create(organiser=org.player, league=league, name="Night", game="shacru", seats=2)
    for name in ("ann", "ben"):
        clubs.register(tournament_id=t.pk, player=make_actor(name).player)
    return t


def _action(t: Tournament, action: str) -> str:
    return f"/organiser/events/{t.pk}/{action}/"


@pytest.mark.parametrize("digit", ODD_DIGITS)
def test_seeds_with_other_digits_say_so_and_change_nothing(org: Actor, event: Tournament, digit: str) -> None:
    ann = Registration.objects.get(tournament=event, player__user__username="ann")
    c = client_for(org)
    r = c.post(_action(event, "seeds"), {f"seed_{ann.player_id}": digit}, follow=True)
    assert r.status_code == 200 and any("a seed is a whole number" in m for m in messages_of(r))
    r = c.post(
        _action(event, "seeds"), {f"seed_{digit}": "1", f"seed_{ann.player_id}": "9" * 12}, follow=True
    )
    assert r.status_code == 200 and any("a seed is a whole number" in m for m in messages_of(r))
    assert not Registration.objects.filter(tournament=event, seed__isnull=False).exists()


def test_result_and_announcement_with_other_digits_change_nothing(
    org: Actor, event: Tournament, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        clubs.start(tournament_id=event.pk, by=org.player)
    (table,) = current_tables(Tournament.objects.get(pk=event.pk))
    c = client_for(org)
    for form in (
        {"table": "²", "rank_1": 1, "rank_2": 2, "reason": "x"},
        {"table": "9" * 25, "rank_1": 1, "rank_2": 2, "reason": "x"},
        {"table": table.pk, "rank_1": "²", "rank_2": 1, "reason": "x"},
        {"table": table.pk, "rank_²": 1, "rank_2": 1, "reason": "x"},
    ):
        r = c.post(_action(event, "result"), form, follow=True)
        assert r.status_code == 200 and messages_of(r), form
    assert Table.objects.get(pk=table.pk).status == Table.Status.ACTIVE
    item = Announcement.objects.create(tournament=event, text="Bring a clock")
    for raw in ("²", "9" * 25, ""):
        r = c.post(_action(event, "announcement-delete"), {"announcement": raw}, follow=True)
        assert r.status_code == 200 and any("no such announcement" in m for m in messages_of(r)), raw
    assert Announcement.objects.filter(pk=item.pk).exists()


@pytest.mark.parametrize("raw", [*ODD_DIGITS, "9" * 25])
def test_organiser_actions_naming_a_player_with_other_digits_change_nothing(
    org: Actor, event: Tournament, raw: str
) -> None:
    c = client_for(org)
    before = list(Registration.objects.filter(tournament=event).values_list("player_id", "status"))
    for action in ("check-in", "remove", "register"):
        r = c.post(_action(event, action), {"player": raw}, follow=True)
        assert r.status_code in (200, 404), (action, r.status_code)
    assert list(Registration.objects.filter(tournament=event).values_list("player_id", "status")) == before


@pytest.mark.parametrize("raw", [*ODD_DIGITS, "9" * 25])
def test_a_ladder_challenge_of_other_digits_is_no_such_player(alice: Actor, bob: Actor, raw: str) -> None:
    ladder = ladder_for(alice, bob)
    r = client_for(bob).post(f"/ladders/{ladder.pk}/challenge/", {"player": raw}, follow=True)
    assert r.status_code == 200 and "there is no such player" in messages_of(r)


# ------------------------------------------------------------------ a POST without its slash


@pytest.mark.parametrize("debug", [True, False])
def test_a_post_without_its_trailing_slash_is_a_clear_404(alice: Actor, settings: Any, debug: bool) -> None:
    settings.DEBUG = debug
    r = alice.post("/api/v1/tables", {"game": "pacru", "players": 2})
    assert r.status_code == 404 and r.json()["code"] == "not_found", r.content[:200]
    assert not Table.objects.exists()
    page = client_for(alice).post("/accounts/settings", {"display_name": "x"})
    assert page.status_code == 404
    # Reading requests are still sent to the path with its slash.
    assert Client().get("/tournaments").status_code == 301


# ------------------------------------------------------------------ next


@pytest.mark.parametrize(
    "target",
    [
        "https://evil.example/",
        "http://evil.example",
        "//evil.example/path",
        "/\\evil.example",
        "\\\\evil.example",
        "\\/evil.example",
        "///evil.example",
        "https:evil.example",
        "javascript:alert(1)",
        " //evil.example",
        "\x01//evil.example",
    ],
)
def test_marking_a_notification_read_never_redirects_off_site(
    alice: Actor, note: Notification, target: str
) -> None:
    r = client_for(alice).post(f"/notifications/{note.pk}/read/", {"next": target})
    assert r.status_code == 302 and r["Location"] == "/notifications/", r["Location"]
    note.refresh_from_db()
    assert note.read_at is not None


def test_marking_a_notification_read_goes_back_to_this_sites_page(alice: Actor, note: Notification) -> None:
    r = client_for(alice).post(f"/notifications/{note.pk}/read/", {"next": "/notifications/?show=unread"})
    assert r.status_code == 302 and r["Location"] == "/notifications/?show=unread"


# ------------------------------------------------------------------ numbers inside an imported record


@pytest.mark.parametrize("limit", ["-1", "0", "99999999999", "9" * 25, "٣"])
def test_importing_a_record_with_an_odd_ply_limit_is_400(
    make_actor: Callable[..., Actor], alice: Actor, bob: Actor, limit: str
) -> None:
    staff = make_actor("staffer", staff=True)
    table = started_table([alice, bob])
    games.game_resign(table_id=table.pk, player=alice.player)
    text = games.record_text(table=Table.objects.get(pk=table.pk))
    assert "PlyLimit: 1000" in text
    tables = Table.objects.count()
    r = staff.post("/api/v1/tables/import/", {"record": text.replace("PlyLimit: 1000", f"PlyLimit: {limit}")})
    _api_error(r)
    assert Table.objects.count() == tables
    assert staff.post("/api/v1/tables/import/", {"record": text}).status_code == 201


def test_the_api_refuses_a_query_number_in_other_digits_before_any_view(alice: Actor) -> None:
    """A filter would read ``٣`` as 3 (``int`` and ``Decimal`` take any script's digits)."""
    assert alice.get("/api/v1/tables/", data={"player": "3"}).status_code == 200
    for odd in ("٣", "９", "٣" * 25):
        body = _api_error(alice.get("/api/v1/tables/", data={"player": odd}))
        assert "player" in body["detail"]
    assert alice.get("/api/v1/players/", data={"search": "٣"}).status_code == 200, "free text"
