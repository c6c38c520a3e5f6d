"""Writing and reading the chat through the service (``community.chat``, ``community.selectors``):
the rate and length limits, text kept as typed, a room's chat switched off, paging, mentions and
their notifications, and an account's deletion scrubbing its messages."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from accounts import services as accounts
from accounts.models import Notification
from common.errors import Forbidden, InvalidInput
from community import chat, rooms, selectors
from community.errors import RateLimited
from community.models import ChatOff, Message, Room
from games.models import Block, Player
from live import reads

from .conftest import World


def event_room(w: World) -> Room:
    return rooms.event_room(tournament=w.event)


def players_room(w: World) -> Room:
    return rooms.table_room(table=w.event_table, kind=Room.Kind.PLAYERS)


# ---------------------------------------------------------------- the rate
def test_five_messages_in_ten_seconds_then_the_sixth_waits(world: World, settings) -> None:
    settings.CHAT_RATE_BURST, settings.CHAT_RATE_MINUTE = 5, 20
    room = event_room(world)
    for n in range(5):
        chat.post(room=room, author=world.ann.player, text=f"message {n}")
    with pytest.raises(RateLimited) as refused:
        chat.post(room=room, author=world.ann.player, text="one too many")
    assert refused.value.status_code == 429 and refused.value.code == "throttled"
    assert 1 <= refused.value.retry <= 10
    assert "too fast" in refused.value.detail
    assert Message.objects.filter(author=world.ann.player).count() == 5
    # The count is per player, in every room together: another player writes on; ann, elsewhere, not.
    chat.post(room=room, author=world.ben.player, text="I may")
    with pytest.raises(RateLimited):
        chat.post(room=players_room(world), author=world.ann.player, text="not here either")
    # Once the first five are older than ten seconds, the window has room again.
    Message.objects.filter(author=world.ann.player).update(created=timezone.now() - timedelta(seconds=11))
    chat.post(room=room, author=world.ann.player, text="again")


def test_twenty_messages_in_a_minute_then_the_next_waits_for_the_oldest(world: World, settings) -> None:
    settings.CHAT_RATE_BURST, settings.CHAT_RATE_MINUTE = 5, 20
    room = event_room(world)
    for n in range(19):
        made = Message.objects.create(room=room, author=world.ann.player, text=f"old {n}")
        Message.objects.filter(pk=made.pk).update(created=timezone.now() - timedelta(seconds=30))
    chat.post(room=room, author=world.ann.player, text="the twentieth")
    with pytest.raises(RateLimited) as refused:
        chat.post(room=room, author=world.ann.player, text="the twenty-first")
    # The oldest of the twenty leaves the minute in about 30 seconds.
    assert 29 <= refused.value.retry <= 31
    assert Message.objects.filter(author=world.ann.player).count() == 20


def test_a_refused_message_counts_for_nothing(world: World, settings) -> None:
    settings.CHAT_RATE_BURST = 2
    room = event_room(world)
    for _ in range(3):
        with pytest.raises(InvalidInput):
            chat.post(room=room, author=world.ann.player, text="   ")
    chat.post(room=room, author=world.ann.player, text="one")
    chat.post(room=room, author=world.ann.player, text="two")
    with pytest.raises(RateLimited):
        chat.post(room=room, author=world.ann.player, text="three")


# ---------------------------------------------------------------- the text
def test_exactly_the_longest_message_is_kept_and_one_more_character_is_refused(
    world: World, settings
) -> None:
    settings.CHAT_MESSAGE_MAX_LENGTH = 500
    room = event_room(world)
    longest = chat.post(room=room, author=world.ann.player, text="x" * 500)
    assert len(longest.text) == 500
    with pytest.raises(InvalidInput) as refused:
        chat.post(room=room, author=world.ann.player, text="y" * 501)
    assert "501" in refused.value.detail and "500" in refused.value.detail
    assert Message.objects.filter(room=room).count() == 1
    # Spaces around the text are trimmed before it is measured.
    trimmed = chat.post(room=room, author=world.ben.player, text="  " + "z" * 500 + "\n ")
    assert trimmed.text == "z" * 500


def test_text_is_kept_as_typed_html_and_all(world: World) -> None:
    room = event_room(world)
    typed = "<script>alert(\"hi\")</script> & <b>bold</b> 'quoted'"
    message = chat.post(room=room, author=world.ann.player, text=typed)
    message.refresh_from_db()
    assert message.text == typed
    assert selectors.message_out(message)["text"] == typed


def test_control_characters_and_direction_overrides_are_removed_newlines_kept(world: World) -> None:
    room = event_room(world)
    message = chat.post(room=room, author=world.ann.player, text="\x00a\x07b\r\nc\u202ed\x1b\n\te")
    assert message.text == "ab\ncd\ne"
    with pytest.raises(InvalidInput):
        chat.post(room=room, author=world.ann.player, text="\x00\x01\u202e \n")


# ---------------------------------------------------------------- chat switched off
def test_a_player_who_switches_a_room_off_neither_reads_nor_writes_there(world: World) -> None:
    room = players_room(world)
    chat.post(room=room, author=world.ben.player, text="hello ann")
    assert chat.chat_off(room=room, player=world.ann.player, off=True) is True
    assert chat.chat_off(room=room, player=world.ann.player, off=True) is True  # twice: one row
    assert ChatOff.objects.filter(room=room, player=world.ann.player).count() == 1
    with pytest.raises(Forbidden) as refused:
        chat.post(room=room, author=world.ann.player, text="hi")
    assert "switched this chat off" in refused.value.detail
    body = world.ann.get(f"/api/v1/tables/{world.event_table.pk}/chat/").json()
    assert body["room"]["chat_off"] is True and body["messages"] == []
    # Ben still writes; ann's other rooms are unaffected.
    chat.post(room=room, author=world.ben.player, text="are you there?")
    chat.post(room=event_room(world), author=world.ann.player, text="in the event")
    assert chat.chat_off(room=room, player=world.ann.player, off=False) is False
    body = world.ann.get(f"/api/v1/tables/{world.event_table.pk}/chat/").json()
    assert [m["text"] for m in body["messages"]] == ["hello ann", "are you there?"]


def test_only_a_reader_may_switch_a_room_off(world: World) -> None:
    with pytest.raises(Forbidden):
        chat.chat_off(room=players_room(world), player=world.spectator.player, off=True)
    with pytest.raises(Forbidden):
        chat.chat_off(room=event_room(world), player=world.guest.player, off=True)
    assert not ChatOff.objects.exists()


# ---------------------------------------------------------------- paging
def test_pages_newest_first_window_oldest_first_order_after_and_before(world: World, settings) -> None:
    settings.CHAT_RATE_BURST = settings.CHAT_RATE_MINUTE = 0  # no rate: one author writes 12
    room = event_room(world)
    ids = [chat.post(room=room, author=world.ann.player, text=f"m{n}").pk for n in range(12)]
    newest = selectors.messages(room=room, reader=None, limit=5)
    assert [m.pk for m in newest.messages] == ids[7:] and newest.more is True
    older = selectors.messages(room=room, reader=None, before=ids[7], limit=5)
    assert [m.pk for m in older.messages] == ids[2:7] and older.more is True
    oldest = selectors.messages(room=room, reader=None, before=ids[2], limit=5)
    assert [m.pk for m in oldest.messages] == ids[:2] and oldest.more is False
    after = selectors.messages(room=room, reader=None, after=ids[9])
    assert [m.pk for m in after.messages] == ids[10:] and after.more is False  # not looked for
    capped = selectors.messages(room=room, reader=None, after=ids[0], limit=3)
    assert [m.pk for m in capped.messages] == ids[1:4]
    assert selectors.messages(room=room, reader=None, after=ids[-1]).messages == []
    whole = selectors.messages(room=room, reader=None)
    assert [m.pk for m in whole.messages] == ids and whole.more is False


def test_a_page_is_two_queries_however_many_authors(world: World, django_assert_num_queries) -> None:
    room = event_room(world)
    for actor in (world.ann, world.ben, world.member, world.org, world.staff):
        chat.post(room=room, author=actor.player, text="hi")
    with django_assert_num_queries(2):
        page = selectors.messages(room=room, reader=world.spectator.player)
        names = [selectors.message_out(m)["author"]["name"] for m in page.messages]
    assert names == ["Ann", "Ben", "Member", "Org", "Staffer"]


# ---------------------------------------------------------------- mentions
def _mentions(player: Player) -> list[Notification]:
    return list(Notification.objects.filter(user_id=player.user_id, kind="mention"))


def test_a_mention_tells_the_player_named(world: World, django_capture_on_commit_callbacks) -> None:
    room = event_room(world)
    with django_capture_on_commit_callbacks(execute=True):
        message = chat.post(room=room, author=world.ann.player, text="good luck @ben, and @MEMBER!")
    (told,) = _mentions(world.ben.player)
    assert told.params["by"] == "Ann" and told.params["message"] == message.pk
    assert told.params["excerpt"] == "good luck @ben, and @MEMBER!"
    assert told.url == f"/tournaments/{world.event.pk}/"
    assert len(_mentions(world.member.player)) == 1
    assert _mentions(world.ann.player) == []
    from accounts import kinds

    assert kinds.title("mention", told.params) == "Ann mentioned you in a chat"
    assert "good luck" in kinds.detail("mention", told.params)


def test_no_mention_from_a_blocked_player_nor_into_a_room_the_player_cannot_read(
    world: World, django_capture_on_commit_callbacks
) -> None:
    Block.objects.create(player=world.ben.player, blocked=world.ann.player)
    with django_capture_on_commit_callbacks(execute=True):
        chat.post(room=event_room(world), author=world.ann.player, text="@ben @member hello")
        # The spectator cannot read the players' room: naming them there tells them nothing.
        chat.post(room=players_room(world), author=world.ann.player, text="@spec can you see this?")
        # Nor a bot, a guest, or someone who switched the room off.
        chat.chat_off(room=event_room(world), player=world.org.player, off=True)
        chat.post(room=event_room(world), author=world.member.player, text="@org are you there")
    assert _mentions(world.ben.player) == []
    assert len(_mentions(world.member.player)) == 1
    assert _mentions(world.spectator.player) == []
    assert _mentions(world.org.player) == []


def test_names_with_spaces_and_look_alikes_are_found(
    world: World, django_capture_on_commit_callbacks
) -> None:
    Player.objects.filter(pk=world.cat.player.pk).update(display_name="Cat Stevens")
    cat = Player.objects.get(pk=world.cat.player.pk)
    cat.save()  # its name key follows the new name
    with django_capture_on_commit_callbacks(execute=True):
        chat.post(
            room=event_room(world),
            author=world.ann.player,
            text="hi @cat stevens: and @b\u0435n (a Cyrillic e)",
        )
    assert len(_mentions(world.cat.player)) == 1
    assert len(_mentions(world.ben.player)) == 1


# ---------------------------------------------------------------- a deleted account
def test_deleting_an_account_scrubs_its_messages_and_keeps_their_places(world: World) -> None:
    room = event_room(world)
    before = chat.post(room=room, author=world.ben.player, text="before")
    gone = [chat.post(room=room, author=world.ann.player, text=f"ann says {n}") for n in range(2)]
    chat.post(room=players_room(world), author=world.ann.player, text="private")
    after = chat.post(room=room, author=world.ben.player, text="after")
    accounts.delete_account(user=world.ann.player.user, password="correct-horse-9")
    for message in gone:
        message.refresh_from_db()
        assert message.text == "" and message.scrubbed is True and message.author_id is None
    assert not Message.objects.filter(text__contains="ann says").exists()
    assert not Message.objects.filter(text="private").exists()
    body = world.ben.get(f"/api/v1/tournaments/{world.event.pk}/chat/").json()
    assert [m["id"] for m in body["messages"]] == [before.pk, gone[0].pk, gone[1].pk, after.pk]
    shown = body["messages"][1]
    assert shown["deleted"] is True and shown["author"] is None and shown["text"] == ""
    assert body["messages"][0]["text"] == "before"


def test_a_removed_message_keeps_its_place_without_its_text(world: World) -> None:
    room = event_room(world)
    message = chat.post(room=room, author=world.ann.player, text="rude words")
    Message.objects.filter(pk=message.pk).update(deleted_at=timezone.now(), deleted_by=world.org.player)
    (shown,) = world.ben.get(f"/api/v1/tournaments/{world.event.pk}/chat/").json()["messages"]
    assert shown["removed"] is True and shown["text"] == "" and shown["author"]["name"] == "Ann"


# ---------------------------------------------------------------- the live topic's version
@pytest.mark.django_db(transaction=True)  # the reads close stale connections, as the hub's threads must
def test_the_topic_version_follows_posts_removals_and_scrubs(world: World) -> None:
    room = event_room(world)
    topic = f"chat:{room.pk}"
    assert reads.parse_topic(topic) == ("chat", room.pk)
    empty = reads._topic_version(topic)
    message = chat.post(room=room, author=world.ann.player, text="one")
    posted = reads._topic_version(topic)
    assert posted != empty
    Message.objects.filter(pk=message.pk).update(deleted_at=timezone.now())
    removed = reads._topic_version(topic)
    assert removed not in (empty, posted)
    chat.scrub_author(player=world.ann.player)
    assert reads._topic_version(topic) != removed
    assert reads._missing([("chat", room.pk), ("chat", 987654321)]) == [("chat", 987654321)]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_ten_messages_sent_at_once_keep_exactly_five(world: World, settings) -> None:
    """The author's row is locked while their messages are counted: ten requests racing store
    five, and the other five are told to wait (PostgreSQL, real threads)."""
    settings.CHAT_RATE_BURST, settings.CHAT_RATE_MINUTE = 5, 20
    room = event_room(world)
    barrier = threading.Barrier(10)
    outcomes: list[str] = []

    def send(n: int) -> None:
        try:
            barrier.wait(timeout=10)
            chat.post(room=room, author=world.ann.player, text=f"race {n}")
            outcomes.append("sent")
        except RateLimited:
            outcomes.append("throttled")
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(n,)) for n in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert sorted(outcomes) == ["sent"] * 5 + ["throttled"] * 5
    assert Message.objects.filter(author=world.ann.player).count() == 5
