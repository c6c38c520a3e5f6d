"""The search bot: Monte Carlo tree search (UCT) for 2–4 players.

* **Tree.** Each node keeps, for every seat, the sum of the values of the
  playouts through it (max^n: a node is chosen by the player who moves there,
  for that player's own value). The root's children are the greedy bot's
  candidate moves — every base move and effect choice, the few most useful
  meeting fields — so Pacru's effect choices are expanded where they matter;
  deeper nodes are widened progressively with moves from the fast random
  path (their effects chosen at random), at most :data:`WIDTH` per node.
* **Playouts** run from the new node with the fast random path for at most
  :data:`DEPTH` plies and are scored by the shared evaluation squashed to 0…1
  per seat (a finished game scores its real result).
* **Prior.** Every root move starts with :data:`PRIOR` visits at its
  evaluation, so a small search starts from the greedy bot's judgement.
* **Budget.** It searches until ``budget`` seconds have passed (read through
  an injectable clock) or for ``iterations`` iterations, then plays the most
  visited root move. With ``iterations`` the result depends only on the seed;
  a ``budget`` given as well is then only a safety cap (the bot levels of
  :mod:`engine.bots.levels` play this way).

Shacru and Azacru are searched differently: their moves are few and carry no
effect choices, and their value is almost only the marker count, whose small
differences random playouts blur. There the bot runs an iterative-deepening
alpha-beta search (paranoid for 3–4 players: the others are assumed to play
against the bot) on the same evaluation, one ply deeper each round while the
budget lasts, root moves ordered by the previous round (a move that beats the
previous round's best in an unfinished round is taken); ``iterations`` then
bounds the number of positions visited.

The bot levels (``SearchBot(pacru="alphabeta")``) and :meth:`SearchBot.analyse`
search Pacru with the same alpha-beta over the candidate moves, pincers first,
then by the history heuristic (moves that cut the search off elsewhere), and
never ending a round on the searching seat's own turn (see :func:`_deeper`):
with a fixed work budget it is much the stronger (1,500 positions won 15 of 16
Pacru games against the greedy bot; UCT with 500 iterations, about the same
time, 16 of 20).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from ..pacru import PacruState
from ..playout import random_step
from ..state import State
from .base import LINE, Verdict, candidates, evaluate, expected_scores, values

DEPTH = 12
WIDTH = 8
MAX_DEPTH = 12  # alpha-beta (Shacru, Azacru): deeper rounds only while the budget lasts
EXPLORATION = 0.9
PRIOR = 4  # Pacru: visits credited to each root move at its evaluation before the search
DEFAULT_BUDGET = 1.0


class Node:
    __slots__ = ("children", "move", "mover", "state", "totals", "untried", "visits")

    def __init__(self, state: State, move: str | None, untried: list[str] | None):
        self.state = state
        self.move = move
        self.mover = 0  # the seat that chose this node's move
        self.children: list[Node] = []
        self.untried = untried
        self.visits = 0
        self.totals = [0.0] * (state.players + 1)


class SearchBot:
    level = "search"

    def __init__(
        self,
        clock: Callable[[], float] = time.perf_counter,
        *,
        pacru: str = "mcts",
        max_depth: int = MAX_DEPTH,
    ):
        self.clock = clock
        #: The deepest round of alpha-beta (plies): the bot levels search to a fixed depth.
        self.max_depth = max_depth
        #: How Pacru is searched: ``"mcts"`` (the time-budget search bot) or ``"alphabeta"`` (the
        #: levels and the analysis: the step games' search over the candidate moves).
        self.pacru = pacru
        self.iterations_done = 0
        self._capped = False
        self._history: dict[str, int] = {}
        self._nodes_left: int | None = None

    def choose(
        self,
        state: State,
        *,
        budget: float | None = None,
        seed: int | None = None,
        iterations: int | None = None,
    ) -> str:
        rng = random.Random(seed)
        moves = candidates(state)
        if len(moves) == 1:
            return moves[0]
        if state.game != "pacru" or self.pacru == "alphabeta":
            return self._deepening(state, moves, rng, budget, iterations)
        root = self._root(state, moves)
        limit = budget if budget is not None else DEFAULT_BUDGET
        # Keep a margin for the last iteration and for choosing: stay inside budget + 10 %.
        deadline = self.clock() + limit * 0.95
        done = 0
        if iterations is None:
            while self.clock() < deadline:
                self._iterate(root, rng)
                done += 1
        else:
            # A work budget; a time budget given with it is only a safety cap (looked at every
            # 16 iterations), so the move depends on the seed alone unless the cap hits.
            while done < iterations and (budget is None or done % 16 or self.clock() < deadline):
                self._iterate(root, rng)
                done += 1
        self.iterations_done = done
        best = max(root.children, key=lambda n: (n.visits, n.totals[state.to_move]))
        assert best.move is not None
        return best.move

    # ---------------------------------------------------------------- analysis
    def analyse(self, state: State, *, iterations: int, seed: int) -> Verdict:
        """What the search thinks of ``state`` after ``iterations`` alpha-beta positions (in every
        game, Pacru over the candidate moves): the move it prefers, every seat's expected score,
        the mover's expected score after each root move, and the line it expects. Depends only on
        the state, the work and the seed (never on a clock)."""
        if state.is_over:
            raise ValueError("the game is over: there is nothing to analyse")
        return self._analyse_alphabeta(state, candidates(state), random.Random(seed), max(1, iterations))

    def _analyse_alphabeta(
        self, state: State, moves: list[str], rng: random.Random, positions: int
    ) -> Verdict:
        """Iterative deepening with every root move searched with a full window (so each root
        move's value is exact at the depth reached); the last depth finished counts."""
        me = state.to_move
        rng.shuffle(moves)
        self._nodes_left = positions
        self._visited = 0
        self._history = {}
        self._deadline = math.inf
        result: dict[str, tuple[float, list[str], State]] = {}
        order = list(moves)
        depth = 1
        try:
            while depth <= self.max_depth:
                found: dict[str, tuple[float, list[str], State]] = {}
                for move in order:
                    after = state.play(move)
                    value, line, leaf = self._principal(after, depth - 1, -math.inf, math.inf, me, depth > 1)
                    found[move] = (value, [move, *line], leaf)
                result = found
                order.sort(key=lambda m: -found[m][0])  # stable: equal values keep the seed's order
                if all(found[m][2].is_over for m in order):
                    break  # every line ends the game: deeper search sees nothing new
                depth = _deeper(state, depth)
        except _OutOfBudget:
            pass
        self.iterations_done = self._visited
        best = order[0]
        scores = {m: expected_scores(values(leaf))[me] for m, (_, _, leaf) in result.items()}
        return Verdict(
            best=best,
            values=expected_scores(values(result[best][2])),
            moves=scores,
            line=result[best][1][:LINE],
        )

    def _principal(
        self, state: State, depth: int, alpha: float, beta: float, me: int, budgeted: bool
    ) -> tuple[float, list[str], State]:
        """Paranoid alpha-beta that also returns the principal line and its leaf."""
        self._visited += 1
        if budgeted and self._nodes_left is not None and self._visited > self._nodes_left:
            raise _OutOfBudget
        if depth == 0 or state.is_over:
            return evaluate(state, me), [], state
        moves = self._ordered(state)
        if not moves:
            return evaluate(state, me), [], state
        mine = state.to_move == me
        line: list[str] = []
        leaf = state
        for move in moves:
            value, rest, end = self._principal(state.play(move), depth - 1, alpha, beta, me, budgeted)
            if (value > alpha if mine else value < beta) or not line:
                line, leaf = [move, *rest], end
            if mine:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
            if alpha >= beta:
                self._cutoff(state, move, depth)
                break
        return (alpha if mine else beta), line, leaf

    @staticmethod
    def _root(state: State, moves: list[str]) -> Node:
        """The root with every candidate expanded and credited :data:`PRIOR` visits at the value of
        its position by the evaluation: a small search starts from the greedy bot's judgement
        and playouts correct it as the work grows."""
        root = Node(state, None, [])
        for move in moves:
            child = Node(state.play(move), move, None)
            child.mover = state.to_move
            judged = values(child.state)
            child.visits = PRIOR
            child.totals = [PRIOR * v for v in judged]
            root.children.append(child)
        root.visits = PRIOR * len(moves)
        return root

    def _iterate(self, root: Node, rng: random.Random) -> None:
        path = [root]
        node = root
        while True:
            if node.state.is_over:
                break
            if node.untried is None:
                node.untried = self._sample(node.state, rng)
            if node.untried:
                move = node.untried.pop(rng.randrange(len(node.untried)))
                child = Node(node.state.play(move), move, None)
                child.mover = node.state.to_move
                node.children.append(child)
                path.append(child)
                node = child
                break
            if not node.children:
                break
            node = self._select(node)
            path.append(node)
        result = self._playout(node.state, rng)
        for n in path:
            n.visits += 1
            for seat in range(1, len(result)):
                n.totals[seat] += result[seat]

    @staticmethod
    def _select(node: Node) -> Node:
        log_n = math.log(node.visits + 1)
        mover = node.state.to_move

        def ucb(child: Node) -> float:
            return child.totals[mover] / child.visits + EXPLORATION * math.sqrt(log_n / child.visits)

        return max(node.children, key=ucb)

    @staticmethod
    def _sample(state: State, rng: random.Random) -> list[str]:
        """Up to WIDTH distinct moves from the fast random path."""
        seen: list[str] = []
        for _ in range(WIDTH * 2):
            _, text = random_step(state, rng, reorient_rate=0.0)
            if text not in seen:
                seen.append(text)
            if len(seen) >= WIDTH:
                break
        return seen

    @staticmethod
    def _playout(state: State, rng: random.Random) -> list[float]:
        for _ in range(DEPTH):
            if state.is_over:
                break
            state, _ = random_step(state, rng, reorient_rate=0.0)
        return values(state)

    # ------------------------------------------------------ Shacru and Azacru
    def _deepening(
        self, state: State, moves: list[str], rng: random.Random, budget: float | None, iterations: int | None
    ) -> str:
        me = state.to_move
        rng.shuffle(moves)  # ties go to the seed
        limit = budget if budget is not None else DEFAULT_BUDGET
        self._deadline = self.clock() + limit * 0.9
        self._nodes_left = iterations
        # With a work budget, a time budget is only a safety cap; alone, it is the budget.
        self._capped = iterations is None or budget is not None
        self._visited = 0
        self._history = {}
        best = moves[0]
        order = list(moves)
        depth = 1
        try:
            while depth <= self.max_depth:
                scores: dict[str, float] = {}
                alpha = -math.inf
                for move in order:
                    value = self._alphabeta(state.play(move), depth - 1, alpha, math.inf, me)
                    scores[move] = value
                    if value > alpha:
                        # The previous round's best is searched first: a move beating it in an
                        # unfinished round is better at the deeper depth, so it counts too.
                        best = move
                    alpha = max(alpha, value)
                order.sort(key=lambda m: -scores[m])  # stable: equal scores keep the seed's order
                depth = _deeper(state, depth)
        except _OutOfBudget:
            pass
        self.iterations_done = self._visited
        return best

    def _alphabeta(self, state: State, depth: int, alpha: float, beta: float, me: int) -> float:
        self._visited += 1
        if self._nodes_left is not None and self._visited > self._nodes_left:
            raise _OutOfBudget
        if self._capped and self._visited % 16 == 0 and self.clock() > self._deadline:
            raise _OutOfBudget
        if depth == 0 or state.is_over:
            return evaluate(state, me)
        moves = self._ordered(state)
        if not moves:
            return evaluate(state, me)
        mine = state.to_move == me
        for move in moves:
            value = self._alphabeta(state.play(move), depth - 1, alpha, beta, me)
            if mine:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
            if alpha >= beta:
                self._cutoff(state, move, depth)
                break
        return alpha if mine else beta

    def _ordered(self, state: State) -> list[str]:
        """The moves to try, Pacru's ordered by the history heuristic: pincers first, then the
        moves that cut the search off most often (weighted by depth) elsewhere in this search."""
        moves = _moves(state)
        if isinstance(state, PacruState):
            history = self._history
            moves.sort(key=lambda m: -history.get(m, 0))  # stable: pincers stay ahead of equals
            moves.sort(key=lambda m: "x" not in m.split("(")[0])
        return moves

    def _cutoff(self, state: State, move: str, depth: int) -> None:
        if isinstance(state, PacruState):
            self._history[move] = self._history.get(move, 0) + depth * depth


def _deeper(state: State, depth: int) -> int:
    """The next depth of iterative deepening. In Pacru a round never ends on the searching seat's
    own turn (depth a multiple of the seat count): the evaluation's pincer terms count a threat to
    the seat's chevrons as a loss, which holds when an opponent moves next, not when the seat can
    still answer it. So 2 players search 1, 3, 5 … plies, 3 players 1, 2, 4, 5 …"""
    depth += 1
    while isinstance(state, PacruState) and depth % state.players == 0:
        depth += 1
    return depth


def _moves(state: State) -> list[str]:
    """The moves alpha-beta tries: every legal move in the step games, the candidates in Pacru
    (every base move and effect choice, the few most useful meeting fields)."""
    return candidates(state) if isinstance(state, PacruState) else state.legal_moves()


class _OutOfBudget(Exception):
    pass
