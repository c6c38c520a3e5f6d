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
* **Budget.** It searches until ``budget`` seconds have passed (read through
  an injectable clock) or for ``iterations`` iterations, then plays the most
  visited root move. With ``iterations`` the result depends only on the seed.

Shacru and Azacru are searched differently: their moves are few and carry no
effect choices, and their value is almost only the marker count, whose small
differences random playouts blur. There the bot runs an iterative-deepening
alpha-beta search (paranoid for 3–4 players: the others are assumed to play
against the bot) on the same evaluation, one ply deeper each round while the
budget lasts, root moves ordered by the previous round; ``iterations`` then
bounds the number of positions visited.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from ..playout import random_step
from ..state import State
from .base import candidates, evaluate, values

DEPTH = 12
WIDTH = 8
MAX_DEPTH = 12  # alpha-beta (Shacru, Azacru): deeper rounds only while the budget lasts
EXPLORATION = 0.9
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

    def __init__(self, clock: Callable[[], float] = time.perf_counter):
        self.clock = clock
        self.iterations_done = 0

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
        if state.game != "pacru":
            return self._deepening(state, moves, rng, budget, iterations)
        root = Node(state, None, moves)
        limit = budget if budget is not None else DEFAULT_BUDGET
        # Keep a margin for the last iteration and for choosing: stay inside budget + 10 %.
        deadline = self.clock() + limit * 0.95
        done = 0
        while (iterations is None and self.clock() < deadline) or (
            iterations is not None and done < iterations
        ):
            self._iterate(root, rng)
            done += 1
        self.iterations_done = done
        best = max(root.children, key=lambda n: (n.visits, n.totals[state.to_move]))
        assert best.move is not None
        return best.move

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
        self._visited = 0
        best = moves[0]
        order = list(moves)
        depth = 1
        try:
            while depth <= MAX_DEPTH:
                scores: dict[str, float] = {}
                alpha = -math.inf
                for move in order:
                    value = self._alphabeta(state.play(move), depth - 1, alpha, math.inf, me)
                    scores[move] = value
                    alpha = max(alpha, value)
                order.sort(key=lambda m: -scores[m])  # stable: equal scores keep the seed's order
                best = order[0]
                depth += 1
        except _OutOfBudget:
            pass
        self.iterations_done = self._visited
        return best

    def _alphabeta(self, state: State, depth: int, alpha: float, beta: float, me: int) -> float:
        self._visited += 1
        if self._nodes_left is not None:
            if self._visited > self._nodes_left:
                raise _OutOfBudget
        elif self._visited % 16 == 0 and self.clock() > self._deadline:
            raise _OutOfBudget
        if depth == 0 or state.is_over:
            return evaluate(state, me)
        mine = state.to_move == me
        for move in state.legal_moves():
            value = self._alphabeta(state.play(move), depth - 1, alpha, beta, me)
            if mine:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
            if alpha >= beta:
                break
        return alpha if mine else beta


class _OutOfBudget(Exception):
    pass
