"""The bot ladder: the levels play each other in-process, TrueSkill rates them, ``BotRating`` keeps it.

**Series.** For one game and seat count, the chosen levels (at least as many as the seats) are cut
into windows of consecutive levels as wide as the table (levels 1–8 at 2 seats: 1–2, 2–3, …, 7–8;
at 4 seats: 1–4, 2–5, …, 5–8), and each window plays ``games`` games with its seats rotated (game
``g`` seats the window shifted by ``g``), so over a multiple of the seat count every level of the
window plays every seat equally often. Every move is the level's own choice
(:func:`engine.bots.levels.choose`) seeded from the run's seed, the game and the ply: a series is
reproducible from its seed on any machine (unless a level's safety cap cuts a search short).

**Openings.** With ``openings`` above 0 each game starts from a position reached by that many
random legal plies (:func:`engine.playout.random_step`, seeded from the run's seed, the window
and the opening's number), and every opening is played once for each rotation of the window's
seats (at 2 seats: twice, with the seats swapped), as engine testers pair their openings: the
games differ by more than the bots' tie-breaks, and no level gains from the side an opening
favours. 0 (the default) starts every game from the start position, as the shipped series did.

**Rating.** Each game's ranks (:meth:`engine.state.State.ranking`; ties shared) update the levels'
TrueSkill ratings with the project's own environment (:func:`ratings.environment.rate`), one game
after another, the windows' games in turn (:func:`rating_order`). **Against the level below**: in
every game where a level and the level one number below both sat, the level scores 1 if it finished
above it, ½ if level, 0 if below (at 2 seats simply its wins). **Time per move**: the mean wall
time of the level's choices, on the machine that ran the series (a level's *moves* do not depend on
the machine, its time does).

**Storage** (:func:`store`): in one transaction, the level's rows are made if missing, locked (in
level order) and the series' games applied to the ratings read under the lock, so two runs at
once both count, one after the other; a run adds its games to what earlier runs measured. The time
per move is the mean over all runs, weighted by their games.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from django.db import transaction

from engine.bots import levels as bot_levels
from engine.playout import random_step
from engine.state import State
from engine.variants import new_game
from games import botlevels
from ratings import display
from ratings.environment import MU, SIGMA, rate

from .models import BotRating

GAMES = ("pacru", "shacru", "azacru")
SEATS = (2, 3, 4)
#: A game that reaches this many plies ends and is ranked by markers (the engine's own limit).
PLY_LIMIT = 1000
#: At most this many random plies open a ladder game (``openings``).
MAX_OPENING = 20


def parse_levels(text: str | Iterable[int]) -> list[int]:
    """``"1-8"``, ``"2,4,6"``, ``"1-3,7"`` (or numbers) → sorted distinct level numbers.

    Raises ``ValueError`` (in words) for anything else or a level that does not exist."""
    known = {lv.number for lv in bot_levels.LEVELS}
    numbers: set[int] = set()
    if isinstance(text, str):
        for part in text.replace(" ", "").split(","):
            if not part:
                continue
            low, dash, high = part.partition("-")
            if not low.isdigit() or (dash and not high.isdigit()):
                raise ValueError(f"levels: {text!r} is not like 1-8 or 2,4,6")
            numbers.update(range(int(low), int(high if dash else low) + 1))
    else:
        numbers.update(int(n) for n in text)
    unknown = sorted(numbers - known)
    if unknown:
        raise ValueError(
            f"levels: no level {', '.join(map(str, unknown))} (there are {min(known)}–{max(known)})"
        )
    if not numbers:
        raise ValueError("levels: name at least one level")
    return sorted(numbers)


def windows(levels: Sequence[int], players: int) -> list[tuple[int, ...]]:
    """The groups of consecutive levels that play each other at ``players`` seats."""
    if len(levels) < players:
        raise ValueError(f"{players} seats need at least {players} levels, got {len(levels)}")
    ordered = sorted(levels)
    return [tuple(ordered[i : i + players]) for i in range(len(ordered) - players + 1)]


@dataclass(frozen=True)
class GameResult:
    """One ladder game: the level at each seat (seat 1 first) and each seat's rank (1 = first)."""

    levels: tuple[int, ...]
    ranks: tuple[int, ...]
    plies: int


@dataclass
class Tally:
    """What a series measured of one level (before rating)."""

    games: int = 0
    games_below: int = 0
    points_below: float = 0.0
    moves: int = 0
    seconds: float = 0.0

    @property
    def ms_per_move(self) -> float | None:
        return 1000 * self.seconds / self.moves if self.moves else None


@dataclass
class Series:
    game: str
    players: int
    levels: list[int]
    seed: int
    results: list[GameResult] = field(default_factory=list)
    tallies: dict[int, Tally] = field(default_factory=dict)
    #: Random plies before the bots (see the module docstring).
    openings: int = 0


def game_seed(seed: int, window: int, game: int) -> int:
    return (seed * 1_000_003 + window * 10_007 + game) % 2**31


def opening_seed(seed: int, window: int, opening: int) -> int:
    return (seed * 1_000_033 + window * 10_009 + opening + 7) % 2**31


def opening_position(game: str, players: int, *, plies: int, seed: int, ply_limit: int = PLY_LIMIT) -> State:
    """The start position after ``plies`` random legal plies chosen from ``seed`` (fewer if the
    game ends first, which random plies this early do not do in practice)."""
    state = new_game(game, players, ply_limit=ply_limit)
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_over:
            break
        state, _text = random_step(state, rng)
    return state


def play_game(
    game: str,
    seating: Sequence[int],
    *,
    seed: int,
    ply_limit: int = PLY_LIMIT,
    timer: Callable[[], float] = time.perf_counter,
    opening: tuple[int, int] = (0, 0),
) -> tuple[GameResult, dict[int, tuple[int, float]]]:
    """Play one game with ``seating[i]``'s level at seat ``i + 1``; its result and, per seat,
    (moves made, seconds spent choosing them). ``opening``: (random plies, their seed) played
    before the bots (:func:`opening_position`; none by default)."""
    plies, opening_from = opening
    state = opening_position(game, len(seating), plies=plies, seed=opening_from, ply_limit=ply_limit)
    spent: dict[int, tuple[int, float]] = {seat: (0, 0.0) for seat in range(1, len(seating) + 1)}
    while not state.is_over:
        seat = state.to_move
        start = timer()
        move = bot_levels.choose(state, seating[seat - 1], seed=seed * 1009 + state.ply)
        moves, seconds = spent[seat]
        spent[seat] = (moves + 1, seconds + timer() - start)
        state = state.play(move)
    ranking = state.ranking()
    ranks = tuple(ranking[seat] for seat in range(1, len(seating) + 1))
    return GameResult(levels=tuple(seating), ranks=ranks, plies=state.ply), spent


def play_series(
    *,
    game: str,
    players: int,
    levels: Sequence[int],
    games: int,
    seed: int = 1,
    progress: Callable[[int, int], None] | None = None,
    ply_limit: int = PLY_LIMIT,
    jobs: int = 1,
    openings: int = 0,
) -> Series:
    """Play ``games`` games in each window of ``levels`` at ``players`` seats (no database).
    ``openings``: random plies before the bots, each opening played in every rotation of the
    seats (see the module docstring); ``games`` must then be a multiple of ``players``.

    With ``jobs`` above 1 the games are shared among that many processes; every game keeps its
    own seed, so the results (not the times) are the same as played one after another."""
    if game not in GAMES:
        raise ValueError(f"game: choose one of {', '.join(GAMES)}")
    if players not in SEATS:
        raise ValueError("players: 2, 3 or 4")
    if games < 1:
        raise ValueError("games: at least 1")
    if not 0 <= openings <= MAX_OPENING:
        raise ValueError(f"openings: 0 to {MAX_OPENING} random plies")
    if openings and games % players:
        raise ValueError(
            f"games: with openings, a multiple of {players} (each opening is played in every seating)"
        )
    plan = [
        (
            group[g % players :] + group[: g % players],
            game_seed(seed, w, g),
            (openings, opening_seed(seed, w, g // players)),
        )
        for w, group in enumerate(windows(levels, players))
        for g in range(games)
    ]
    series = Series(game=game, players=players, levels=sorted(levels), seed=seed, openings=openings)
    series.tallies = {lv: Tally() for lv in series.levels}
    if jobs > 1:
        with ProcessPoolExecutor(jobs, mp_context=get_context("fork")) as pool:
            futures = [
                pool.submit(play_game, game, seating, seed=s, ply_limit=ply_limit, opening=o)
                for seating, s, o in plan
            ]
            played = (f.result() for f in futures)
            _collect(series, played, len(plan), progress)
    else:
        played = (play_game(game, seating, seed=s, ply_limit=ply_limit, opening=o) for seating, s, o in plan)
        _collect(series, played, len(plan), progress)
    return series


def series_to_dict(series: Series) -> dict[str, Any]:
    """A series as JSON-ready data (what ``bench/bot_ladder.py --save`` writes): every game's
    levels by seat, ranks and plies, and each level's tallies, times included."""
    return {
        "game": series.game,
        "players": series.players,
        "levels": list(series.levels),
        "seed": series.seed,
        "openings": series.openings,
        "results": [
            {"levels": list(r.levels), "ranks": list(r.ranks), "plies": r.plies} for r in series.results
        ],
        "tallies": {str(level): asdict(t) for level, t in series.tallies.items()},
    }


def series_from_dict(data: dict[str, Any]) -> Series:
    """The series :func:`series_to_dict` wrote, checked: a ``ValueError`` in words for data that
    is not one (an unknown game, seat count or level, a game whose seats or ranks do not fit)."""
    try:
        game, players = data["game"], int(data["players"])
        levels = parse_levels([int(x) for x in data["levels"]])
        if game not in GAMES or players not in SEATS:
            raise ValueError(f"a series of {game!r} at {players} seats is not one the ladder plays")
        results = [
            GameResult(levels=tuple(int(x) for x in r["levels"]), ranks=tuple(int(x) for x in r["ranks"]),
                       plies=int(r["plies"]))
            for r in data["results"]
        ]  # fmt: skip
        tallies = {
            int(level): Tally(
                games=int(t["games"]), games_below=int(t["games_below"]),
                points_below=float(t["points_below"]), moves=int(t["moves"]), seconds=float(t["seconds"]),
            )
            for level, t in data["tallies"].items()
        }  # fmt: skip
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"not a ladder series: {exc!r} is missing or malformed") from exc
    for r in results:
        if len(r.levels) != players or len(r.ranks) != players or not set(r.levels) <= set(levels):
            raise ValueError(f"a game's seats {list(r.levels)} do not fit {players} seats of levels {levels}")
        if not all(1 <= rank <= players for rank in r.ranks):
            raise ValueError(f"a game's ranks {list(r.ranks)} are not places 1 to {players}")
    if set(tallies) != set(levels):
        raise ValueError(f"the tallies name levels {sorted(tallies)}, the series {levels}")
    try:
        openings = int(data.get("openings", 0))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"not a ladder series: openings {data.get('openings')!r} is not a number") from exc
    if not 0 <= openings <= MAX_OPENING:
        raise ValueError(f"not a ladder series: openings {openings} is not 0 to {MAX_OPENING}")
    return Series(game=game, players=players, levels=levels, seed=int(data.get("seed", 0)),
                  results=results, tallies=tallies, openings=openings)  # fmt: skip


#: The ladder as measured for the release (``bench/bot_ladder.py --save``): the demo's Bots page
#: starts from it (:func:`seed_measured`).
MEASURED = Path(__file__).resolve().parent / "data" / "ladder.json"


def load_series(path: Path) -> list[Series]:
    """The series a ``--save`` file holds, every one checked (a ``ValueError`` in words if any is
    bad or the file cannot be read)."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise ValueError(f"cannot read {path}: {exc}") from None
    if not isinstance(data, list) or not data:
        raise ValueError(f"{path} holds no series (a JSON list of them is expected)")
    return [series_from_dict(item) for item in data]


def store_all(series: Iterable[Series]) -> None:
    """Store several series in one transaction: all of them or none."""
    with transaction.atomic():
        for one in series:
            store(one)


def seed_measured(path: Path = MEASURED) -> bool:
    """Store the release's measured ladder if no rating is stored yet (the demo); whether it did."""
    if BotRating.objects.exists() or not path.exists():
        return False
    store_all(load_series(path))
    return True


def _collect(
    series: Series,
    played: Iterable[tuple[GameResult, dict[int, tuple[int, float]]]],
    total: int,
    progress: Callable[[int, int], None] | None,
) -> None:
    for done, (result, spent) in enumerate(played, start=1):
        series.results.append(result)
        _count(series.tallies, result, spent)
        if progress:
            progress(done, total)


def _count(tallies: dict[int, Tally], result: GameResult, spent: dict[int, tuple[int, float]]) -> None:
    rank_of = dict(zip(result.levels, result.ranks, strict=True))
    for seat, level in enumerate(result.levels, start=1):
        t = tallies[level]
        t.games += 1
        moves, seconds = spent[seat]
        t.moves += moves
        t.seconds += seconds
        if level - 1 in rank_of:
            mine, theirs = rank_of[level], rank_of[level - 1]
            t.games_below += 1
            t.points_below += 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0


def rating_order(results: Iterable[GameResult]) -> list[GameResult]:
    """The order a series' games update the ratings: the windows' games in turn (each window's
    first game, then each one's second …), each window's in the order played. Rated window after
    window instead, a level's rating would be decided by the last window it sat in (its
    uncertainty is still wide when it starts on the second), whatever it did in the first."""
    by_window: dict[frozenset[int], list[GameResult]] = {}
    for r in results:
        by_window.setdefault(frozenset(r.levels), []).append(r)
    queues = list(by_window.values())
    longest = max((len(q) for q in queues), default=0)
    return [q[i] for i in range(longest) for q in queues if i < len(q)]


def rate_results(
    game: str, results: Iterable[GameResult], start: dict[int, tuple[float, float]]
) -> dict[int, tuple[float, float]]:
    """The levels' (mu, sigma) after applying ``results`` from ``start`` (a level not in it starts
    as a newcomer), in :func:`rating_order`."""
    current = dict(start)
    for r in rating_order(results):
        before = [current.get(level, (MU, SIGMA)) for level in r.levels]
        after = rate(game, before, list(r.ranks))
        for level, rating in zip(r.levels, after, strict=True):
            current[level] = rating
    return current


# ------------------------------------------------------------------------- storage
def store(series: Series) -> list[BotRating]:
    """Add the series' games to the stored ratings of its game and seat count (see the module
    docstring); the levels' rows after it, in level order."""
    key = {"game": series.game, "players": series.players}
    with transaction.atomic():
        for level in series.levels:
            BotRating.objects.get_or_create(**key, level=level)
        rows = list(
            BotRating.objects.select_for_update().filter(**key, level__in=series.levels).order_by("level")
        )
        ratings = rate_results(series.game, series.results, {r.level: (r.mu, r.sigma) for r in rows})
        for row in rows:
            t = series.tallies[row.level]
            row.mu, row.sigma = ratings[row.level]
            ms = t.ms_per_move
            if ms is not None:
                row.ms_per_move = (
                    ms if row.ms_per_move is None or not row.games
                    else (row.ms_per_move * row.games + ms * t.games) / (row.games + t.games)
                )  # fmt: skip
            row.games += t.games
            row.games_below += t.games_below
            row.points_below += t.points_below
            row.save()
    return rows


def run(
    *,
    game: str,
    players: int,
    levels: Sequence[int],
    games: int,
    seed: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    jobs: int = 1,
    openings: int = 0,
) -> list[BotRating]:
    """Play a series (outside any transaction: it may take minutes) and store it. Without a
    ``seed``, :func:`next_seed`: a second run plays new games, not the first one's again."""
    if seed is None:
        seed = next_seed(game=game, players=players)
    series = play_series(
        game=game, players=players, levels=levels, games=games, seed=seed, progress=progress, jobs=jobs,
        openings=openings,
    )  # fmt: skip
    return store(series)


def next_seed(*, game: str, players: int) -> int:
    """A seed no earlier run took by default: one more than the ladder games stored so far for this
    game and seat count (the same database state gives the same seed)."""
    return 1 + sum(BotRating.objects.filter(game=game, players=players).values_list("games", flat=True))


# ------------------------------------------------------------------------- reading
@dataclass(frozen=True)
class Row:
    """One level's line of a ladder table (stored or just measured)."""

    level: int
    mu: float | None = None
    sigma: float | None = None
    games: int = 0
    games_below: int = 0
    points_below: float = 0.0
    ms_per_move: float | None = None

    @property
    def measured(self) -> bool:
        return self.games > 0 and self.mu is not None

    @property
    def rating(self) -> int | None:
        return display.rating(self.mu) if self.measured and self.mu is not None else None

    @property
    def uncertainty(self) -> int | None:
        return display.uncertainty(self.sigma) if self.measured and self.sigma is not None else None

    @property
    def score_below(self) -> float | None:
        """The share of points against the level below (None: never met it)."""
        return self.points_below / self.games_below if self.games_below else None


def stored_rows(*, game: str, players: int) -> list[Row]:
    """Every level's row for one game and seat count (levels never measured: empty rows)."""
    found = {r.level: r for r in BotRating.objects.filter(game=game, players=players)}
    return [_row(lv.number, found.get(lv.number)) for lv in bot_levels.LEVELS]


def all_stored_rows() -> dict[tuple[str, int], list[Row]]:
    """:func:`stored_rows` of every game and seat count, in one query."""
    found = {(r.game, r.players, r.level): r for r in BotRating.objects.all()}
    return {
        (game, players): [_row(lv.number, found.get((game, players, lv.number))) for lv in bot_levels.LEVELS]
        for game in GAMES
        for players in SEATS
    }


def _row(level: int, r: BotRating | None) -> Row:
    if r is None:
        return Row(level=level)
    return Row(
        level=level, mu=r.mu, sigma=r.sigma, games=r.games, games_below=r.games_below,
        points_below=r.points_below, ms_per_move=r.ms_per_move,
    )  # fmt: skip


def series_rows(series: Series) -> list[Row]:
    """The rows of one series alone (every level starting as a newcomer): what the bench prints."""
    ratings = rate_results(series.game, series.results, {})
    rows = []
    for level in series.levels:
        t = series.tallies[level]
        mu, sigma = ratings.get(level, (None, None))
        rows.append(
            Row(
                level=level, mu=mu, sigma=sigma, games=t.games, games_below=t.games_below,
                points_below=t.points_below, ms_per_move=t.ms_per_move,
            )
        )  # fmt: skip
    return rows


def table_text(rows: Iterable[Row], *, title: str = "") -> str:
    """A plain-text table of ladder rows (the command and the bench print it)."""
    names = {lv.number: lv.name for lv in bot_levels.LEVELS}
    lines = [title] if title else []
    lines.append(
        f"{'level':>5}  {'name':<14}{'rating':>7} {'±':>5}  {'games':>6}  {'vs below':>19}  {'ms/move':>9}"
    )
    for r in rows:
        below = "–" if r.score_below is None else f"{r.points_below:g}/{r.games_below} = {r.score_below:.0%}"
        rating = "–" if r.rating is None else str(r.rating)
        pm = "–" if r.uncertainty is None else str(r.uncertainty)
        ms = "–" if r.ms_per_move is None else f"{r.ms_per_move:.1f}"
        name = names.get(r.level, "?")
        lines.append(f"{r.level:>5}  {name:<14}{rating:>7} {pm:>5}  {r.games:>6}  {below:>19}  {ms:>9}")
    return "\n".join(lines)


# ------------------------------------------------------------------------- the levels in words
@dataclass(frozen=True)
class LevelText:
    number: int
    code: str  # the engine's stable English code name
    kind: str
    noise: dict[str, float]  # game -> the share of moves played as a random candidate
    depth: dict[str, int]  # game -> plies searched (0: no search)
    work: dict[str, int]  # game -> positions the search may visit per move
    title: str  # translated, for pages
    description: str  # translated, one sentence


def level_texts() -> list[LevelText]:
    """Every level with its translated name and description (``games.botlevels``), in the
    active language."""
    out = []
    for lv in bot_levels.LEVELS:
        words = botlevels.level_text(lv.number)
        out.append(
            LevelText(
                number=lv.number, code=lv.name, kind=lv.kind, noise={g: lv.noise(g) for g in GAMES},
                depth={g: lv.depth(g) for g in GAMES}, work={g: lv.work(g) for g in GAMES},
                title=str(words.name),
                description=str(words.description),
            )
        )  # fmt: skip
    return out
