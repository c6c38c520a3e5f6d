"""The community in the demo (``seed_demo``): the Demo Club's chat room with a conversation, a game
in progress whose players and spectators each talk in their own room, friends (Alice follows Bob,
Carol and Ivan), a challenge to a table waiting for Alice's answer, a reported message waiting in
the moderation queue (the organiser sees it at /moderation/), and Dave on a correspondence vacation
(his correspondence clocks stand still until it ends)."""

from __future__ import annotations

from django.db.models import Count, Q

from community import challenges, chat, friends, reports, rooms
from community.models import Room
from games import vacation
from games.models import Player, Table
from tournaments.models import League

#: The club room's conversation: (author's username, text), in order.
CLUB_TALK = [
    ("alice", "Welcome to the Demo Club chat! Say hello, and tell us which game you play most."),
    ("bob", "Hello all. Anyone up for a correspondence game of Shacru this week?"),
    ("carol", "@Bob I am: challenge me from my player page."),
    ("dave", "The round robin's third round is on: good luck, everyone."),
    ("organiser", "Reminder: the Swiss starts soon; register on the event page if you want a seat."),
    ("mallory", "You are all hopeless at this game, quit the club."),
    ("alice", "That is not how we talk here, Mallory."),
]
PLAYERS_TALK = [("alice", "Good luck, @Bob!"), ("bob", "You too. A long game ahead, I think.")]
SPECTATORS_TALK = [("carol", "Bob's chevrons hold the middle."), ("dave", "Alice can still turn it round.")]


def seed_community(*, league: League) -> bool:
    """Seed the community once (False: the club's room has messages already, or a player is missing)."""
    room = rooms.league_room(league=league)
    if room.messages.exists():
        return False
    people = {p.user.username: p for p in Player.objects.select_related("user").filter(is_bot=False)}
    if not {"alice", "bob", "carol", "dave", "organiser", "mallory"} <= set(people):
        return False
    if not league.members.filter(pk=people["mallory"].pk).exists():
        league.members.add(people["mallory"])
    for username, text in CLUB_TALK:
        chat.post(room=room, author=people[username], text=text)
    game = (
        Table.objects.filter(status=Table.Status.ACTIVE, players=2)
        .annotate(
            ours=Count("seats", filter=Q(seats__player__in=[people["alice"], people["bob"]])),
        )
        .filter(ours=2)
        .order_by("pk")
        .first()
    )
    if game is not None:
        for kind, talk in ((Room.Kind.PLAYERS, PLAYERS_TALK), (Room.Kind.SPECTATORS, SPECTATORS_TALK)):
            table_room = rooms.table_room(table=game, kind=kind)
            for username, text in talk:
                chat.post(room=table_room, author=people[username], text=text)
    for name in ("bob", "carol", "ivan"):
        if name in people:
            friends.follow(player=people["alice"], other_id=people[name].pk)
    friends.follow(player=people["bob"], other_id=people["alice"].pk)
    if not Table.objects.filter(status=Table.Status.OPEN, invited=people["alice"]).exists():
        challenges.challenge(
            by=people["carol"],
            to_id=people["alice"].pk,
            game="azacru",
            time_control={"kind": "correspondence", "days": 3},
        )
    rude = room.messages.filter(author=people["mallory"]).order_by("pk").first()
    assert rude is not None
    reports.report(
        reporter=people["bob"],
        subject="message",
        reason="abuse",
        message_id=rude.pk,
        details="Not the first time.",
    )
    if not vacation.on_vacation(people["dave"]):
        vacation.vacation_start(player=people["dave"], days=5)
    return True
