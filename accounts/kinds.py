"""The kinds of notification: what each says, and how each is mailed unless a player chooses
otherwise. A notification keeps its facts (``params``) and is put into words when shown or
mailed, so the words can change (and be translated) without touching stored rows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.wording import names_list, ordinal

from .models import EmailMode


@dataclass(frozen=True)
class Kind:
    name: str
    label: str
    #: How it is mailed when the player has not chosen.
    email: str


KINDS: dict[str, Kind] = {
    k.name: k
    for k in [
        Kind(
            "your_turn", "It is your turn (correspondence games, and any game you left waiting)", "immediate"
        ),
        Kind("time_low", "Your time is running low (correspondence: 24 hours and 1 hour left)", "immediate"),
        Kind("challenge", "You were challenged on a ladder", "immediate"),
        Kind("challenge_answer", "Your challenge was accepted, declined or expired", "immediate"),
        Kind("round", "Your event's round is paired, or you got a bye", "immediate"),
        Kind("event", "An event you entered starts or finishes", "immediate"),
        Kind("entered", "An organiser entered you into an event", "immediate"),
        Kind("game_over", "A game of yours ended (result and rating change)", "off"),
    ]
}

EMAIL_MODES = [m.value for m in EmailMode]


def _names(names: list[str]) -> str:
    return names_list(names) or "nobody"


def _left(seconds: float) -> str:
    hours = seconds / 3600
    if hours >= 1.5:
        return f"about {round(hours)} hours"
    if seconds >= 45 * 60:
        return "about an hour"
    return f"{max(1, round(seconds / 60))} minutes"


def title(kind: str, p: dict[str, Any]) -> str:
    """The notification in one line, as the inbox lists it and a mail's subject says it."""
    if kind == "your_turn":
        return f"Your turn in {p['game']} against {_names(p['opponents'])} (table {p['table']})"
    if kind == "time_low":
        return f"{_left(p['seconds'])} left for your move in {p['game']} (table {p['table']})"
    if kind == "challenge":
        return f"{p['by']} challenged you on the ladder {p['ladder']}"
    if kind == "challenge_answer":
        status = p["status"]
        if status == "accepted":
            return f"{p['by']} accepted your challenge on {p['ladder']}: your game is ready"
        if status == "declined":
            return f"{p['by']} declined your challenge on {p['ladder']}"
        if status == "cancelled":
            return f"{p['by']} withdrew their challenge on {p['ladder']}"
        if p.get("challenger"):
            return f"Your challenge to {p['by']} on {p['ladder']} expired: {p['outcome']}"
        return f"The challenge from {p['by']} on {p['ladder']} expired: {p['outcome']}"
    if kind == "round":
        if p.get("bye"):
            return f"{p['event']}: round {p['round']} is paired and you have a bye"
        return f"{p['event']}: round {p['round']} is paired, you play {_names(p['opponents'])}"
    if kind == "event":
        if p["state"] == "started":
            return f"{p['event']} has started"
        if p.get("place"):
            return f"{p['event']} has finished: you placed {ordinal(p['place'])} of {p['of']}"
        return f"{p['event']} has finished"
    if kind == "entered":
        return f"{p['by']} entered you into {p['event']}"
    if kind == "game_over":
        return f"Your {p['game']} game against {_names(p['opponents'])} ended: {p['outcome']}"
    return kind.replace("_", " ")


def detail(kind: str, p: dict[str, Any], extra: dict[str, Any] | None = None) -> str:
    """A second line with what the first leaves out (may be empty)."""
    if kind == "your_turn" and p.get("deadline"):
        return f"Move by {p['deadline']}."
    if kind == "challenge":
        return (
            f"Answer by {p['expires']}: an unanswered challenge counts as a loss on this ladder."
            if p.get("forfeit")
            else f"Answer by {p['expires']}."
        )
    if kind == "round" and p.get("starts"):
        return f"The round starts {p['starts']}."
    if kind == "game_over":
        change = (extra or {}).get("rating")
        return f"Rating {change}." if change else ("" if p.get("rated") else "The game was not rated.")
    return ""
