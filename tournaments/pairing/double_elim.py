"""Double elimination on 2-seat tables (pure Python; Django only to translate the brackets' names),
as on Challonge / start.gg.

**Seeds** are fixed at the start (:func:`.bracket.seed_order`: rating, then id). Nothing else is
stored: every decision below is recomputed from the seeds and the rounds played so far
(:class:`.bracket.RoundRecord`: byes, and each table's players in seat order with their ranks).

**Results.** At a table the better rank wins; a shared rank goes to the better seed (as in the
single knockout, :func:`.bracket.table_order`). A table without a result (aborted) counts for
nobody: its players are paired again. A player's first loss sends them to the *losers bracket*;
the second eliminates them.

**Rounds.** An event round holds the tables of both brackets at once. With ``k = ceil(log2 n)``:

* **Winners bracket** (players without a loss): round ``r`` of it is event round ``r``, paired as
  the single 2-seat knockout: in round 1 the top ``2**k - n`` seeds have a bye, so round 2's field
  is a power of two; every round the field is dealt by seed, best against worst (1–4, 2–3). Its
  champion waits (no bye) for the losers bracket to finish.
* **Losers bracket** (players with one loss): the losers of winners round 1 enter at event round 2,
  those of winners round ``r >= 2`` at event round ``2r - 1`` -- the standard pattern, where a
  losers round that takes in drop-ins alternates with one played among the survivors. Each round
  the players in it are paired off: drop-ins against survivors (the drop-ins in the order of the
  winners tables they lost at, reversed every other winners round, as Challonge does), the rest
  with their neighbour in bracket order; a pairing that would repeat an earlier meeting is swapped
  with another where that avoids it (drop-ins left over after the survivors play each other,
  best seed against worst). With an odd number one player has a bye: one with the fewest byes so
  far, the best seed among them whose bye leaves the fewest repeated meetings. A second bye thus
  goes only to a player whose every rival in that round had one too: that is forced only just above
  a power of two (9, 17, 33, 65... players), where most of the field had a round-1 bye. A player
  alone in the losers bracket while nobody can join them waits without a bye. Should a round have
  no table at all while drop-ins wait (only after withdrawals), the drop-ins enter at once.
* **Grand final** (event round ``2k``): the winners champion against the losers champion, once no
  drop-in is still due. If the losers champion wins, both have one loss and the **bracket is
  reset**: a second final, one event round more, decides (the Challonge / start.gg default). So
  the planned number of rounds is ``2k`` (:func:`planned_rounds`; 2 for two players), and
  ``2k + 1`` when the reset is played. Without withdrawals every non-winner ends with exactly two
  losses, the winner with at most one.

**Withdrawals.** A player who left (not in ``active``) is no longer paired; if that leaves a bracket
empty, the other bracket's champion wins.

**Standings** (:func:`standings`): the winner first; then players still in (fewer losses first,
then seed); then the eliminated by the round of their second loss, latest first (so the grand
final's loser is 2nd and the losers final's loser 3rd), equal rounds by seed; players who left
without being eliminated last, by seed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext, gettext_lazy

from .bracket import RoundRecord
from .knockout import deal_snake
from .seats import assign_seats
from .types import Table

WINNERS = "winners"
LOSERS = "losers"
GRAND_FINAL = "grand_final"
RESET = "grand_final_reset"
#: How each bracket is shown (in the reader's language).
BRACKET_NAMES = {
    WINNERS: gettext_lazy("Winners bracket"),
    LOSERS: gettext_lazy("Losers bracket"),
    GRAND_FINAL: gettext_lazy("Grand final"),
    RESET: gettext_lazy("Grand final (bracket reset)"),
}


def bracket_name(bracket: str) -> str:
    """ "Winners bracket", "Losers bracket", "Grand final"... (the key itself for an unknown one)."""
    return str(BRACKET_NAMES.get(bracket, bracket))


def winners_rounds(players: int) -> int:
    """``k = ceil(log2 n)``: the rounds of the winners bracket."""
    if players < 2:
        raise ValueError(f"a double elimination needs at least two players, not {players}")
    return (players - 1).bit_length()


def planned_rounds(players: int) -> int:
    """The event rounds up to the grand final (``2k``); the bracket reset adds one.

    >>> [planned_rounds(n) for n in (2, 3, 4, 5, 8, 9, 128)]
    [2, 4, 4, 6, 6, 8, 14]
    """
    return 2 * winners_rounds(players)


def table_label(bracket: str, number: int) -> str:
    """How a table of event round ``number`` in ``bracket`` is shown, e.g. "Losers bracket round 2"."""
    if bracket == WINNERS:
        return gettext("Winners bracket round %(n)d") % {"n": number}
    if bracket == LOSERS:
        return gettext("Losers bracket round %(n)d") % {"n": number - 1}
    return bracket_name(bracket)


@dataclass
class PlayerState:
    """One player after the rounds so far."""

    seed: int  # 1 best
    losses: int = 0
    byes: int = 0
    wins: int = 0
    played: int = 0
    entry: int = 0  # event round from which the player is in the losers bracket (0: not there)
    lost_at: tuple[int, int] = (0, 0)  # (round, table index) of the first loss
    position: tuple[int, int] = (0, 0)  # (round, table index) of the last losers-bracket table
    out_round: int = 0  # round of the second loss (0: not eliminated)


@dataclass
class State:
    """What the rounds so far decided."""

    players: dict[int, PlayerState]
    last_round: int = 0
    met: set[frozenset[int]] = field(default_factory=set)
    #: (round number, table index in the round) -> bracket (``WINNERS``, ``LOSERS``, ...)
    brackets: dict[tuple[int, int], str] = field(default_factory=dict)
    finals: int = 0  # grand final tables played (with a result)
    final_winner: int | None = None  # winner of the last grand final table
    reset_needed: bool = False


def replay(seeds: Sequence[int], rounds: Sequence[RoundRecord]) -> State:
    """The state after ``rounds`` (see the module docstring)."""
    seed = {p: i for i, p in enumerate(seeds, start=1)}
    st = State({p: PlayerState(seed=i) for p, i in seed.items()})
    for rnd in sorted(rounds, key=lambda r: r.number):
        r = rnd.number
        st.last_round = max(st.last_round, r)
        for p in rnd.byes:
            if p in st.players:
                st.players[p].byes += 1
        for i, table in enumerate(rnd.tables):
            ps = [p for p in table.players if p in st.players]
            if len(ps) != 2:
                continue
            a, b = (st.players[p] for p in ps)
            if a.losses == b.losses == 0:
                kind = WINNERS
            elif {a.losses, b.losses} == {0, 1}:
                kind = GRAND_FINAL
            elif st.finals:
                kind = RESET
            else:
                kind = LOSERS
            st.brackets[(r, i)] = kind
            st.met.add(frozenset(ps))
            if table.ranks is None or not set(ps) <= set(table.ranks):
                continue
            x, y = ps  # the better rank wins, a shared rank the better seed (``table_order``)
            winner, loser = (x, y) if (table.ranks[x], seed[x]) < (table.ranks[y], seed[y]) else (y, x)
            w, lo = st.players[winner], st.players[loser]
            w.wins += 1
            w.played += 1
            lo.played += 1
            lo.losses += 1
            if kind == WINNERS:
                lo.entry = 2 if r == 1 else 2 * r - 1
                lo.lost_at = (r, i)
            if kind == LOSERS:
                w.position = (r, i)
            if kind in (GRAND_FINAL, RESET):
                st.finals += 1
                st.final_winner = winner
                st.reset_needed = kind == GRAND_FINAL and lo.losses == 1
            if lo.losses >= 2:
                lo.out_round = r
    return st


@dataclass(frozen=True)
class Plan:
    """The next round (``tables``, their ``brackets`` and the ``byes``), or the end (``finished``)."""

    number: int
    tables: tuple[Table, ...] = ()
    brackets: tuple[str, ...] = ()  # per table
    byes: tuple[int, ...] = ()
    eliminated: frozenset[int] = frozenset()  # two losses
    winner: int | None = None  # once finished (None: nobody left)
    finished: bool = False


def _seat_history(rounds: Sequence[RoundRecord]) -> dict[int, list[int]]:
    history: dict[int, list[int]] = {}
    for rnd in sorted(rounds, key=lambda r: r.number):
        for table in rnd.tables:
            for s, p in enumerate(table.players, start=1):
                history.setdefault(p, []).append(s)
    return history


def _unrepeat(pairs: list[list[int]], met: set[frozenset[int]]) -> list[list[int]]:
    """Swap partners between pairs while that lowers the number of repeated meetings."""

    def rep(a: int, b: int) -> int:
        return int(frozenset((a, b)) in met)

    for _ in range(len(pairs) + 1):
        improved = False
        for i, (a, b) in enumerate(pairs):
            if not rep(a, b):
                continue
            for j in range(len(pairs)):
                if j == i:
                    continue
                c, d = pairs[j]
                before = rep(a, b) + rep(c, d)
                if rep(a, d) + rep(c, b) < before:
                    pairs[i], pairs[j] = [a, d], [c, b]
                elif rep(a, c) + rep(b, d) < before:
                    pairs[i], pairs[j] = [a, c], [b, d]
                else:
                    continue
                improved = True
                break
            if improved:
                break
        if not improved:
            break
    return pairs


def _pick_bye(players: Iterable[int], st: State) -> int:
    """The fewest byes so far, then the best seed."""
    return min(players, key=lambda p: (st.players[p].byes, st.players[p].seed))


def _winners_pairs(field: list[int], first: bool, st: State) -> tuple[list[list[int]], list[int]]:
    if len(field) < 2:
        return [], []
    if first:
        byes = field[: 2 ** winners_rounds(len(field)) - len(field)]
    else:
        byes = [_pick_bye(field, st)] if len(field) % 2 else []
    playing = [p for p in field if p not in byes]
    return deal_snake(playing, [2] * (len(playing) // 2)), byes


def _losers_pairs(pool: list[int], number: int, st: State) -> tuple[list[list[int]], list[int]]:
    if len(pool) < 2:
        return [], []
    if len(pool) % 2 == 0:
        return _losers_tables(pool, number, st), []
    fewest = min(st.players[p].byes for p in pool)
    best: tuple[int, list[list[int]], int] | None = None
    for bye in sorted((p for p in pool if st.players[p].byes == fewest), key=lambda p: st.players[p].seed):
        pairs = _losers_tables([p for p in pool if p != bye], number, st)
        repeats = sum(frozenset(pair) in st.met for pair in pairs)
        if best is None or repeats < best[0]:
            best = (repeats, pairs, bye)
        if repeats == 0:
            break
    assert best is not None
    return best[1], [best[2]]


def _losers_tables(rest: list[int], number: int, st: State) -> list[list[int]]:
    new = sorted((p for p in rest if st.players[p].entry == number), key=lambda p: st.players[p].lost_at)
    old = sorted((p for p in rest if st.players[p].entry != number), key=lambda p: st.players[p].position)
    if new and st.players[new[0]].lost_at[0] % 2 == 0:
        new.reverse()  # alternate the drop-in order (Challonge): fewer early rematches
    pairs = [[d, s] for d, s in zip(new, old, strict=False)]
    left = new[len(pairs) :] + old[len(pairs) :]
    if new and old:  # drop-ins left over: best seed against worst
        left.sort(key=lambda p: st.players[p].seed)
        pairs += [[left[i], left[-1 - i]] for i in range(len(left) // 2)]
    else:  # neighbours in bracket order play
        pairs += [left[i : i + 2] for i in range(0, len(left) - 1, 2)]
    return _unrepeat(pairs, st.met)


def plan_next(
    seeds: Sequence[int], rounds: Sequence[RoundRecord], active: Iterable[int] | None = None
) -> Plan:
    """The next round after ``rounds`` for ``seeds`` (best first); ``active``: the players still
    taking part (default: everyone). See the module docstring.

    >>> plan_next([1, 2, 3], []).tables, plan_next([1, 2, 3], []).byes
    ((Table(players=(2, 3)),), (1,))
    """
    st = replay(seeds, rounds)
    number = st.last_round + 1
    here = set(seeds) if active is None else set(active)
    eliminated = frozenset(p for p, s in st.players.items() if s.losses >= 2)
    alive = [p for p in seeds if p in here and p not in eliminated]
    seed = {p: s.seed for p, s in st.players.items()}

    def finished(winner: int | None) -> Plan:
        return Plan(number, eliminated=eliminated, winner=winner, finished=True)

    if st.finals:
        if not st.reset_needed:
            return finished(st.final_winner)
        pair = [p for p in alive if st.players[p].losses == 1]
        if len(pair) < 2:
            return finished(pair[0] if pair else None)
        seats = assign_seats(sorted(pair, key=seed.__getitem__), _seat_history(rounds))
        return Plan(number, (Table(seats),), (RESET,), eliminated=eliminated)
    wb = [p for p in alive if st.players[p].losses == 0]
    lb = [p for p in alive if st.players[p].losses == 1]
    w_pairs, w_byes = _winners_pairs(wb, not rounds, st)
    pool = [p for p in lb if st.players[p].entry <= number]
    pending = [p for p in lb if st.players[p].entry > number]
    if not w_pairs and len(pool) < 2 and pending:
        pool, pending = pool + pending, []
    l_pairs, l_byes = _losers_pairs(pool, number, st)
    pairs = [(WINNERS, p) for p in w_pairs] + [(LOSERS, p) for p in l_pairs]
    byes = tuple(w_byes + l_byes)
    if not pairs:
        if len(wb) == 1 and len(pool) == 1:
            pairs = [(GRAND_FINAL, [wb[0], pool[0]])]
        elif len(wb) + len(pool) <= 1:
            return finished((wb + pool)[0] if wb + pool else None)
    history = _seat_history(rounds)
    tables = tuple(Table(assign_seats(sorted(p, key=seed.__getitem__), history)) for _, p in pairs)
    return Plan(number, tables, tuple(k for k, _ in pairs), byes, eliminated)


@dataclass(frozen=True)
class DoubleElimRow:
    """One player's line in a double elimination's standings."""

    player: int
    place: int  # 1.. with no shared place
    wins: int  # tables won
    played: int
    losses: int
    out_round: int  # round of the second loss (0: not eliminated)
    seed: int  # 1 best; 0: not seeded
    winner: bool


def standings(
    players: Sequence[int],
    seeds: Sequence[int],
    rounds: Sequence[RoundRecord],
    active: Iterable[int] | None = None,
) -> list[DoubleElimRow]:
    """Standings (see the module docstring); ``active`` as for :func:`plan_next`."""
    st = replay(seeds, rounds)
    everyone = list(dict.fromkeys([*seeds, *players]))
    here = set(everyone) if active is None else set(active)
    plan = plan_next(seeds, rounds, here)
    winner = plan.winner if plan.finished else None

    def info(p: int) -> PlayerState:
        return st.players.get(p) or PlayerState(seed=len(seeds) + 1)

    def key(p: int) -> tuple[int, int, int, int]:
        s = info(p)
        if p == winner:
            return (0, 0, 0, p)
        if s.losses < 2 and p in here and p in st.players and not plan.finished:
            return (1, s.losses, s.seed, p)
        if s.losses >= 2:
            return (2, -s.out_round, s.seed, p)
        return (3, 0, s.seed, p)

    order = sorted(everyone, key=key)
    return [
        DoubleElimRow(
            player=p,
            place=place,
            wins=info(p).wins,
            played=info(p).played,
            losses=info(p).losses,
            out_round=info(p).out_round,
            seed=info(p).seed if p in st.players else 0,
            winner=p == winner,
        )
        for place, p in enumerate(order, start=1)
    ]
