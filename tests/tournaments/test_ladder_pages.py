"""The ladder page in the browser: who may be challenged (and why not), challenges answered from
the page, the matchmaking queue, the history of ladder games, and a constant number of queries."""

from __future__ import annotations

import html as htmllib
import re
from collections.abc import Callable

import pytest
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from common.errors import ServiceError
from games import services as games
from games.models import Player, Table
from tournaments import finished, ladders
from tournaments.competitions.services import league_create
from tournaments.models import Challenge, Ladder, LadderMember, QueueEntry

from ..games.conftest import Actor, as_organiser

pytestmark = pytest.mark.django_db

NAMES = ["ann", "ben", "cat", "dan", "eve", "fay"]


@pytest.fixture
def people(make_actor: Callable[..., Actor]) -> dict[str, Player]:
    return {n: make_actor(n).player for n in ["boss", *NAMES]}


def make_ladder(people: dict[str, Player], members: list[str], **options: object) -> Ladder:
    league = league_create(organiser=as_organiser(people["boss"]), name="The Club", slug="club")
    ladder = ladders.ladder_create(
        organiser=people["boss"], league=league, game="shacru", name="Club Ladder", **options
    )
    for name in members:
        ladders.ladder_join(ladder=ladder, player=people[name])
    return ladder


def client_for(player: Player | None) -> Client:
    client = Client()
    if player is not None:
        client.force_login(player.user)
    return client


def page(player: Player | None, ladder: Ladder) -> str:
    response = client_for(player).get(f"/ladders/{ladder.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def challenge_cells(html: str) -> dict[str, str]:
    """Each standings row's player → "challenge" (a Challenge button) or the reason given instead."""
    body = html.split('<table class="list ladder">', 1)[1].split("</table>", 1)[0]
    out = {}
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body.split("<tbody>", 1)[1], re.S):
        name = re.search(r'<a href="/players/\d+/">([^<]+)</a>', row).group(1)  # type: ignore[union-attr]
        last = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)[-1]
        button = re.search(r'<button type="submit" class="challenge" data-player="([^"]+)"', last)
        if button:
            assert button.group(1) == name
            out[name] = "challenge"
        else:
            out[name] = htmllib.unescape(re.sub(r"<[^>]+>", "", last)).strip()
    return out


def messages_of(response: object) -> list[str]:
    return [str(m) for m in response.context["messages"]]  # type: ignore[attr-defined]


def post(player: Player, url: str, data: dict[str, object] | None = None) -> object:
    return client_for(player).post(url, data or {}, follow=True)


def challenge_via_page(challenger: Player, challenged: Player, ladder: Ladder) -> object:
    return post(challenger, f"/ladders/{ladder.pk}/challenge/", {"player": challenged.pk})


class _Undo(Exception):
    pass


def service_allows(ladder: Ladder, challenger: Player, challenged: Player) -> bool:
    """Whether ``challenge_create`` accepts the challenge (made and rolled back)."""
    try:
        with transaction.atomic():
            ladders.challenge_create(ladder=ladder, challenger=challenger, challenged=challenged)
            raise _Undo
    except _Undo:
        return True
    except ServiceError:
        return False


def test_challenge_buttons_only_where_the_service_allows_and_reasons_for_the_others(
    people: dict[str, Player],
) -> None:
    ladder = make_ladder(people, NAMES, kind="position", challenge_places=3, max_open_challenges=2)
    p = people
    declined = ladders.challenge_create(ladder=ladder, challenger=p["eve"], challenged=p["cat"])
    ladders.challenge_answer(challenge_id=declined.pk, by=p["cat"], decision="decline")
    ladders.challenge_create(ladder=ladder, challenger=p["eve"], challenged=p["dan"])
    ladders.challenge_create(ladder=ladder, challenger=p["dan"], challenged=p["cat"])

    eve = challenge_cells(page(p["eve"], ladder))
    assert eve["Ann"] == "more than 3 places above you"
    assert eve["Ben"] == "challenge"
    assert eve["Cat"].startswith("declined you: again after ") and eve["Cat"].endswith(" UTC")
    assert eve["Dan"] == "challenge open already"
    assert eve["Eve"] == "you" and eve["Fay"] == "below you"

    fay = challenge_cells(page(p["fay"], ladder))
    assert fay["Ben"] == "more than 3 places above you"
    assert fay["Cat"] == "challenge" and fay["Eve"] == "challenge"
    assert fay["Dan"] == "they have 2 open challenges (the most)"

    # The page and the service agree for every viewer and every opponent: a button where the
    # service accepts the challenge, a reason where it refuses.
    for viewer in NAMES:
        cells = challenge_cells(page(p[viewer], ladder))
        for name, cell in cells.items():
            if name.lower() == viewer:
                continue
            assert service_allows(ladder, p[viewer], p[name.lower()]) == (cell == "challenge"), (viewer, name)
    html = page(p["eve"], ladder)
    assert '<tr class="me" aria-current="true">' in html, "the viewer's own row is highlighted"
    assert "Challenge anyone up to 3 places above you" in html and "at most 2 challenges in 30 days" in html


def test_a_challenge_accepted_from_the_page_leads_to_the_new_table(people: dict[str, Player]) -> None:
    p = people
    ladder = make_ladder(people, NAMES, kind="position")
    response = challenge_via_page(p["dan"], p["cat"], ladder)
    assert any(m.startswith("You challenged Cat: they have until ") for m in messages_of(response))
    c = Challenge.objects.get(ladder=ladder, challenger=p["dan"], challenged=p["cat"])

    cat_page = page(p["cat"], ladder)
    incoming = cat_page.split('id="incoming"', 1)[1].split("</section>", 1)[0]
    assert "<strong>Dan</strong> challenged you · answer in " in incoming
    assert 'class="accept primary"' in incoming and 'class="decline"' in incoming
    assert "Dan challenged Cat · expires in" in page(None, ladder)
    outgoing = page(p["dan"], ladder).split('id="outgoing"', 1)[1].split("</section>", 1)[0]
    assert "You challenged <strong>Cat</strong>" in outgoing and 'class="cancel"' in outgoing

    cat = client_for(p["cat"])
    response = cat.post(f"/challenges/{c.pk}/accept/")
    c.refresh_from_db()
    assert c.status == Challenge.Status.ACCEPTED and c.table is not None
    assert response.status_code == 302 and response["Location"] == f"/tables/{c.table_id}/"
    table_page = cat.get(response["Location"])
    assert "Challenge accepted: your game against Dan is ready" in messages_of(table_page)
    assert sorted(c.table.seats.values_list("player_id", flat=True)) == sorted([p["dan"].pk, p["cat"].pk])

    # A second challenge while their ladder game runs: the page says why, the service refuses.
    assert challenge_cells(page(p["dan"], ladder))["Cat"] == "your game with them is still being played"
    response = challenge_via_page(p["dan"], p["cat"], ladder)
    assert any("have a challenge open already" in m for m in messages_of(response))
    assert Challenge.objects.filter(ladder=ladder, challenger=p["dan"]).count() == 1
    playing = page(None, ladder).split("<h2>Being played</h2>", 1)[1].split("<h2>", 1)[0]
    assert f'href="/tables/{c.table_id}/"' in playing and "Dan v Cat" in playing

    # Dan resigns: the game moves to the history in words, and Cat keeps the place.
    games.game_resign(table_id=c.table_id, player=p["dan"])
    finished.table_finished(table_id=c.table_id)
    history = page(None, ladder).split("<h2>Recent ladder games</h2>", 1)[1]
    assert "<strong>Cat beat Dan</strong>" in history and "(challenge)" in history
    assert "Dan: resigned" in history or "Dan resigned" in history
    assert "took" not in history.split("</li>", 1)[0]
    assert challenge_cells(page(p["dan"], ladder))["Cat"] == "challenge"


def test_a_winning_challenger_is_said_to_take_the_place(people: dict[str, Player]) -> None:
    p = people
    ladder = make_ladder(people, NAMES, kind="position")
    c = ladders.challenge_create(ladder=ladder, challenger=p["dan"], challenged=p["ben"])
    table = ladders.challenge_accept(challenge_id=c.pk, by=p["ben"])
    games.game_resign(table_id=table.pk, player=p["ben"])
    finished.table_finished(table_id=table.pk)
    html = htmllib.unescape(page(p["dan"], ladder))
    assert "<strong>Dan beat Ben</strong>" in html and "Dan took Ben's place" in html
    assert "You are in place <strong>2</strong> of 6" in html


def test_decline_and_cancel_from_the_page(people: dict[str, Player]) -> None:
    p = people
    ladder = make_ladder(people, NAMES, kind="position", max_declines=1)
    first = ladders.challenge_create(ladder=ladder, challenger=p["dan"], challenged=p["cat"])
    assert "You may decline 1 more challenge in 30 days." in page(p["cat"], ladder)
    response = post(p["cat"], f"/challenges/{first.pk}/decline/")
    assert "You declined Dan's challenge" in messages_of(response)
    first.refresh_from_db()
    assert first.status == Challenge.Status.DECLINED
    assert challenge_cells(page(p["dan"], ladder))["Cat"].startswith("declined you: again after")

    # Past the decline limit of a position ladder: no Decline button, and the page says why.
    second = ladders.challenge_create(ladder=ladder, challenger=p["eve"], challenged=p["cat"])
    incoming = page(p["cat"], ladder).split('id="incoming"', 1)[1].split("</section>", 1)[0]
    assert 'class="decline"' not in incoming and 'class="accept primary"' in incoming
    assert "You have declined 1 challenge in the last 30 days, the most this ladder allows" in incoming
    response = post(p["cat"], f"/challenges/{second.pk}/decline/")
    assert any("the most this ladder allows" in m for m in messages_of(response))

    # Only the challenger cancels; the service's reason is shown to anyone else.
    response = post(p["cat"], f"/challenges/{second.pk}/cancel/")
    assert any("only the challenger may cancel" in m for m in messages_of(response))
    response = post(p["eve"], f"/challenges/{second.pk}/cancel/")
    assert "You cancelled your challenge to Cat" in messages_of(response)
    second.refresh_from_db()
    assert second.status == Challenge.Status.CANCELLED
    assert 'id="outgoing"' not in page(p["eve"], ladder)


def test_join_and_leave_the_ladder_from_the_page(people: dict[str, Player]) -> None:
    p = people
    ladder = make_ladder(people, ["ann", "ben"], kind="position")
    html = page(p["cat"], ladder)
    assert 'id="join-ladder"' in html and 'id="leave-ladder"' not in html
    assert 'class="challenge"' not in html
    response = post(p["cat"], f"/ladders/{ladder.pk}/join/")
    assert "You joined Club Ladder: you are in place 3 of 3" in messages_of(response)
    response = post(p["cat"], f"/ladders/{ladder.pk}/join/")
    assert "you are on this ladder already" in messages_of(response)
    ladders.challenge_create(ladder=ladder, challenger=p["cat"], challenged=p["ann"])
    html = page(p["cat"], ladder)
    assert 'id="leave-ladder"' in html and 'id="join-ladder"' not in html
    response = post(p["cat"], f"/ladders/{ladder.pk}/leave/")
    assert "You left Club Ladder; your 1 open challenge cancelled" in messages_of(response)
    assert not LadderMember.objects.filter(ladder=ladder, player=p["cat"]).exists()


def test_the_queue_of_a_three_seat_ladder(people: dict[str, Player]) -> None:
    p = people
    ladder = make_ladder(people, ["ann", "ben", "cat"], seats=3)
    ladder.queue_wait_seconds = 300
    ladder.save()
    html = page(p["ann"], ladder)
    assert 'id="join-queue"' in html and 'id="leave-queue"' not in html
    assert "Nobody is waiting" in html and 'class="challenge"' not in html
    response = post(p["ann"], f"/ladders/{ladder.pk}/queue/")
    assert "You joined the queue of Club Ladder: 1 player waiting for a table of 3" in messages_of(response)
    post(p["ben"], f"/ladders/{ladder.pk}/queue/")
    html = page(p["ann"], ladder)
    queue = html.split('id="queue"', 1)[1].split("</section>", 1)[0]
    assert 'id="leave-queue"' in queue and 'id="join-queue"' not in queue
    assert re.search(r">Ann</a> <span class=\"hint\">waiting .*?>Ben</a>", queue, re.S)
    assert "1 more player needed for a table of 3" in queue
    assert "matchmaking runs about every" in queue and "whoever has waited 5 minutes" in queue
    post(p["cat"], f"/ladders/{ladder.pk}/queue/")
    assert "3 waiting for tables of 3: the next table forms within about" in page(None, ladder)
    response = post(p["ann"], f"/ladders/{ladder.pk}/unqueue/")
    assert "You left the queue of Club Ladder" in messages_of(response)
    assert list(QueueEntry.objects.filter(ladder=ladder).values_list("player_id", flat=True)) == [
        p["ben"].pk,
        p["cat"].pk,
    ]
    response = post(p["ann"], f"/ladders/{ladder.pk}/unqueue/")
    assert "You were not in the queue of Club Ladder" in messages_of(response)
    response = post(p["dan"], f"/ladders/{ladder.pk}/queue/")
    assert "join the ladder before queueing" in messages_of(response)
    response = post(p["ann"], f"/ladders/{ladder.pk}/challenge/", {"player": p["ben"].pk})
    assert any("join its queue instead" in m for m in messages_of(response))


def test_queue_tables_appear_in_the_history(people: dict[str, Player]) -> None:
    p = people
    ladder = make_ladder(people, ["ann", "ben", "cat"], seats=3)
    for name in ("ann", "ben", "cat"):
        ladders.queue_join(ladder=ladder, player=p[name])
    ladder.queue_wait_seconds = 0
    ladder.save()
    (table,) = ladders.matchmake(ladder=ladder)
    for name in ("ann", "ben"):
        games.game_resign(table_id=table.pk, player=p[name])
    history = page(None, ladder).split("<h2>Recent ladder games</h2>", 1)[1]
    assert "1st Cat" in history and "(queue table)" in history and f'href="/tables/{table.pk}/"' in history
    # A casual table of the same players is no ladder game when someone from outside sits at it.
    outside = games.table_create(creator=p["ann"], game="shacru", players=3)
    for name in ("ben", "dan"):
        games.seat_join(table_id=outside.pk, player=p[name])
    for name in ("ann", "ben"):
        games.game_resign(table_id=outside.pk, player=p[name])
    assert Table.objects.get(pk=outside.pk).status == Table.Status.FINISHED
    assert f'href="/tables/{outside.pk}/"' not in page(None, ladder)


def test_anonymous_visitors_get_no_buttons_and_their_posts_go_to_the_login(people: dict[str, Player]) -> None:
    p = people
    ladder = make_ladder(people, NAMES[:3])
    c = ladders.challenge_create(ladder=ladder, challenger=p["cat"], challenged=p["ben"])
    html = page(None, ladder)
    assert "<button" not in html.split("<main", 1)[1].split("</main>", 1)[0]
    assert "Log in to challenge" in html
    for url in (
        f"/ladders/{ladder.pk}/join/",
        f"/ladders/{ladder.pk}/challenge/",
        f"/challenges/{c.pk}/accept/",
        f"/challenges/{c.pk}/decline/",
    ):
        response = Client().post(url, {"player": p["ann"].pk})
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/"), url
    c.refresh_from_db()
    assert c.status == Challenge.Status.PENDING
    assert LadderMember.objects.filter(ladder=ladder).count() == 3
    # Actions are POST only, and checked for CSRF.
    assert client_for(p["ann"]).get(f"/ladders/{ladder.pk}/join/").status_code == 405
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(p["dan"].user)
    assert strict.post(f"/ladders/{ladder.pk}/join/").status_code == 403
    assert client_for(p["dan"]).post(f"/ladders/{ladder.pk}/dance/").status_code == 404


def test_the_live_fragment_answers_304_while_nothing_changed(people: dict[str, Player]) -> None:
    p = people
    ladder = make_ladder(people, NAMES[:3])
    client = client_for(p["cat"])
    first = client.get(f"/ladders/{ladder.pk}/?fragment=1")
    assert first.status_code == 200 and 'class="challenge"' in first.content.decode()
    again = client.get(f"/ladders/{ladder.pk}/?fragment=1", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    ladders.challenge_create(ladder=ladder, challenger=p["cat"], challenged=p["ann"])
    changed = client.get(f"/ladders/{ladder.pk}/?fragment=1", HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and "You challenged <strong>Ann</strong>" in changed.content.decode()


def test_the_ladder_page_costs_the_same_queries_however_big_the_ladder(
    people: dict[str, Player], make_actor: Callable[..., Actor]
) -> None:
    p = people
    ladder = make_ladder(people, NAMES, kind="position", max_open_challenges=5)

    def played(challenger: Player, challenged: Player) -> None:
        c = ladders.challenge_create(ladder=ladder, challenger=challenger, challenged=challenged)
        table = ladders.challenge_accept(challenge_id=c.pk, by=challenged)
        games.game_resign(table_id=table.pk, player=challenged)
        finished.table_finished(table_id=table.pk)

    def measure() -> int:
        client = client_for(p["fay"])
        client.get(f"/ladders/{ladder.pk}/")  # the session is read once
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/ladders/{ladder.pk}/").status_code == 200
        return len(queries)

    played(p["fay"], p["eve"])
    ladders.challenge_create(ladder=ladder, challenger=p["eve"], challenged=p["fay"])
    ladders.challenge_create(ladder=ladder, challenger=p["dan"], challenged=p["cat"])
    few = measure()
    for n in range(8):
        ladders.ladder_join(ladder=ladder, player=make_actor(f"extra{n}").player)
    played(p["cat"], p["ben"])
    played(p["eve"], p["dan"])
    ladders.challenge_create(ladder=ladder, challenger=p["fay"], challenged=p["ann"])
    ladders.challenge_create(ladder=ladder, challenger=p["ben"], challenged=p["ann"])
    c = ladders.challenge_create(ladder=ladder, challenger=p["ben"], challenged=p["cat"])
    ladders.challenge_accept(challenge_id=c.pk, by=p["cat"])
    assert measure() == few
    html = page(p["fay"], ladder)
    assert html.count("<strong>") >= 3 and "(challenge)" in html
