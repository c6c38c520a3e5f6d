"""The viewer's part of the event page: where they stand, what they may do, their game, their
invitation to enter late.
"""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games.models import Player, Table
from games.wording import names_list, ordinal
from ratings import display
from ratings.models import Rating

from ..models import Registration, Round, Tournament
from . import selectors
from .views import RoundView, StandingView, YourGame, YourPart, _when, sitting_out


def _your_game(
    t: Tournament, views: list[RoundView], rounds: list[Round], names: dict[int, str], me: int | None
) -> YourGame | None:
    if me is None or t.status != Tournament.Status.RUNNING:
        return None
    current = next((v for v in views if v.current), None)
    rnd = next((r for r in rounds if r.number == t.current_round), None)
    if current is None or rnd is None:
        return None
    for tv in current.tables:
        if tv.mine and not tv.finished and tv.state != Table.Status.ABORTED:
            others = [s.name for s in tv.seats if not s.mine]
            return YourGame(
                round=current.number,
                table_id=tv.table_id,
                opponents=names_list(others),
                started=tv.ply > 0,
                ply=tv.ply,
            )
    if rnd.status != Round.Status.RUNNING:
        return None
    if me in rnd.byes:
        return YourGame(round=current.number, table_id=None, opponents="", started=False)
    if me in sitting_out(t, rnd, {s.player for tv in current.tables for s in tv.seats}):
        return YourGame(round=current.number, table_id=None, opponents="", started=False, sits_out=True)
    return None


# ------------------------------------------------------------------------------------------ roster


def _your_part(
    t: Tournament,
    viewer: Player | None,
    registrations: list[Registration],
    ratings: dict[int, Rating],
    registered: int,
    standings: list[StandingView],
) -> YourPart:
    """The viewer's box: the entry rules in words, then what the viewer may do (entered or not)."""
    now = timezone.now()
    full = t.max_players is not None and registered >= t.max_players
    rules = _rules(t, now, registered, full)
    you = YourPart(anonymous=viewer is None, rules=rules, register_label=pgettext("event", "Register"))
    if viewer is None:
        return you
    reg = next((r for r in registrations if r.player_id == viewer.pk), None)
    you.registration = reg
    you.status = str(reg.get_status_display()) if reg is not None else ""
    you.state = reg.status if reg is not None else ""
    if reg is not None and reg.status != Registration.Status.WITHDRAWN:
        _add_entered_part(you, t, reg, viewer, standings)
        return you
    if reg is not None:
        you.register_label = pgettext("event", "Register again")
    _add_registering_part(you, t, viewer, ratings.get(viewer.pk), now, registered, full)
    return you


def _rules(t: Tournament, now: datetime, registered: int, full: bool) -> list[str]:
    """The event's entry rules in words, for everyone: when, who, how many places, check-in."""
    rules = _registration_window_rules(t, now)
    bounds = _rating_bounds_rule(t)
    if bounds:
        rules.append(bounds)
    rules.append(_places_rule(t, registered, full))
    if t.check_in:
        rules.append(_("Check-in required: only players who checked in are paired when the event starts."))
    return rules


def _registration_window_rules(t: Tournament, now: datetime) -> list[str]:
    rules = []
    if t.registration_opens:
        when = {"when": _when(t.registration_opens)}
        rules.append(
            (
                _("Registration opens %(when)s.")
                if now < t.registration_opens
                else _("Registration opened %(when)s.")
            )
            % when
        )
    if t.registration_closes:
        when = {"when": _when(t.registration_closes)}
        rules.append(
            (
                _("Registration closes %(when)s.")
                if now <= t.registration_closes
                else _("Registration closed %(when)s.")
            )
            % when
        )
    return rules


def _rating_bounds_rule(t: Tournament) -> str:
    """Who may enter by rating ("" when the event has no rating bounds)."""
    bounds = {"min": t.rating_min, "max": t.rating_max, "game": t.get_game_display()}
    if t.rating_min is not None and t.rating_max is not None:
        return _("Open to players rated %(min)s to %(max)s in %(game)s.") % bounds
    if t.rating_min is not None:
        return _("Open to players rated %(min)s or more in %(game)s.") % bounds
    if t.rating_max is not None:
        return _("Open to players rated %(max)s or less in %(game)s.") % bounds
    return ""


def _places_rule(t: Tournament, registered: int, full: bool) -> str:
    if t.max_players is None:
        return ngettext(
            "%(n)d player registered, no limit on places.",
            "%(n)d players registered, no limit on places.",
            registered,
        ) % {"n": registered}
    taken = {"taken": registered, "n": t.max_players}
    if full:
        return (
            ngettext(
                "Full: %(taken)d of %(n)d place taken.",
                "Full: %(taken)d of %(n)d places taken.",
                t.max_players,
            )
            % taken
        )
    return (
        ngettext("%(taken)d of %(n)d place taken.", "%(taken)d of %(n)d places taken.", t.max_players) % taken
    )


def _add_entered_part(
    you: YourPart, t: Tournament, reg: Registration, viewer: Player, standings: list[StandingView]
) -> None:
    """What an entered (not withdrawn) player may do: withdraw, check in; their final place."""
    you.can_withdraw = t.status in (Tournament.Status.REGISTRATION, Tournament.Status.RUNNING)
    if t.status == Tournament.Status.RUNNING:
        you.withdraw_warning = _(
            "You will not be paired again, and a game you are playing now in this event is "
            "resigned. You cannot come back once the event has started."
        )
    else:
        you.withdraw_warning = _("Your place is given up; you may register again while registration is open.")
    you.can_check_in = (
        t.check_in
        and t.status == Tournament.Status.REGISTRATION
        and reg.status == Registration.Status.REGISTERED
    )
    if t.status == Tournament.Status.FINISHED:
        mine = next((row for row in standings if row.player == viewer.pk), None)
        if mine is not None:
            you.final_place = ordinal(mine.place)


def _add_registering_part(
    you: YourPart,
    t: Tournament,
    viewer: Player,
    own: Rating | None,
    now: datetime,
    registered: int,
    full: bool,
) -> None:
    """Whether a player not entered may register (or why not), and their rating against the bounds."""
    rating = display.rating(own.mu) if own is not None else 1500
    you.cannot = _why_not_register(t, viewer, rating, now, registered, full)
    you.can_register = you.cannot == ""
    if t.rating_min is not None or t.rating_max is not None:
        yours = {"game": t.get_game_display(), "rating": rating}
        if own is not None:
            you.rules.append(_("Your %(game)s rating: %(rating)s.") % yours)
        else:
            you.rules.append(_("Your %(game)s rating: 1500 (no rating yet).") % yours)


def _why_not_register(
    t: Tournament, viewer: Player, rating: int, now: datetime, registered: int, full: bool
) -> str:
    """Why the viewer may not register ("" when they may), in the order the service checks (then the
    new rules)."""
    yours = {"game": t.get_game_display(), "rating": rating, "min": t.rating_min, "max": t.rating_max}
    if t.status == Tournament.Status.DRAFT:
        return _("Registration is not open yet.")
    if t.status == Tournament.Status.RUNNING:
        return _("Registration is closed: the event has started.")
    if t.status == Tournament.Status.FINISHED:
        return _("The event is over.")
    if viewer.is_guest:
        return _("Guests cannot play in events: make a full account to register.")
    if t.registration_opens and now < t.registration_opens:
        return _("Registration opens %(when)s.") % {"when": _when(t.registration_opens)}
    if t.registration_closes and now > t.registration_closes:
        return _("Registration closed %(when)s.") % {"when": _when(t.registration_closes)}
    if full:
        return ngettext(
            "The event is full: %(taken)d of %(n)d place taken.",
            "The event is full: %(taken)d of %(n)d places taken.",
            t.max_players or 0,
        ) % {"taken": registered, "n": t.max_players}
    if t.rating_min is not None and rating < t.rating_min:
        return _("Your %(game)s rating, %(rating)s, is below the minimum of %(min)s.") % yours
    if t.rating_max is not None and rating > t.rating_max:
        return _("Your %(game)s rating, %(rating)s, is above the maximum of %(max)s.") % yours
    return ""


def _with_invitation(t: Tournament, viewer: Player | None, you: YourPart) -> YourPart:
    """Add the viewer's pending invitation to enter the event late (accept or decline on the page)."""
    if t.status != Tournament.Status.RUNNING or viewer is None:
        return you
    invitation = selectors.pending_late_invitation(t, viewer)
    if invitation is None:
        return you
    words = {
        "by": invitation.invited_by.display_name if invitation.invited_by else _("An organiser"),
        "round": t.current_round + 1,
    }
    you.invitation = invitation
    if invitation.missed == "half":
        you.invitation_words = (
            _(
                "%(by)s invites you to enter this event late: you would play from round %(round)s, and "
                "each round you missed would pay half the points. You are entered only if you accept."
            )
            % words
        )
    else:
        you.invitation_words = (
            _(
                "%(by)s invites you to enter this event late: you would play from round %(round)s, and "
                "the rounds you missed would pay nothing. You are entered only if you accept."
            )
            % words
        )
    return you


# ---------------------------------------------------------------------------- crosstable, bracket
