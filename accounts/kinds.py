"""The kinds of notification: what each says, and how each is mailed unless a player chooses
otherwise. A notification keeps its facts (``params``) and is put into words when shown or
mailed, so the words can change (and be translated) without touching stored rows.

The words come out in the active language and the times in the active time zone: a page's
(the viewer's), or the recipient's for a mail (``accounts.notify.recipient_locale``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import formats, timezone
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from games.clocks import TimeControl
from games.wording import names_list, ordinal

from .models import EmailMode


@dataclass(frozen=True)
class Kind:
    name: str
    label: str | Promise
    #: How it is mailed when the player has not chosen.
    email: str


KINDS: dict[str, Kind] = {
    k.name: k
    for k in [
        Kind(
            "your_turn",
            gettext_lazy("It is your turn (correspondence games, and any game you left waiting)"),
            "immediate",
        ),
        Kind(
            "time_low",
            gettext_lazy("Your time is running low (correspondence: 24 hours and 1 hour left)"),
            "immediate",
        ),
        Kind("challenge", gettext_lazy("You were challenged on a ladder"), "immediate"),
        Kind(
            "challenge_answer", gettext_lazy("Your challenge was accepted, declined or expired"), "immediate"
        ),
        Kind("round", gettext_lazy("Your event's round is paired, or you got a bye"), "immediate"),
        Kind("queue_table", gettext_lazy("A ladder's matchmaking queue found you a table"), "immediate"),
        # Not mailed unless asked for: the table starts at once, on the page the player waits on.
        Kind("pool_table", gettext_lazy("Quick pairing found you a table"), "off"),
        Kind(
            "event",
            gettext_lazy(
                "An event you entered starts soon, opens check-in, starts, is postponed or called off, "
                "or finishes"
            ),
            "immediate",
        ),
        Kind("entered", gettext_lazy("An organiser entered you into an event"), "immediate"),
        Kind(
            "late_entry",
            gettext_lazy(
                "Late entries: invitations to join an event under way, and the answers to the "
                "invitations you sent"
            ),
            "immediate",
        ),
        Kind(
            "season",
            gettext_lazy("A season you play starts (your division), or ends (where you go next season)"),
            "immediate",
        ),
        Kind(
            "team",
            gettext_lazy(
                "Teams: a captain invites you, a player asks to join your team, or your invitation "
                "or request is answered"
            ),
            "immediate",
        ),
        Kind("game_over", gettext_lazy("A game of yours ended (result and rating change)"), "off"),
        # Not mailed unless asked for: a chat answer is read on the page, where the talk is.
        Kind("mention", gettext_lazy("Someone named you (@name) in a chat"), "off"),
        Kind(
            "table_challenge",
            gettext_lazy("A player challenges you to a table, or answers your challenge to a table"),
            "immediate",
        ),
        Kind(
            "moderation",
            gettext_lazy(
                "Moderation: a moderator acted on your chat or your report (and, for moderators, "
                "reports piling up about a player)"
            ),
            "immediate",
        ),
    ]
}

EMAIL_MODES = [m.value for m in EmailMode]


def _names(names: list[str]) -> str:
    # Translators: the opponents of a game, when there are none left
    return names_list(names) or _("nobody")


def moment(p: dict[str, Any], name: str) -> str:
    """The time ``name`` of a notification, in the active time zone and language: "Tue 24 Nov
    10:00 (Europe/Madrid)". From ``<name>_at`` (an ISO timestamp); rows made before it was kept
    have only ``<name>``, the time already written out (in the recipient's zone, in English)."""
    stamp = p.get(f"{name}_at")
    if stamp:
        try:
            at = datetime.fromisoformat(stamp)
        except (TypeError, ValueError):
            at = None
        if at is not None:
            zone = timezone.get_current_timezone()
            # Translators: how a date and time are written in notifications, in the letters of
            # Django's "date" filter (D: Tue, d: 24, M: Nov, H:i: 10:00). Reorder as is usual.
            written = formats.date_format(timezone.localtime(at, zone), pgettext("date format", "D d M H:i"))
            return f"{written} ({getattr(zone, 'key', str(zone))})"
    return str(p.get(name, ""))


def _pool_table(p: dict[str, Any]) -> str:
    """A quick pairing table: its clock, rated or not, whom against."""
    clock = TimeControl.from_dict(p.get("time_control") or None).describe()
    args = {"clock": clock, "opponents": _names(p["opponents"]), "table": p["table"]}
    if p.get("rated"):
        return _("Rated, %(clock)s, against %(opponents)s (table %(table)s).") % args
    return _("Casual, %(clock)s, against %(opponents)s (table %(table)s).") % args


def _time_low(p: dict[str, Any]) -> str:
    seconds = float(p["seconds"])
    args = {"game": p["game"], "table": p["table"]}
    hours = seconds / 3600
    if hours >= 1.5:
        n = round(hours)
        return ngettext(
            "about %(n)d hour left for your move in %(game)s (table %(table)s)",
            "about %(n)d hours left for your move in %(game)s (table %(table)s)",
            n,
        ) % {"n": n, **args}
    if seconds >= 45 * 60:
        return _("about an hour left for your move in %(game)s (table %(table)s)") % args
    n = max(1, round(seconds / 60))
    return ngettext(
        "%(n)d minute left for your move in %(game)s (table %(table)s)",
        "%(n)d minutes left for your move in %(game)s (table %(table)s)",
        n,
    ) % {"n": n, **args}


def _challenge_answer(p: dict[str, Any]) -> str:
    args = {"by": p["by"], "ladder": p["ladder"]}
    status = p["status"]
    if status == "accepted":
        return _("%(by)s accepted your challenge on %(ladder)s: your game is ready") % args
    if status == "declined":
        return _("%(by)s declined your challenge on %(ladder)s") % args
    if status == "cancelled":
        return _("%(by)s withdrew their challenge on %(ladder)s") % args
    forfeit = p.get("forfeit")
    if p.get("challenger"):
        if forfeit is True:
            return (
                _("Your challenge to %(by)s on %(ladder)s expired: you take their place (a forfeit)") % args
            )
        if forfeit is False:
            return _("Your challenge to %(by)s on %(ladder)s expired: nothing changes on the ladder") % args
        return _("Your challenge to %(by)s on %(ladder)s expired: %(outcome)s") % {
            **args,
            "outcome": p.get("outcome", ""),
        }
    if forfeit is True:
        return _("The challenge from %(by)s on %(ladder)s expired: they take your place (a forfeit)") % args
    if forfeit is False:
        return _("The challenge from %(by)s on %(ladder)s expired: nothing changes on the ladder") % args
    return _("The challenge from %(by)s on %(ladder)s expired: %(outcome)s") % {
        **args,
        "outcome": p.get("outcome", ""),
    }


def _late_entry(p: dict[str, Any]) -> str:
    args = {"event": p["event"], "round": p.get("round", ""), "name": p.get("name", ""), "by": p.get("by")}
    if p.get("status") == "accepted":
        return _("%(name)s accepted your invitation: they play in %(event)s from round %(round)s") % args
    if p.get("status") == "declined":
        return _("%(name)s declined your invitation to enter %(event)s late") % args
    if not args["by"]:
        return _("An organiser invites you to enter %(event)s late, from round %(round)s") % args
    return _("%(by)s invites you to enter %(event)s late, from round %(round)s") % args


#: The "event" kind's states sent by the calendar (``tournaments.calendar.starts``).
CALENDAR_STATES = ("starts_soon", "check_in_open", "postponed", "called_off")


def _calendar_event(p: dict[str, Any]) -> str:
    args = {"event": p["event"], "when": moment(p, "starts")}
    if p["state"] == "starts_soon":
        return _("%(event)s starts within the hour, at %(when)s") % args
    if p["state"] == "check_in_open":
        return _("Check-in for %(event)s is open: check in before it starts at %(when)s") % args
    if p["state"] == "postponed":
        return _("%(event)s has a new start time: %(when)s") % args
    return _("%(event)s is called off") % args


def _called_off_detail(p: dict[str, Any]) -> str:
    """Why the event was called off: too few players at the start, or the reason given."""
    if p.get("needed"):
        came = p.get("came", 0)
        return ngettext(
            "Only %(came)d player was there at the start time, and it needed at least %(needed)d.",
            "Only %(came)d players were there at the start time, and it needed at least %(needed)d.",
            came,
        ) % {"came": came, "needed": p["needed"]}
    if p.get("reason"):
        return _("Why: %(reason)s") % {"reason": p["reason"]}
    return ""


def _round_deadline(p: dict[str, Any]) -> str:
    """A correspondence round's deadline, and (24 hours before it) what happens to a game unfinished then."""
    finish = _("Finish your game by %(when)s.") % {"when": moment(p, "deadline")}
    if not p.get("deadline_near"):
        return finish
    if p.get("rule") == "draw":
        then = _("A game still unfinished then counts as a draw: everyone still in shares the place.")
    elif p.get("rule") == "forfeit":
        then = _("A game still unfinished then is lost by whoever is on move.")
    else:
        then = _("A game still unfinished then is scored from the position.")
    return f"{finish} {then}"


def _division(p: dict[str, Any]) -> str:
    """The division in the reader's words: its given name, else from its level and group."""
    if p.get("division") or not p.get("level"):
        return str(p.get("division", ""))
    if p.get("group"):
        return _("Division %(level)d %(group)s") % {"level": p["level"], "group": p["group"]}
    return _("Division %(level)d") % {"level": p["level"]}


def _season(p: dict[str, Any]) -> str:
    """A season started (the player's division) or finished (their place and where they go)."""
    args = {"season": p["season"], "division": _division(p), "to": p.get("to_level", "")}
    if p["state"] == "started":
        if args["division"]:
            return _("%(season)s has started: you play in %(division)s") % args
        return _("%(season)s has started") % args
    if p.get("place") and args["division"]:
        args["place"] = ordinal(p["place"])
        if p.get("movement") == "up":
            return _("%(season)s: %(place)s in %(division)s, you go up to division %(to)s") % args
        if p.get("movement") == "down" and p.get("to_level"):
            return _("%(season)s: %(place)s in %(division)s, you go down to division %(to)s") % args
        if p.get("movement") == "down":
            return _("%(season)s: %(place)s in %(division)s, you are not in the league's next season") % args
        return _("%(season)s: %(place)s in %(division)s, you stay in division %(to)s") % args
    if p.get("place"):
        return _("%(season)s has finished: you placed %(place)s") % {**args, "place": ordinal(p["place"])}
    return _("%(season)s has finished") % args


def _team(p: dict[str, Any]) -> str:
    """A team invitation or request to join, or its answer."""
    args = {"team": p["team"], "name": p.get("name", ""), "by": p.get("by") or ""}
    if p.get("kind") == "request":
        if p.get("status") == "accepted":
            return _("Your request to join %(team)s was accepted: you are on the team") % args
        if p.get("status") == "declined":
            return _("Your request to join %(team)s was declined") % args
        return _("%(name)s asks to join your team %(team)s") % args
    if p.get("status") == "accepted":
        return _("%(name)s accepted your invitation: they are on %(team)s") % args
    if p.get("status") == "declined":
        return _("%(name)s declined your invitation to %(team)s") % args
    if not args["by"]:
        return _("You are invited to join the team %(team)s") % args
    return _("%(by)s invites you to join the team %(team)s") % args


def _table_challenge(p: dict[str, Any]) -> str:
    """A challenge to a table (``community.challenges``), or its answer, in one line."""
    args = {"by": p["by"], "game": p["game"]}
    status = p.get("status")
    if status == "accepted":
        return _("%(by)s accepted your challenge to a game of %(game)s") % args
    if status == "declined":
        return _("%(by)s declined your challenge to a game of %(game)s") % args
    if status == "withdrawn":
        return _("%(by)s withdrew their challenge to a game of %(game)s") % args
    clock = TimeControl.from_dict(p.get("time_control") or None).describe()
    # Translators: "Alice challenges you to a game of Pacru (2 players, 3 days/move)".
    return ngettext(
        "%(by)s challenges you to a game of %(game)s (%(players)s player, %(clock)s)",
        "%(by)s challenges you to a game of %(game)s (%(players)s players, %(clock)s)",
        int(p.get("players") or 2),
    ) % {**args, "players": p.get("players") or 2, "clock": clock}


def _moderation(p: dict[str, Any]) -> str:
    """A moderator's decision about the reader (``community.moderation``), or, for a moderator,
    reports piling up about a player (``community.reports``), in one line."""
    if p.get("piling"):
        return ngettext(
            "%(count)d open report about %(player)s waits in the moderation queue",
            "%(count)d open reports about %(player)s wait in the moderation queue",
            int(p["count"]),
        ) % {"count": p["count"], "player": p["player"]}
    args = {"where": p.get("where", ""), "reason": p.get("reason", ""), "until": moment(p, "until")}
    action, scope = p.get("action"), p.get("scope")
    if action == "mute" and scope == "site":
        return _("A moderator muted you in every chat on the site until %(until)s: %(reason)s") % args
    if action == "mute" and scope == "league":
        return _("A moderator muted you in the chats of %(where)s until %(until)s: %(reason)s") % args
    if action == "mute":
        # Translators: %(where)s is a chat room's name, e.g. "Spring Swiss" or "Table 12 · players".
        return _("A moderator muted you in the chat %(where)s until %(until)s: %(reason)s") % args
    if action == "unmute" and scope == "site":
        return _("A moderator lifted your mute on the whole site: you may write again")
    if action == "unmute":
        return _("A moderator lifted your mute in %(where)s: you may write again") % args
    if action == "delete_message":
        return _("A moderator removed your message in the chat %(where)s: %(reason)s") % args
    if action == "resolve":
        # Translators: %(where)s is the name of the player the reader reported.
        return _("A moderator acted on your report about %(where)s: thank you") % args
    if action == "dismiss":
        return _("A moderator looked at your report about %(where)s and dismissed it") % args
    return _("A moderator warned you: %(reason)s") % args


def title(kind: str, p: dict[str, Any]) -> str:
    """The notification in one line, as the inbox lists it and a mail's subject says it."""
    if kind == "your_turn":
        return _("Your turn in %(game)s against %(opponents)s (table %(table)s)") % {
            "game": p["game"],
            "opponents": _names(p["opponents"]),
            "table": p["table"],
        }
    if kind == "time_low":
        return _time_low(p)
    if kind == "challenge":
        return _("%(by)s challenged you on the ladder %(ladder)s") % {"by": p["by"], "ladder": p["ladder"]}
    if kind == "challenge_answer":
        return _challenge_answer(p)
    if kind == "queue_table":
        return _("Your table in %(ladder)s is ready") % {"ladder": p["ladder"]}
    if kind == "pool_table":
        return _("Your %(game)s table is ready (quick pairing)") % {"game": p["game"]}
    if kind == "round":
        args = {"event": p["event"], "round": p["round"]}
        if p.get("deadline_near"):
            return _("%(event)s: 24 h left before the deadline of round %(round)s") % args
        if p.get("bye"):
            return _("%(event)s: round %(round)s is paired and you have a bye") % args
        if p.get("lineup"):  # a team event: the captains set their line-ups
            return _(
                "%(event)s: round %(round)s is paired, %(team)s meets %(opponents)s: set its line-up"
            ) % {
                **args,
                "team": p.get("team", ""),
                "opponents": _names(p["opponents"]),
            }
        if p.get("board"):  # a team event: the board's table is open
            return _(
                "%(event)s: round %(round)s, board %(board)s: your table is open, you play %(opponents)s"
            ) % {
                **args,
                "board": p["board"],
                "opponents": _names(p["opponents"]),
            }
        return _("%(event)s: round %(round)s is paired, you play %(opponents)s") % {
            **args,
            "opponents": _names(p["opponents"]),
        }
    if kind == "event":
        if p["state"] in CALENDAR_STATES:
            return _calendar_event(p)
        if p["state"] == "started":
            return _("%(event)s has started") % {"event": p["event"]}
        if p["state"] == "reopened":
            return _("%(event)s is running again: a corrected result means more games to play") % {
                "event": p["event"]
            }
        if p.get("place"):
            return _("%(event)s has finished: you placed %(place)s of %(of)s") % {
                "event": p["event"],
                "place": ordinal(p["place"]),
                "of": p["of"],
            }
        return _("%(event)s has finished") % {"event": p["event"]}
    if kind == "entered":
        if not p.get("by"):
            return _("An organiser entered you into %(event)s") % {"event": p["event"]}
        return _("%(by)s entered you into %(event)s") % {"by": p["by"], "event": p["event"]}
    if kind == "late_entry":
        return _late_entry(p)
    if kind == "season":
        return _season(p)
    if kind == "team":
        return _team(p)
    if kind == "table_challenge":
        return _table_challenge(p)
    if kind == "moderation":
        return _moderation(p)
    if kind == "mention":
        return _("%(by)s mentioned you in a chat") % {"by": p["by"]}
    if kind == "game_over":
        return _("Your %(game)s game against %(opponents)s ended: %(outcome)s") % {
            "game": p["game"],
            "opponents": _names(p["opponents"]),
            "outcome": p["outcome"],
        }
    return kind.replace("_", " ")


def detail(kind: str, p: dict[str, Any], extra: dict[str, Any] | None = None) -> str:
    """A second line with what the first leaves out (may be empty)."""
    if kind == "your_turn" and (p.get("deadline_at") or p.get("deadline")):
        return _("Move by %(when)s.") % {"when": moment(p, "deadline")}
    if kind == "challenge":
        when = moment(p, "expires")
        if p.get("forfeit"):
            return _("Answer by %(when)s: an unanswered challenge counts as a loss on this ladder.") % {
                "when": when
            }
        return _("Answer by %(when)s.") % {"when": when}
    if kind == "queue_table":
        return _("%(game)s against %(opponents)s (table %(table)s).") % {
            "game": p["game"],
            "opponents": _names(p["opponents"]),
            "table": p["table"],
        }
    if kind == "pool_table":
        return _pool_table(p)
    if kind == "round" and (p.get("deadline_at") or p.get("deadline")):
        return _round_deadline(p)
    if kind == "round" and (p.get("starts_at") or p.get("starts")):
        return _("The round starts %(when)s.") % {"when": moment(p, "starts")}
    if kind == "event" and p.get("state") == "called_off":
        return _called_off_detail(p)
    if kind == "late_entry" and p.get("status") == "pending":
        if p.get("missed") == "half":
            return _(
                "You are entered only if you accept. Each round you missed would pay half the points. "
                "Accept or decline on the event's page."
            )
        return _(
            "You are entered only if you accept. The rounds you missed would pay nothing. "
            "Accept or decline on the event's page."
        )
    if kind == "team" and p.get("status") == "pending":
        if p.get("kind") == "request":
            return _("Accept or decline the request in the team's captain's tools.")
        return _("Accept or decline the invitation on the team's page.")
    if kind == "table_challenge" and p.get("status") == "sent":
        if p.get("rated"):
            return _("A rated game. Take your seat at the table, or decline, on the table's page.")
        return _("An unrated game. Take your seat at the table, or decline, on the table's page.")
    if kind == "moderation" and p.get("action") in ("unmute", "dismiss") and p.get("reason"):
        return _("Why: %(reason)s") % {"reason": p["reason"]}
    if kind == "moderation" and p.get("action") == "mute":
        return _("You can still read the chats and play; you cannot write there until then.")
    if kind == "mention" and p.get("excerpt"):
        # Translators: the start of a chat message that named the reader, as they wrote it
        return _("They wrote: %(text)s") % {"text": p["excerpt"]}
    if kind == "game_over":
        change = (extra or {}).get("rating")
        if change:
            return _("Rating %(change)s.") % {"change": change}
        return "" if p.get("rated") else _("The game was not rated.")
    return ""
