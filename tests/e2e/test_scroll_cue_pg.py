"""A table wider than a phone says it scrolls sideways (issue 31, item 10): at 390×844 the event's
standings show "Scroll sideways →" above them and fade at the edge where columns hide; scrolled to
the end, the fade moves to the other edge; at 1280×900, where everything fits, no cue at all. The
organiser's round listing names who sits out of a 3-player round robin. Screenshots at both sizes."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games import services as games
from games.models import Player
from tests.games.conftest import as_organiser
from tournaments.competitions import services as events
from tournaments.models import Tournament

from .conftest import PASSWORD, Browsers

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def register(username: str) -> Player:
    return games.player_register(username=username, password=PASSWORD, display_name=username.title())


def swiss_under_way() -> Tournament:
    organiser = as_organiser(register("olga"))
    league = events.league_create(organiser=organiser, name="Wide Club")
    t = events.tournament_create(
        organiser=organiser, league=league, name="Wide Swiss", game="shacru", seats=2, rounds=3, rated=False
    )
    for name in ("alexandra", "bartholomew", "constance", "demetrius"):
        events.register(tournament_id=t.pk, player=register(name))
    events.start(tournament_id=t.pk, by=organiser)
    return t


def cue(page: Page) -> dict[str, Any]:
    return page.evaluate(
        """() => {
          const box = document.querySelector('#standings .scroll');
          const hint = box.previousElementSibling;
          return {
            overflows: box.scrollWidth > box.clientWidth,
            hint: hint && hint.classList.contains('scroll-hint') && !hint.hidden ? hint.textContent : '',
            right: box.classList.contains('more-right'),
            left: box.classList.contains('more-left'),
          };
        }"""
    )


def test_a_wide_table_on_a_phone_shows_that_it_scrolls_sideways(
    people: Browsers, live_server: Any, artifacts: Path
) -> None:
    t = swiss_under_way()
    phone = people.open(**PHONE)
    phone.goto(f"{live_server.url}/tournaments/{t.pk}/")
    expect(phone.locator("#standings .scroll-hint")).to_be_visible()
    seen = cue(phone)
    assert seen == {"overflows": True, "hint": "Scroll sideways →", "right": True, "left": False}
    phone.locator("#standings").scroll_into_view_if_needed()
    phone.screenshot(path=str(artifacts / "scroll-cue-phone.png"))
    phone.evaluate("document.querySelector('#standings .scroll').scrollLeft = 10000")
    expect(phone.locator("#standings .scroll")).to_have_class(re.compile(r"\bmore-left\b"))
    seen = cue(phone)
    assert seen["left"] and not seen["right"], "at the end, the fade is on the left edge"
    phone.screenshot(path=str(artifacts / "scroll-cue-phone-scrolled.png"))

    laptop = people.open()
    laptop.goto(f"{live_server.url}/tournaments/{t.pk}/")
    seen = cue(laptop)
    assert seen == {"overflows": False, "hint": "", "right": False, "left": False}
    expect(laptop.locator(".scroll-hint:visible")).to_have_count(0)
    laptop.screenshot(path=str(artifacts / "scroll-cue-laptop.png"), full_page=True)

    plain = people.open(java_script_enabled=False, **PHONE)
    plain.goto(f"{live_server.url}/tournaments/{t.pk}/")
    assert plain.locator("#standings table").is_visible(), "without scripts the table is there, and scrolls"
    assert plain.locator(".scroll-hint").count() == 0


def test_the_organiser_sees_who_sits_out_and_pairs_a_round_again_only_when_ticked_without_scripts(
    people: Browsers, live_server: Any, artifacts: Path
) -> None:
    organiser = as_organiser(register("olga"))
    league = events.league_create(organiser=organiser, name="Trio Club")
    t = events.tournament_create(
        organiser=organiser,
        league=league,
        name="Trio",
        game="shacru",
        seats=2,
        format="round_robin",
        rated=False,
    )
    trio = [register(name) for name in ("ann", "ben", "carol")]
    for player in trio:
        events.register(tournament_id=t.pk, player=player)
    events.start(tournament_id=t.pk, by=organiser)
    t.refresh_from_db()
    (out,) = {p.pk for p in trio} - {p for table in t.schedule[0] for p in table}
    name = Player.objects.get(pk=out).display_name
    for size, context in (("laptop", {}), ("phone", PHONE)):
        page = people.open("olga", java_script_enabled=False, **context)
        page.goto(f"{live_server.url}/organiser/events/{t.pk}/")
        expect(page.locator("#results p.byes").first).to_have_text(f"Bye: {name}")
        expect(page.locator("#repair-round")).to_be_hidden()  # folded away until asked for
        page.locator("#repair-form summary").click()
        page.screenshot(path=str(artifacts / f"organiser-round-robin-bye-{size}.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "fits"
    page.locator("#repair-round").click()  # not ticked: the browser's own check keeps the form back
    assert page.locator("#repair-confirm").evaluate("el => !el.validity.valid")
    page.locator("#repair-confirm").check()
    page.locator("#repair-round").click()
    expect(page.locator(".messages")).to_contain_text("Round 1 paired again: 1 table")
    public = people.open(**PHONE)
    public.goto(f"{live_server.url}/tournaments/{t.pk}/")
    expect(public.locator("#round-1 p.byes")).to_have_text(f"Bye: {name}")
    public.screenshot(path=str(artifacts / "event-round-robin-bye-phone.png"), full_page=True)
