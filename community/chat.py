"""Writing in the chat: posting a message, switching a room's chat off or on for yourself, and
scrubbing a deleted account's messages.

A message is stored as typed (trimmed, control characters other than the newline removed) and
always shown as text: the API answers JSON, the pages put it in with ``textContent`` or Django's
escaping. Limits: ``CHAT_MESSAGE_MAX_LENGTH`` characters; ``CHAT_RATE_BURST`` messages in any
10 seconds and ``CHAT_RATE_MINUTE`` in any minute per player, all rooms together, counted from
the messages stored (exact, and without Redis), the player's row locked so two requests at once
count each other.

After the commit every message announces ``chat_posted`` (the live pages fetch what is new) and,
when it names players as ``@name`` who may read the room, ``mentioned`` (their inbox).
"""

from __future__ import annotations

import math
import re
import unicodedata
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from common.errors import Forbidden, InvalidInput
from games.events import PlayerRef, send_after_commit
from games.models import Block, Player
from games.names import MAX_LENGTH as NAME_MAX_LENGTH
from games.names import name_key
from tournaments.models import League

from . import rooms
from .errors import RateLimited
from .events import ChatPosted, Mention, chat_posted, mentioned
from .models import ChatOff, Message, Room

#: The rate windows: (seconds, the setting naming how many messages it takes).
BURST_SECONDS = 10
MINUTE_SECONDS = 60
#: At most this many players are told of one message's mentions.
MAX_MENTIONS = 5
#: How many words a mention's name may run to ("@Anna Maria" names "Anna Maria").
MENTION_WORDS = 4
#: A mention's text in a notification: the start of the message.
EXCERPT_LENGTH = 140

#: Bidirectional overrides and isolates: they turn the text around them (and what follows) the
#: other way, a known trick to disguise what a message says.
_BIDI = dict.fromkeys(map(ord, "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"))
_MENTION = re.compile(r"(?:^|(?<=[\s(\[,;:]))@(?=\S)")
_EDGE_PUNCTUATION = ".,;:!?)]}\"'»”’"


def clean_text(text: str) -> str:
    """The message as it is stored: line ends made ``\\n``, control characters other than the
    newline and bidirectional overrides removed, trimmed."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").translate(_BIDI)
    kept = "".join(ch for ch in text if ch == "\n" or unicodedata.category(ch) != "Cc")
    return kept.strip()


def _check_text(text: str) -> str:
    cleaned = clean_text(text)
    if not cleaned:
        raise InvalidInput(_("the message is empty: write something to send"))
    limit = settings.CHAT_MESSAGE_MAX_LENGTH
    if len(cleaned) > limit:
        raise InvalidInput(
            ngettext(
                "the message is %(length)d characters long: at most %(limit)d character is allowed",
                "the message is %(length)d characters long: at most %(limit)d characters are allowed",
                limit,
            )
            % {"length": len(cleaned), "limit": limit}
        )
    return cleaned


def _check_rate(author: Player) -> None:
    """Refuse a message past the rate: ``CHAT_RATE_BURST`` in any 10 seconds, ``CHAT_RATE_MINUTE``
    in any minute (the caller holds the author's row lock)."""
    now = timezone.now()
    recent = list(
        Message.objects.filter(author=author, created__gt=now - timedelta(seconds=MINUTE_SECONDS))
        .order_by("-created")
        .values_list("created", flat=True)[: max(settings.CHAT_RATE_BURST, settings.CHAT_RATE_MINUTE)]
    )
    waits = []
    for seconds, limit in (
        (BURST_SECONDS, settings.CHAT_RATE_BURST),
        (MINUTE_SECONDS, settings.CHAT_RATE_MINUTE),
    ):
        inside = [at for at in recent if at > now - timedelta(seconds=seconds)]
        if limit > 0 and len(inside) >= limit:
            # The window has room again once the limit-th newest message leaves it.
            frees = inside[limit - 1] + timedelta(seconds=seconds)
            waits.append(max(1, math.ceil((frees - now).total_seconds())))
    if waits:
        retry = max(waits)
        raise RateLimited(
            ngettext(
                "you are sending messages too fast: wait %(seconds)d second before the next one",
                "you are sending messages too fast: wait %(seconds)d seconds before the next one",
                retry,
            )
            % {"seconds": retry},
            retry=retry,
        )


def _mention_candidates(text: str) -> list[list[str]]:
    """For each ``@`` in ``text``, the names it may stand for, longest first ("@Anna Maria hi"
    gives "Anna Maria hi", "Anna Maria", "Anna")."""
    found = []
    for match in _MENTION.finditer(text):
        line = text[match.end() : match.end() + NAME_MAX_LENGTH + 1].split("\n", 1)[0]
        words = []
        for word in line.split()[:MENTION_WORDS]:
            if word.startswith("@"):  # the next mention
                break
            words.append(word)
        names = []
        for n in range(len(words), 0, -1):
            name = " ".join(words[:n]).rstrip(_EDGE_PUNCTUATION)
            if name and len(name) <= NAME_MAX_LENGTH:
                names.append(name)
        if names:
            found.append(names)
    return found


def mentioned_players(*, room: Room, author: Player, text: str) -> list[Player]:
    """The players ``text`` names as ``@name`` (display names, case and look-alikes aside) who
    are told: people (no bot, no guest) other than the author who may read the room, have not
    switched its chat off, and have not blocked the author. At most :data:`MAX_MENTIONS`."""
    candidates = _mention_candidates(text)
    if not candidates:
        return []
    keys = {key for names in candidates for name in names if (key := name_key(name))}
    by_key = {
        p.name_key: p
        for p in Player.objects.filter(name_key__in=keys, is_bot=False, is_guest=False)
        .exclude(pk=author.pk)
        .select_related("user")
    }
    chosen: dict[int, Player] = {}
    for names in candidates:
        for name in names:  # the longest name that is someone's
            player = by_key.get(name_key(name))
            if player is not None:
                chosen.setdefault(player.pk, player)
                break
    blockers = set(
        Block.objects.filter(player_id__in=chosen, blocked=author).values_list("player_id", flat=True)
    )
    off = set(ChatOff.objects.filter(room=room, player_id__in=chosen).values_list("player_id", flat=True))
    told = [
        p
        for p in chosen.values()
        if p.pk not in blockers
        and p.pk not in off
        and p.user.is_active
        and rooms.may_read(room=room, player=p)
    ]
    return told[:MAX_MENTIONS]


def post(*, room: Room, author: Player, text: str) -> Message:
    """``author`` writes ``text`` in ``room``. Refused: a player who may not write there (403, the
    reason: a guest, not at the table, muted, chat switched off, …), an empty or too long text (400),
    past the rate (429, with the seconds to wait)."""
    cleaned = _check_text(text)
    with transaction.atomic():
        # One author's messages are counted one at a time (two requests at once see each other).
        Player.objects.select_for_update().filter(pk=author.pk).first()
        refusal = rooms.write_refusal(room=room, player=author)
        if refusal is not None:
            raise Forbidden(refusal)
        _check_rate(author)
        message = Message.objects.create(room=room, author=author, text=cleaned)
        told = mentioned_players(room=room, author=author, text=cleaned)
        send_after_commit(chat_posted, post=ChatPosted(room_id=room.pk, message_id=message.pk))
        if told:
            mention = Mention(
                message_id=message.pk,
                room_id=room.pk,
                author=PlayerRef.of(author),
                excerpt=cleaned[:EXCERPT_LENGTH],
                url=rooms.room_url(room=room),
                mentioned=tuple(PlayerRef.of(p) for p in told),
            )
            send_after_commit(mentioned, mention=mention)
    return message


def chat_off(*, room: Room, player: Player, off: bool) -> bool:
    """``player`` switches ``room``'s chat off (``off``) or back on, for themselves only: they
    neither read nor write there while it is off. Returns whether it is off now. Anyone who may
    read the room may switch it (idempotent)."""
    if player.is_guest:
        raise Forbidden(_("guest accounts cannot chat: create an account to talk to other players"))
    if not rooms.may_read(room=room, player=player):
        raise Forbidden(_("you may not read this chat"))
    if not off:
        ChatOff.objects.filter(room=room, player=player).delete()
        return False
    try:
        with transaction.atomic():
            ChatOff.objects.get_or_create(room=room, player=player)
    except IntegrityError:  # switched off at the same moment by another request of theirs
        pass
    return True


def scrub_author(*, player: Player) -> int:
    """A deleted account's messages: their text is removed for good and their author forgotten;
    each stays as a "deleted message", so the conversation around it still reads in order. Their
    chat switches go too. Returns how many messages were scrubbed. Runs inside the deletion's
    transaction; the rooms' open pages are told after the commit."""
    with transaction.atomic():
        touched = dict(
            Message.objects.filter(author=player)
            .order_by("room_id")
            .values("room_id")
            .annotate(last=Max("id"))
            .values_list("room_id", "last")
        )
        scrubbed = Message.objects.filter(author=player).update(text="", scrubbed=True, author=None)
        ChatOff.objects.filter(player=player).delete()
        for room_id, last in touched.items():
            send_after_commit(chat_posted, post=ChatPosted(room_id=room_id, message_id=last))
    return scrubbed


def links_set(*, league: League, by: Player, allowed: bool) -> League:
    """The club's organisers (or staff) choose whether links in the club's chat rooms (its own, its
    events', ladders' and tables') are shown as links (``allowed``) or as plain text (the default)."""
    if not rooms.may_moderate_league(league=league, player=by):
        raise Forbidden(_("only the club's organisers choose how its chat shows links"))
    with transaction.atomic():
        locked = League.objects.select_for_update().get(pk=league.pk)
        if locked.chat_links != allowed:
            locked.chat_links = allowed
            locked.save(update_fields=["chat_links"])
    return locked
