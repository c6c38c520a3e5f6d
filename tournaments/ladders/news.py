"""The payloads of the ladders' events (:mod:`tournaments.events`), read from their own tables
by the writes that announce them, so that their listeners need not read them."""

from __future__ import annotations

from games.events import PlayerRef

from ..events import ChallengeNews
from ..models import Challenge, Ladder


def challenge_news(c: Challenge) -> ChallengeNews:
    """A challenge as it stands now (its ladder and both players are read if not loaded)."""
    return ChallengeNews(
        id=c.pk,
        status=c.status,
        outcome=c.outcome,
        ladder_id=c.ladder_id,
        ladder=c.ladder.name,
        position=c.ladder.kind == Ladder.Kind.POSITION,
        challenger=PlayerRef.of(c.challenger),
        challenged=PlayerRef.of(c.challenged),
        expires_at=c.expires_at,
        table_id=c.table_id,
    )
