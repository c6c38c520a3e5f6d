"""The payload of ``team_event_changed`` (``tournaments.events.TeamEventNews``), read once the
change has committed: who is concerned (captains when a round is paired, players when their
boards open) and whose pages change."""

from __future__ import annotations

from games import selectors as game_reads
from games.events import PlayerRef
from games.models import Player

from ..events import TeamBoardNews, TeamEventNews, TeamSideNews
from ..models import TeamBoard, TeamEvent, TeamMatchSide, TeamRound


def _refs(ids: set[int]) -> dict[int, PlayerRef]:
    return {p.pk: PlayerRef.of(p) for p in Player.objects.filter(pk__in=ids)}


def team_event_news(
    *, event_id: int, state: str, round_id: int | None = None, table_ids: tuple[int, ...] = ()
) -> TeamEventNews:
    event = TeamEvent.objects.get(pk=event_id)
    rnd = TeamRound.objects.filter(pk=round_id).first() if round_id is not None else None
    sides: list[TeamSideNews] = []
    boards: list[TeamBoardNews] = []
    players: set[int] = set()
    if rnd is not None and state == "paired":
        rows = list(
            TeamMatchSide.objects.filter(match__round=rnd).select_related("team").order_by("match", "order")
        )
        refs = _refs({p for s in rows for p in (s.team.captain_id, s.team.vice_captain_id) if p})
        for s in rows:
            managers = tuple(refs[p] for p in (s.team.captain_id, s.team.vice_captain_id) if p in refs)
            others = tuple(o.team.name for o in rows if o.match_id == s.match_id and o.team_id != s.team_id)
            sides.append(TeamSideNews(s.team_id, s.team.name, managers, others, s.match_id, s.team.slug))
            players |= {m.id for m in managers}
    if rnd is not None and table_ids:
        found = list(TeamBoard.objects.filter(table_id__in=table_ids).order_by("match__number", "number"))
        seated = {b.pk: [p for p in b.players if p is not None] for b in found}
        refs = _refs({p for ids in seated.values() for p in ids})
        for b in found:
            order = game_reads.seatings([b.table_id]).get(b.table_id, seated[b.pk])
            boards.append(
                TeamBoardNews(b.match_id, b.number, b.table_id, tuple(refs[p] for p in order if p in refs))
            )
            players |= set(order)
    return TeamEventNews(
        event_id=event.pk,
        event=event.name,
        state=state,
        round_id=rnd.pk if rnd else None,
        number=rnd.number if rnd else 0,
        starts_at=rnd.starts_at if rnd else None,
        sides=tuple(sides),
        boards=tuple(boards),
        players=tuple(sorted(players)),
    )
