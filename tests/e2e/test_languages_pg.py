"""The site in each of its five languages, in a real Chromium asking for that language: the
lobby, a game page with a choice prompt, an event page and a rules page, on a laptop and on a
phone. Each page must be in the language asked for (``<html lang>``, a word of the catalogue),
must not scroll sideways, and no button, tab, menu entry or column heading may be cut off or run
out of its box: German and Russian words are long. Screenshots go to
``artifacts/screenshots/lang-<lang>-<page>-<size>.png``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import translation
from playwright.sync_api import Browser, Page, expect

from games import services
from games.models import Player
from tournaments.models import Tournament

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

SIZES = {"laptop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
LOCALES = {"en": "en-GB", "es": "es-ES", "fr": "fr-FR", "de": "de-DE", "ru": "ru-RU"}
DEMO_PASSWORD = "demo-pass-2026"

#: Text that does not fit its box: off the window (outside a sideways-scrolling box), or wider
#: than a box that clips it, or running out of its own button.
CUT_OFF = """() => {
  const out = [];
  const w = window.innerWidth;
  const sel = 'button, .button, nav a, th, label, .tabs a, select, h1, h2, h3, .prompt, #prompt, #status';
  for (const el of document.querySelectorAll(sel)) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden') continue;
    const text = (el.innerText || '').trim().slice(0, 40);
    // Inside a sideways-scrolling box (wide tables on a phone) the box must fit, not its content.
    let scroller = false;
    for (let p = el.parentElement; p; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o === 'auto' || o === 'scroll') { scroller = true; break; }
    }
    if (scroller) continue;
    if (r.right > w + 1 || r.left < -1) out.push(`off the window: ${el.tagName} "${text}"`);
    const clips = style.overflowX !== 'visible' || style.textOverflow === 'ellipsis';
    if (clips && el.scrollWidth > el.clientWidth + 1 && el.tagName !== 'SELECT')
      out.push(`cut off: ${el.tagName} "${text}"`);
    if (el.tagName === 'BUTTON' && el.scrollWidth > el.clientWidth + 1)
      out.push(`runs out of its button: "${text}"`);
  }
  if (document.documentElement.scrollWidth > w + 1) out.push('the page scrolls sideways');
  return out;
}"""


def word(lang: str, text: str) -> str:
    with translation.override(lang):
        return translation.gettext(text)


def open_in(browser: Browser, base: str, lang: str, size: str, username: str | None) -> Page:
    ctx = browser.new_context(
        viewport=SIZES[size], locale=LOCALES[lang], is_mobile=size == "phone", has_touch=size == "phone"
    )
    ctx.set_default_timeout(10_000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors  # type: ignore[attr-defined]
    if username:
        page.goto(base + "/accounts/login/")
        page.fill("#id_username", username)
        page.fill("#id_password", DEMO_PASSWORD)
        page.locator("main form button[type=submit]").click()
        page.wait_for_url(base + "/")
    return page


def check(page: Page, lang: str, name: str, size: str, artifacts: Path) -> None:
    assert page.evaluate("document.documentElement.lang") == lang
    page.screenshot(path=str(artifacts / f"lang-{lang}-{name}-{size}.png"), full_page=name != "game")
    problems = page.evaluate(CUT_OFF)
    assert problems == [], f"{lang} {name} ({size}): {problems}"
    assert page.errors == [], page.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("lang", list(LOCALES))
def test_lobby_game_event_and_rules_pages_in_each_language(
    browser: Browser, live_server: Any, artifacts: Path, lang: str, size: str
) -> None:
    call_command("seed_demo", verbosity=0)
    base = live_server.url
    alice = Player.objects.get(user__username="alice")
    bob = Player.objects.get(user__username="bob")
    table = services.table_create(creator=alice, game="pacru", players=2)
    services.seat_join(table_id=table.pk, player=bob)
    event = Tournament.objects.get(name="Demo Club Round Robin")

    visitor = open_in(browser, base, lang, size, None)
    visitor.goto(base + "/")
    expect(visitor.locator("nav[aria-label]")).to_contain_text(word(lang, "Ladders"))
    check(visitor, lang, "lobby", size, artifacts)
    visitor.goto(base + "/rules/pacru/")
    check(visitor, lang, "rules", size, artifacts)
    visitor.goto(f"{base}/tournaments/{event.pk}/")
    check(visitor, lang, "event", size, artifacts)

    player = open_in(browser, base, lang, size, "alice")
    player.goto(f"{base}/tables/{table.pk}/")
    expect(player.locator("#status")).to_have_text(word_js(lang, "Your turn."))
    player.locator('#board [data-cell="a3"]').click()
    player.locator('#board [data-cell="b4"]').click()
    expect(player.locator("#prompt")).not_to_be_empty()
    check(player, lang, "game", size, artifacts)
    player.context.close()
    visitor.context.close()


def word_js(lang: str, text: str) -> str:
    """``text`` as the browser scripts' catalogue (djangojs) has it."""
    from django.utils.translation.trans_real import DjangoTranslation

    return DjangoTranslation(lang, domain="djangojs").gettext(text)
