"""The display scale: what players read (60 × mu, never negative, "?" while provisional, ± 60 × sigma)."""

from __future__ import annotations

import itertools
import re
from types import SimpleNamespace

import pytest

from ratings import display, environment
from ratings.chart import history_svg
from ratings.templatetags import ratings_display as filters


def test_a_newcomer_reads_1500_plus_minus_500_provisional() -> None:
    mu, sigma = environment.MU, environment.SIGMA
    assert display.rating(mu) == 1500 and display.uncertainty(sigma) == 500
    assert display.is_provisional(sigma) and display.text(mu, sigma) == "1500?"
    newcomer = SimpleNamespace(mu=mu, sigma=sigma)
    assert filters.rating(newcomer) == "1500?" and filters.rating_pm(newcomer) == "± 500"
    assert filters.provisional(newcomer) is True


def test_an_established_player_has_no_question_mark() -> None:
    settled = SimpleNamespace(mu=27.0, sigma=environment.PROVISIONAL_SIGMA - 0.1)
    assert filters.rating(settled) == "1620" and filters.provisional(settled) is False
    assert filters.rating_pm(settled) == "± 144"
    assert display.text(27.0, environment.PROVISIONAL_SIGMA) == "1620", "the bound itself is established"


def test_the_numbers_of_the_issue_both_read_as_positive_ratings() -> None:
    """A 4-player Pacru table of newcomers: the winner's cautious value is 13.6, the last one's −1.97;
    both read as positive ratings, the winner well above the last."""
    after = environment.rate("pacru", [(environment.MU, environment.SIGMA)] * 4, [1, 2, 3, 4])
    (win_mu, win_sigma), (lose_mu, lose_sigma) = after[0], after[-1]
    assert environment.conservative(win_mu, win_sigma) == pytest.approx(13.6, abs=0.05)
    assert environment.conservative(lose_mu, lose_sigma) == pytest.approx(-1.97, abs=0.01)
    assert display.text(win_mu, win_sigma) == "1967?"
    assert display.text(lose_mu, lose_sigma) == "1033?"
    assert display.change(environment.MU, lose_mu) == -467 and display.signed(-467) == "−467"
    assert display.signed(display.change(environment.MU, win_mu)) == "+467"


def test_the_rating_is_clamped_at_zero() -> None:
    assert display.rating(-3.0) == 0 and display.rating(0.004) == 0 and display.rating(0.01) == 1
    assert filters.mu_rating(-10.0) == "0" and filters.mu_rating(None) == "–"
    assert display.change(-5.0, -1.0) == 0 and display.signed(0) == "±0"


def test_rating_change_and_ordinal_filters() -> None:
    change = SimpleNamespace(mu_before=25.0, mu_after=25.0 + 38 / 60)
    assert filters.rating_change(change) == "+38"
    assert [filters.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st",
    ]  # fmt: skip


def test_the_chart_is_drawn_and_labelled_on_the_display_scale() -> None:
    points = [(25.0, 25 / 3), (18.0, 7.0), (3.0, 6.0), (30.0, 5.0)]
    svg = history_svg(points, title="Alice: Pacru rating history")
    labels = [int(v) for v in re.findall(r'text-anchor="end">(-?\d+)</text>', svg)]
    assert labels and min(labels) == 0 and max(labels) >= 2100, labels  # 30 + 5 → 2100
    steps = {b - a for a, b in itertools.pairwise(labels)}
    assert len(steps) == 1 and steps.pop() in (200, 500, 1000), "round steps"
    assert "now 1800? ± 300" in svg and "3 rated tables" in svg
    ys = [float(y) for y in re.findall(r",(-?[\d.]+)", svg)]
    assert max(ys) <= 200 - 28 + 0.05, "nothing drawn below the zero line"
    assert "−" not in svg and not re.search(r">-\d", svg)
