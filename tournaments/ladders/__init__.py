"""Club ladders: a rating ladder or a position ladder, challenges for 2 seats, a queue for 3–4.

* A **rating ladder** is ordered by the members' conservative TrueSkill rating (μ − 3σ) in the
  ladder's game, best first; members without a rated table yet stand below everyone rated, in
  joining order.
* A **position ladder** keeps its own order: a new member joins at the bottom, a member who
  leaves closes the gap, and only the ladder's own challenges move anyone (ratings from games
  elsewhere never do). A challenger who **wins** takes the challenged player's place, and the
  challenged player and everyone between move down one; a draw or a loss changes nothing. A
  challenge **not answered in time** is a forfeit: the challenger takes the place as if they had
  won. The challenged player may **decline** at most ``max_declines`` challenges in
  ``decline_period_days``; past that a challenge must be played (or forfeited).
* **Challenges** (2 seats): a member may challenge anyone up to N places above them. N is the
  ladder's ``challenge_places`` or, by default, the widest of 10 places and 40 % of the places
  above the challenger. A challenge unanswered within ``challenge_days`` expires (the periodic
  housekeeping). Accepting creates a rated 2-player table with the ladder's time control; the
  lower-placed player moves first. A player has at most ``max_open_challenges`` challenges open
  at once (made or received, waiting for an answer or being played); nobody challenges the same
  opponent twice while a challenge between them is open; after a decline, the challenger waits
  ``decline_cooldown_hours`` before challenging that player again.
* **Queue** (3–4 seats): members queue; the housekeeping forms tables of the ladder's size from
  the first ``CANDIDATES`` players in the queue. A table is *fair* when its :func:`fairness` (its
  TrueSkill match quality relative to that of the same players rated equally) reaches
  ``FAIR_SHARE``. The longest-waiting player is seated first at the best fair table
  that includes them; when there is none, a fair table of players behind them is formed instead,
  so one unmatched player never blocks the others; once someone has waited
  ``queue_wait_seconds``, the best table including them is taken, fair or not (a bounded wait).
  Two players of a block (``games.blocks``, either way round) are never seated together.

The room's modules, by role:

* :mod:`.services` – creating, joining and leaving ladders; challenges and their results;
* :mod:`.queue` – the queue of a 3–4 seat ladder and its matchmaking;
* :mod:`.selectors` – the reads of ladders (the order of members, a player's places);
* :mod:`.reads` – the ladder page's view; :mod:`.pages` and :mod:`.urls` – the pages.

The package re-exports the services and the queue, as ``games.services`` does, so
``from tournaments import ladders`` then ``ladders.challenge_create(...)`` reads as before.
"""

from .queue import (
    CANDIDATES,
    FAIR_SHARE,
    fairness,
    housekeeping,
    matchmake,
    plan_queue_tables,
    queue_join,
    queue_leave,
)
from .services import (
    ChallengeRules,
    Refusal,
    challenge_accept,
    challenge_answer,
    challenge_create,
    challenge_refusal,
    challenge_rules,
    challenge_table_finished,
    expire_challenges,
    ladder_create,
    ladder_join,
    ladder_leave,
    open_challenges_of,
    reach,
    recent_declines,
)

__all__ = [
    "CANDIDATES",
    "FAIR_SHARE",
    "ChallengeRules",
    "Refusal",
    "challenge_accept",
    "challenge_answer",
    "challenge_create",
    "challenge_refusal",
    "challenge_rules",
    "challenge_table_finished",
    "expire_challenges",
    "fairness",
    "housekeeping",
    "ladder_create",
    "ladder_join",
    "ladder_leave",
    "matchmake",
    "open_challenges_of",
    "plan_queue_tables",
    "queue_join",
    "queue_leave",
    "reach",
    "recent_declines",
]
