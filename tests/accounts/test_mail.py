"""Mail end to end through a real SMTP server (aiosmtpd, started by the test): password reset,
address verification, "your turn", challenges, unsubscribing, digests, and a mail server that is
down. Mail leaves through the outbox (``accounts.outbox``); here the sweep that a worker or the
local sweeper runs is called directly."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from accounts import outbox, sweeps
from accounts.models import Account, Notification, OutgoingMail
from accounts.notify import send_digests, set_email_mode
from games import services as games
from games.models import Table
from tests.games.conftest import Actor, every_seat_moves, ladder_for, play_random, started_table
from tournaments import ladders
from tournaments.models import Challenge

from .conftest import verified
from .smtp import SmtpServer, link_in, text_of

CORRESPONDENCE = {"kind": "correspondence", "days": 3}

# Notifications are made after commit, as in production: the tests commit.
pytestmark = pytest.mark.django_db(transaction=True)


def deliver() -> dict[str, int]:
    """What a worker does: send every due mail."""
    return outbox.send_due()


def subjects(smtp: SmtpServer, address: str) -> list[str]:
    return [str(m["Subject"]) for m in smtp.to(address)]


def test_password_reset_end_to_end(db: None, smtp: SmtpServer, alice: Actor) -> None:
    verified(alice, "alice@example.org")
    browser = Client()
    answer = browser.post("/accounts/password_reset/", {"email": "ALICE@example.org"})
    assert answer.status_code == 302 and answer["Location"] == "/accounts/password_reset/done/"
    assert deliver() == {"sent": 1}
    [mail] = smtp.to("alice@example.org")
    assert "Reset your password" in str(mail["Subject"])
    link = link_in(mail, "/accounts/reset/")
    # Django swaps the token for a session key and redirects to the form.
    form_page = browser.get(link, follow=True)
    assert form_page.status_code == 200 and b"Choose a new password" in form_page.content
    done = browser.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": "a-brand-new-secret-7", "new_password2": "a-brand-new-secret-7"},
    )
    assert done.status_code == 302 and done["Location"] == "/accounts/reset/done/"
    assert Client().login(username="alice", password="a-brand-new-secret-7")
    assert not Client().login(username="alice", password="correct-horse-9")
    # The link works once.
    again = browser.get(link, follow=True)
    assert b"does not work any more" in again.content


def test_password_reset_for_an_unknown_address_sends_nothing_and_says_the_same(
    db: None, smtp: SmtpServer
) -> None:
    answer = Client().post("/accounts/password_reset/", {"email": "nobody@example.org"})
    assert answer.status_code == 302 and answer["Location"] == "/accounts/password_reset/done/"
    assert deliver() == {} and smtp.messages == []


def test_reset_mails_are_at_most_one_a_minute(db: None, smtp: SmtpServer, alice: Actor) -> None:
    verified(alice, "alice@example.org")
    for _ in range(3):
        Client().post("/accounts/password_reset/", {"email": "alice@example.org"})
    deliver()
    assert len(smtp.to("alice@example.org")) == 1


def test_signing_up_with_an_address_mails_a_link_that_verifies_it(db: None, smtp: SmtpServer) -> None:
    browser = Client()
    answer = browser.post(
        "/accounts/signup/",
        {
            "username": "erin",
            "email": "erin@example.org",
            "password1": "tall-hedge-maze-4",
            "password2": "tall-hedge-maze-4",
        },
    )
    assert answer.status_code == 302
    user = get_user_model().objects.get(username="erin")
    assert user.email == "erin@example.org"
    assert Account.objects.get(user=user).email_verified_at is None
    deliver()
    [mail] = smtp.to("erin@example.org")
    page = browser.get(link_in(mail, "/accounts/verify/"))
    assert page.status_code == 200 and b"Address confirmed" in page.content
    assert Account.objects.get(user=user).email_verified_at is not None
    assert user.player.__class__.objects.get(user=user).email_verified


def test_a_changed_address_is_verified_again_and_the_old_one_stays_until_then(
    db: None, smtp: SmtpServer, alice: Actor
) -> None:
    verified(alice, "alice@example.org")
    browser = Client()
    browser.force_login(alice.player.user)
    change = {"action": "email", "email": "alice@new.example", "password": "correct-horse-9"}
    browser.post("/accounts/settings/", change)
    user = get_user_model().objects.get(pk=alice.player.user_id)
    account = Account.objects.get(user=user)
    assert user.email == "alice@example.org" and account.email_verified_at is not None
    assert account.pending_email == "alice@new.example"
    deliver()
    [mail] = smtp.to("alice@new.example")
    assert browser.get(link_in(mail, "/accounts/verify/")).status_code == 200
    user.refresh_from_db()
    assert user.email == "alice@new.example"
    assert Account.objects.get(user=user).pending_email == ""


def test_a_tampered_verification_link_is_refused(db: None, client: Client) -> None:
    answer = client.get("/accounts/verify/not-a-real-token/")
    assert answer.status_code == 400 and b"not valid" in answer.content


def test_a_correspondence_move_mails_your_turn_once_to_the_right_player(
    db: None, smtp: SmtpServer, alice: Actor, bob: Actor
) -> None:
    verified(alice), verified(bob)
    table = started_table([alice, bob], time_control=CORRESPONDENCE)
    play_random(table, {1: alice.player, 2: bob.player}, plies=1)
    deliver()
    # Delivered again (a redelivered task, a second sweep): nothing more goes out.
    for mail in OutgoingMail.objects.all():
        assert outbox.send(mail.pk) == "not due"
    deliver()
    sweeps.idle_turns(now=timezone.now() + timedelta(days=1))
    deliver()
    to_bob = [m for m in smtp.to("bob@example.org") if "Your turn" in str(m["Subject"])]
    assert len(to_bob) == 1
    assert f"/tables/{table.pk}/" in text_of(to_bob[0])
    assert "Alice" in str(to_bob[0]["Subject"])
    # Alice was told once, when the table started (her first move), never for Bob's turn.
    to_alice = [m for m in smtp.to("alice@example.org") if "Your turn" in str(m["Subject"])]
    assert len(to_alice) == 1
    assert Notification.objects.filter(user=bob.player.user, kind="your_turn").count() == 1


def test_a_live_game_sends_no_turn_mail_until_the_player_has_been_idle(
    db: None, smtp: SmtpServer, alice: Actor, bob: Actor, settings: Any
) -> None:
    verified(alice), verified(bob)
    table = started_table([alice, bob], time_control={"kind": "fischer", "base": 600, "increment": 5})
    table = play_random(table, {1: alice.player, 2: bob.player}, plies=1)
    assert not Notification.objects.filter(kind="your_turn").exists()
    assert sweeps.idle_turns() == 0
    later = timezone.now() + timedelta(seconds=settings.NOTIFY_IDLE_SECONDS + 1)
    assert sweeps.idle_turns(now=later) == 1
    assert sweeps.idle_turns(now=later) == 0
    deliver()
    [mail] = smtp.to("bob@example.org")
    assert "Your turn" in str(mail["Subject"])


def test_a_challenge_makes_one_mail_and_one_inbox_entry(
    db: None, smtp: SmtpServer, alice: Actor, bob: Actor
) -> None:
    verified(alice), verified(bob)
    ladder = ladder_for(alice, bob)
    top, below = (alice, bob) if ladder.members.get(player=alice.player).position == 1 else (bob, alice)
    challenge = ladders.challenge_create(ladder=ladder, challenger=below.player, challenged=top.player)
    deliver()
    deliver()
    address = top.player.user.email
    [mail] = [m for m in smtp.to(address) if "challenged you" in str(m["Subject"])]
    assert below.player.display_name in str(mail["Subject"])
    assert str(mail["List-Unsubscribe"]).strip().startswith("<http://testserver/accounts/unsubscribe/")
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert mail.get_body(preferencelist=("html",)) is not None
    entries = Notification.objects.filter(user=top.player.user, kind="challenge")
    assert entries.count() == 1 and entries.get().url == f"/ladders/{ladder.pk}/"
    # Accepting tells the challenger, with a link to the new table.
    table = ladders.challenge_accept(challenge_id=challenge.pk, by=top.player)
    answer = Notification.objects.get(user=below.player.user, kind="challenge_answer")
    assert answer.url == f"/tables/{table.pk}/" and answer.params["status"] == "accepted"


def test_the_unsubscribe_link_works_without_logging_in(
    db: None, smtp: SmtpServer, alice: Actor, bob: Actor
) -> None:
    verified(alice), verified(bob)
    ladder = ladder_for(alice, bob)
    first = ladder.members.order_by("position").first()
    assert first is not None
    top = alice if first.player_id == alice.player.pk else bob
    other = bob if top is alice else alice
    ladders.challenge_create(ladder=ladder, challenger=other.player, challenged=top.player)
    deliver()
    [mail] = [m for m in smtp.to(top.player.user.email) if "challenged you" in str(m["Subject"])]
    link = link_in(mail, "/accounts/unsubscribe/")
    page = Client().get(link)  # nobody logged in
    assert page.status_code == 200 and b"Unsubscribed" in page.content
    from accounts.notify import email_modes

    assert email_modes(user_id=top.player.user_id)["challenge"] == "off"
    assert email_modes(user_id=top.player.user_id)["your_turn"] == "immediate"  # only that kind
    # Undo turns it back on; a mail client's one-click POST (RFC 8058) turns it off again.
    Client(enforce_csrf_checks=True).post(link, {"action": "undo"})
    assert email_modes(user_id=top.player.user_id)["challenge"] == "immediate"
    header = str(mail["List-Unsubscribe"]).strip().strip("<>")
    one_click = Client(enforce_csrf_checks=True).post(
        header.replace("http://testserver", ""), {"List-Unsubscribe": "One-Click"}
    )
    assert one_click.status_code == 200
    assert email_modes(user_id=top.player.user_id)["challenge"] == "off"
    # The next challenge reaches the inbox but sends no mail.
    Challenge.objects.update(status="cancelled")
    smtp.messages.clear()
    ladders.challenge_create(ladder=ladder, challenger=other.player, challenged=top.player)
    deliver()
    assert [m for m in smtp.to(top.player.user.email) if "challenged" in str(m["Subject"])] == []
    assert Notification.objects.filter(user=top.player.user, kind="challenge").count() == 2
    assert Client().get("/accounts/unsubscribe/forged/").status_code == 400


def test_a_mail_server_that_is_down_delays_mail_not_moves(
    db: None, smtp: SmtpServer, alice: Actor, bob: Actor, settings: Any
) -> None:
    settings.MAIL_RETRY_SECONDS = 0.3
    verified(alice), verified(bob)
    table = started_table([alice, bob], time_control=CORRESPONDENCE)
    OutgoingMail.objects.all().delete()
    smtp.stop()
    # Moves go on: nothing in a move waits for the mail server.
    table = play_random(table, {1: alice.player, 2: bob.player}, plies=4)
    assert table.ply == 4
    assert deliver() == {"retry": 1}  # the first refusal stops the batch
    waiting = OutgoingMail.objects.filter(status="pending")
    assert waiting.count() == 4
    tried = waiting.get(attempts=1)
    assert tried.next_try_at > timezone.now() and "ConnectionRefused" in tried.last_error
    smtp.start()
    time.sleep(0.35)
    assert deliver() == {"sent": 4}
    assert deliver() == {}
    turns = [m for m in smtp.messages if "Your turn" in str(m["Subject"])]
    assert len(turns) == 4
    assert len({m["Message-ID"] for m in turns}) == 4
    assert OutgoingMail.objects.get(pk=tried.pk).attempts == 2


def test_a_mail_is_given_up_after_its_last_attempt(
    db: None, smtp: SmtpServer, alice: Actor, settings: Any
) -> None:
    settings.MAIL_MAX_ATTEMPTS = 2
    settings.MAIL_RETRY_SECONDS = 0
    smtp.stop()
    mail = outbox.queue(key="t:1", to="x@example.org", subject="s", text="t")
    assert mail is not None
    assert outbox.send(mail.pk) == "retry"
    assert outbox.send(mail.pk) == "failed"
    assert OutgoingMail.objects.get(pk=mail.pk).status == "failed"
    assert outbox.queue(key="t:1", to="x@example.org", subject="s", text="t") is None  # never twice


def test_an_hourly_digest_gathers_notifications_into_one_mail(
    db: None, smtp: SmtpServer, alice: Actor, bob: Actor, carol: Actor
) -> None:
    verified(alice), verified(bob), verified(carol)
    ladder = ladder_for(alice, bob, carol)
    order = [m.player for m in ladder.members.order_by("position")]
    top = order[0]
    set_email_mode(user_id=top.user_id, kind="challenge", mode="hourly")
    set_email_mode(user_id=top.user_id, kind="challenge_answer", mode="hourly")
    c = ladders.challenge_create(ladder=ladder, challenger=order[1], challenged=top)
    ladders.challenge_answer(challenge_id=c.pk, by=order[1], decision="cancel")
    deliver()
    assert smtp.to(top.user.email) == []
    assert send_digests() == 0  # not due yet
    later = timezone.now() + timedelta(hours=1, minutes=1)
    assert send_digests(now=later) == 1
    assert send_digests(now=later) == 0
    deliver()
    [mail] = smtp.to(top.user.email)
    body = text_of(mail)
    assert "challenged you" in body and "withdrew their challenge" in body
    assert str(mail["Subject"]).startswith("2 updates")
    assert mail["List-Unsubscribe"]
    assert not Notification.objects.filter(mail="digest").exists()


def test_time_running_low_is_said_at_24_hours_and_at_1_hour(db: None, alice: Actor, bob: Actor) -> None:
    table = started_table([alice, bob], time_control={"kind": "correspondence", "days": 3})
    now = timezone.now()
    Table.objects.filter(pk=table.pk).update(
        deadline=now + timedelta(hours=23), turn_started_at=now - timedelta(hours=49)
    )
    assert sweeps.low_time(now=now) == 1
    assert sweeps.low_time(now=now) == 0
    Table.objects.filter(pk=table.pk).update(deadline=now + timedelta(minutes=50))
    assert sweeps.low_time(now=now) == 1
    warnings = Notification.objects.filter(kind="time_low").order_by("pk")
    assert [n.key.rsplit(":", 1)[1] for n in warnings] == ["24h", "1h"]
    assert warnings[0].user_id == alice.player.user_id  # seat 1 is on turn


def test_a_finished_game_tells_each_player_the_result_and_rating_change(
    db: None, alice: Actor, bob: Actor
) -> None:
    table = every_seat_moves(started_table([alice, bob], game="shacru"))
    games.game_resign(table_id=table.pk, player=bob.player)
    browser = Client()
    browser.force_login(alice.player.user)
    page = browser.get("/notifications/")
    text = page.content.decode()
    assert "Your Shacru game against Bob ended: Alice won (Bob: resigned)" in text
    assert "Rating 1500 → " in text  # the change, read from the ratings
    assert Notification.objects.filter(kind="game_over").count() == 2


def test_a_mail_whose_senders_keep_dying_is_given_up_not_sent_forever(
    db: None, smtp: SmtpServer, settings: Any
) -> None:
    settings.MAIL_MAX_ATTEMPTS = 2
    settings.MAIL_CLAIM_SECONDS = 0
    mail = outbox.queue(key="t:2", to="x@example.org", subject="s", text="t")
    assert mail is not None
    # Two senders took it and died before marking it (their claims ran out).
    assert outbox._claim(mail.pk, timezone.now()) is not None
    assert outbox._claim(mail.pk, timezone.now()) is not None
    assert outbox.send(mail.pk) == "failed"
    assert OutgoingMail.objects.get(pk=mail.pk).status == "failed"
    assert smtp.messages == []


def test_a_sender_whose_claim_was_taken_over_changes_nothing(
    db: None, smtp: SmtpServer, settings: Any
) -> None:
    settings.MAIL_CLAIM_SECONDS = 0
    mail = outbox.queue(key="t:3", to="x@example.org", subject="s", text="t")
    assert mail is not None
    first = outbox._claim(mail.pk, timezone.now())
    assert outbox.send(mail.pk) == "sent"  # a second sender, after the first one's claim ran out
    late = OutgoingMail.objects.filter(pk=mail.pk, claimed_until=first).update(status="pending")
    assert late == 0 and OutgoingMail.objects.get(pk=mail.pk).status == "sent"
    assert len(smtp.messages) == 1
