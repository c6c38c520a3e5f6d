"""The Django admin: every games model listed, searched and filtered; the move log read-only."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games import services
from games.models import Move, Player, Seat, Table

from .conftest import Actor, play_random, started_table


@pytest.fixture
def admin_client(db: None) -> Client:
    user = get_user_model().objects.create_superuser("boss", email="boss@example.org", password="x-9-long-pw")
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def games(alice: Actor, bob: Actor, carol: Actor) -> dict[str, Table]:
    """An active table with moves (alice v bob), a finished one (bob resigned to carol), an open one."""
    active = play_random(started_table([alice, bob]), {1: alice.player, 2: bob.player}, plies=3)
    finished = started_table([carol, bob], game="shacru")
    services.game_resign(table_id=finished.pk, player=bob.player)
    finished.refresh_from_db()
    open_table = services.table_create(creator=carol.player, game="azacru", players=3)
    assert active.status == "active" and active.ply == 3
    assert finished.status == "finished" and open_table.status == "open"
    return {"active": active, "finished": finished, "open": open_table}


def changelist(client: Client, url: str) -> list[Any]:
    r = client.get(url)
    assert r.status_code == 200, (url, r.status_code)
    cl = r.context["cl"]
    return list(cl.result_list)


def test_the_admin_index_links_every_games_model(admin_client: Client) -> None:
    r = admin_client.get("/admin/")
    assert r.status_code == 200
    page = r.content.decode()
    for model in ("player", "table", "seat", "move"):
        assert f'href="/admin/games/{model}/"' in page, model
    # The move log has no "add" link: it cannot be written through the admin.
    assert 'href="/admin/games/table/add/"' in page
    assert 'href="/admin/games/move/add/"' not in page


def test_player_changelist_search_and_filter(admin_client: Client, games: dict[str, Table]) -> None:
    bot = services.player_register(username="robot", password="correct-horse-9", display_name="Robot")
    Player.objects.filter(pk=bot.pk).update(is_bot=True)
    # Every account has a player, the superuser "boss" included.
    assert {p.display_name for p in changelist(admin_client, "/admin/games/player/")} == {
        "Alice",
        "Bob",
        "Carol",
        "Robot",
        "boss",
    }
    assert [p.display_name for p in changelist(admin_client, "/admin/games/player/?q=ali")] == ["Alice"]
    # search reaches the user's username too
    assert [p.display_name for p in changelist(admin_client, "/admin/games/player/?q=robot")] == ["Robot"]
    assert [p.display_name for p in changelist(admin_client, "/admin/games/player/?is_bot__exact=1")] == [
        "Robot"
    ]
    humans = changelist(admin_client, "/admin/games/player/?is_bot__exact=0&q=o")
    assert {p.display_name for p in humans} == {"Bob", "Carol", "boss"}


def test_table_changelist_search_and_filter(admin_client: Client, games: dict[str, Table]) -> None:
    active, finished, open_table = games["active"], games["finished"], games["open"]
    assert {t.pk for t in changelist(admin_client, "/admin/games/table/")} == {
        active.pk,
        finished.pk,
        open_table.pk,
    }
    # by a seated player's display name or username
    assert {t.pk for t in changelist(admin_client, "/admin/games/table/?q=alice")} == {active.pk}
    assert {t.pk for t in changelist(admin_client, "/admin/games/table/?q=carol")} == {
        finished.pk,
        open_table.pk,
    }
    assert {t.pk for t in changelist(admin_client, "/admin/games/table/?status__exact=finished")} == {
        finished.pk
    }
    assert {t.pk for t in changelist(admin_client, "/admin/games/table/?game__exact=azacru")} == {
        open_table.pk
    }
    both = changelist(admin_client, "/admin/games/table/?status__exact=active&q=bob")
    assert [t.pk for t in both] == [active.pk]
    assert changelist(admin_client, "/admin/games/table/?status__exact=aborted") == []
    year = active.created_at.year
    dated = changelist(admin_client, f"/admin/games/table/?created_at__year={year}")
    assert len(dated) == 3
    assert changelist(admin_client, f"/admin/games/table/?created_at__year={year - 1}") == []


def test_seat_changelist_search_and_filter(admin_client: Client, games: dict[str, Table]) -> None:
    assert len(changelist(admin_client, "/admin/games/seat/")) == 5
    out = changelist(admin_client, "/admin/games/seat/?state__exact=out")
    assert [(s.table_id, s.player.display_name) for s in out] == [(games["finished"].pk, "Bob")]
    resigned = changelist(admin_client, "/admin/games/seat/?elimination_reason__exact=resigned&q=bob")
    assert [s.table_id for s in resigned] == [games["finished"].pk]
    playing_bob = changelist(admin_client, "/admin/games/seat/?state__exact=playing&q=bob")
    assert [s.table_id for s in playing_bob] == [games["active"].pk]
    assert {s.player.display_name for s in changelist(admin_client, "/admin/games/seat/?q=carol")} == {
        "Carol"
    }


def test_move_changelist_search_and_filter(admin_client: Client, games: dict[str, Table]) -> None:
    active, finished = games["active"], games["finished"]
    everything = changelist(admin_client, "/admin/games/move/")
    assert len(everything) == Move.objects.count() == 4
    moves = changelist(admin_client, "/admin/games/move/?kind__exact=move")
    assert {m.table_id for m in moves} == {active.pk} and len(moves) == 3
    resigns = changelist(admin_client, "/admin/games/move/?kind__exact=resign")
    assert [(m.table_id, m.seat) for m in resigns] == [(finished.pk, 2)]
    notation = Move.objects.filter(table=active).order_by("seq").first().notation  # type: ignore[union-attr]
    found = changelist(admin_client, f"/admin/games/move/?kind__exact=move&q={notation}")
    assert notation in {m.notation for m in found}
    assert all(notation in m.notation for m in found)
    assert changelist(admin_client, "/admin/games/move/?q=zzz-no-such-move") == []


def test_the_change_page_of_a_started_table_shows_seats_and_a_read_only_move_log(
    admin_client: Client, games: dict[str, Table]
) -> None:
    table = games["active"]
    r = admin_client.get(f"/admin/games/table/{table.pk}/change/")
    assert r.status_code == 200
    page = r.content.decode()
    formsets = {f.formset.prefix: f for f in r.context["inline_admin_formsets"]}
    assert set(formsets) == {"seats", "moves"}
    assert len(formsets["seats"].formset.forms) == 2
    assert len(formsets["moves"].formset.forms) == 3
    assert 'id="seats-group"' in page and 'id="moves-group"' in page
    # Seats: the players are editable (raw id), the results are not.
    assert 'name="seats-0-player"' in page and 'name="seats-1-player"' in page
    assert 'name="seats-0-rank"' not in page and 'name="seats-0-markers"' not in page
    # Moves: every move is shown as text, none has an input, none can be deleted or added.
    for move in Move.objects.filter(table=table):
        assert f"<p>{move.notation}</p>" in page
    for field in ("seq", "ply", "seat", "kind", "notation", "played_at"):
        assert f'name="moves-0-{field}"' not in page, field
    assert 'name="moves-0-DELETE"' not in page
    assert 'name="moves-__prefix__-id"' not in page, "no empty form to add a move"
    assert formsets["moves"].has_add_permission is False
    # The cached position and the result are read-only on the table itself.
    for field in ("position", "ply", "to_move", "actions", "result"):
        assert f'name="{field}"' not in page, field
    assert 'name="status"' in page and 'name="rated"' in page


def test_the_move_admin_refuses_add_change_and_delete(admin_client: Client, games: dict[str, Table]) -> None:
    move = Move.objects.filter(table=games["active"]).order_by("seq").first()
    assert move is not None
    before = list(Move.objects.order_by("pk").values_list("pk", "notation", "seat"))

    assert admin_client.get("/admin/games/move/add/").status_code == 403
    added = admin_client.post(
        "/admin/games/move/add/",
        {"table": games["active"].pk, "seq": 99, "seat": 1, "kind": "move", "notation": "a1-a2"},
    )
    assert added.status_code == 403

    view = admin_client.get(f"/admin/games/move/{move.pk}/change/")
    assert view.status_code == 200, "a move can be viewed"
    assert view.context["title"].startswith("View") and 'name="notation"' not in view.content.decode()
    changed = admin_client.post(
        f"/admin/games/move/{move.pk}/change/",
        {"table": move.table_id, "seq": move.seq, "seat": move.seat, "kind": "move", "notation": "x"},
    )
    assert changed.status_code == 403

    assert admin_client.get(f"/admin/games/move/{move.pk}/delete/").status_code == 403
    assert admin_client.post(f"/admin/games/move/{move.pk}/delete/", {"post": "yes"}).status_code == 403
    listing = admin_client.get("/admin/games/move/")
    assert listing.status_code == 200 and 'value="delete_selected"' not in listing.content.decode()
    admin_client.post("/admin/games/move/", {"action": "delete_selected", "_selected_action": [move.pk]})

    assert list(Move.objects.order_by("pk").values_list("pk", "notation", "seat")) == before


def test_seats_and_players_can_be_changed_by_staff(admin_client: Client, games: dict[str, Table]) -> None:
    """The other models are editable (the move log is the exception)."""
    for url in ("/admin/games/player/add/", "/admin/games/table/add/", "/admin/games/seat/add/"):
        assert admin_client.get(url).status_code == 200, url
    seat = Seat.objects.filter(table=games["open"]).get()
    assert admin_client.get(f"/admin/games/seat/{seat.pk}/change/").status_code == 200
    player = Player.objects.get(display_name="Alice")
    r = admin_client.post(
        f"/admin/games/player/{player.pk}/change/",
        {"user": player.user_id, "display_name": "Alice Renamed", "bot_level": "", "bot_budget": "0.5"},
    )
    assert r.status_code == 302, r.context["adminform"].form.errors if r.context else r
    player.refresh_from_db()
    assert player.display_name == "Alice Renamed"


@pytest.mark.parametrize(
    "url", ["/admin/", "/admin/games/table/", "/admin/games/move/", "/admin/games/player/1/change/"]
)
def test_a_non_staff_user_is_sent_to_the_admin_login(alice: Actor, url: str) -> None:
    client = Client()
    client.force_login(alice.player.user)
    r = client.get(url)
    assert r.status_code == 302
    assert r["Location"].startswith("/admin/login/?next=")
    assert Client().get(url)["Location"].startswith("/admin/login/"), "anonymous too"


def test_a_table_with_moves_cannot_be_deleted_through_the_admin(
    admin_client: Client, games: dict[str, Table]
) -> None:
    """Deleting a table would delete its moves, which the move admin forbids."""
    table = games["active"]
    page = admin_client.get(f"/admin/games/table/{table.pk}/delete/")
    assert page.status_code == 200 and page.context["perms_lacking"]
    assert admin_client.post(f"/admin/games/table/{table.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Table.objects.filter(pk=table.pk).exists() and Move.objects.filter(table=table).count() == 3
    # A table without moves can go.
    empty = games["open"]
    r = admin_client.post(f"/admin/games/table/{empty.pk}/delete/", {"post": "yes"})
    assert r.status_code == 302 and not Table.objects.filter(pk=empty.pk).exists()
