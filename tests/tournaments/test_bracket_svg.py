"""The bracket drawing: valid SVG, every player named, winners marked, rounds joined by lines."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from tournaments.bracket_svg import BOX_W, COL_GAP, Box, Column, Entry, layout, render

NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    return root


def names_in(root: ET.Element, cls: str | None = None) -> list[str]:
    """The full names (each row's ``<title>``) of the rows of class ``cls`` (any row: None)."""
    rows = [
        g for g in root.iter(f"{NS}g") if g.get("class") in ({cls} if cls else {"advanced", "out", "player"})
    ]
    return [t.text or "" for g in rows for t in g.iter(f"{NS}title")]


def four_player_knockout() -> list[Column]:
    first = Column(
        "Round 1",
        (
            Box(
                "a",
                "Table 1",
                (Entry("Alice", "1st", advanced=True, key=1), Entry("Bob & <Co>", "2nd", out=True, key=2)),
                href="/tables/10/",
                feeds=((1, "f"),),
            ),
            Box(
                "b",
                "Table 2",
                (Entry("Carol", "2nd", out=True, key=3), Entry("Dave", "1st", advanced=True, key=4)),
                href="/tables/11/",
                feeds=((4, "f"),),
            ),
        ),
    )
    final = Column(
        "Round 2 · final", (Box("f", "Table 1", (Entry("Alice", key=1), Entry("Dave", key=4)), current=True),)
    )
    return [first, final]


def test_a_knockout_is_valid_svg_with_every_player_and_the_winners_marked() -> None:
    root = parse(render(four_player_knockout(), label="Cup: the bracket"))
    assert root.find(f"{NS}title").text == "Cup: the bracket"
    assert sorted(set(names_in(root))) == ["Alice", "Bob & <Co>", "Carol", "Dave"], "names escaped, all there"
    assert names_in(root, "advanced") == ["Alice", "Dave"]
    assert sorted(names_in(root, "out")) == ["Bob & <Co>", "Carol"]
    links = [p for p in root.iter(f"{NS}path") if p.get("class") == "link"]
    assert len(links) == 2, "a line from each first-round table to the final"
    hrefs = [a.get("href") for a in root.iter(f"{NS}a")]
    assert hrefs == ["/tables/10/", "/tables/11/"]
    texts = ["".join(t.itertext()) for t in root.iter(f"{NS}text")]
    assert "Round 1" in texts and "Round 2 · final" in texts


def test_the_final_sits_between_its_feeders_and_columns_do_not_overlap() -> None:
    placed, height = layout(four_player_knockout())
    a, b, f = placed["a"], placed["b"], placed["f"]
    assert a.y + a.h <= b.y, "boxes of a round do not overlap"
    assert abs((f.y + f.h / 2) - ((a.y + a.h / 2 + b.y + b.h / 2) / 2)) < 1, (
        "the final is centred on its feeders"
    )
    assert f.x - a.x == BOX_W + COL_GAP
    assert height >= b.y + b.h


def test_tables_of_three_and_four_players_and_byes() -> None:
    columns = [
        Column(
            "Round 1",
            (
                Box("bye", "Bye", (Entry("Erin", "bye", advanced=True, key=5),), feeds=((5, "f"),)),
                Box(
                    "t",
                    "Table 1",
                    tuple(
                        Entry(n, w, advanced=w == "1st", out=w != "1st", key=k)
                        for k, (n, w) in enumerate(
                            (("Fay", "1st"), ("Gus", "2nd"), ("Hal", "3rd"), ("Ivy", "4th")), start=6
                        )
                    ),
                    feeds=((6, "f"),),
                ),
            ),
        ),
        Column(
            "Round 2",
            (Box("f", "Table 1", (Entry("Erin", key=5), Entry("Fay", key=6), Entry("Jo", key=11))),),
        ),
    ]
    root = parse(render(columns, label="Triples"))
    assert sorted(set(names_in(root))) == ["Erin", "Fay", "Gus", "Hal", "Ivy", "Jo"]
    assert names_in(root, "advanced") == ["Erin", "Fay"]
    placed, _ = layout(columns)
    assert placed["t"].h > placed["f"].h > placed["bye"].h, "a box grows with its players"


def test_boxes_feeding_the_same_table_are_drawn_next_to_each_other() -> None:
    # Round 1 lists its tables 1, 2, 3, 4, but 1 and 3 feed one semi-final, 2 and 4 the other.
    boxes = tuple(
        Box(
            f"r1-{i}",
            f"Table {i}",
            (Entry(f"P{i}", advanced=True, key=i),),
            feeds=((i, "s1" if i % 2 else "s2"),),
        )
        for i in range(1, 5)
    )
    semis = tuple(Box(k, k, (Entry(f"x{k}"),)) for k in ("s1", "s2"))
    placed, _ = layout([Column("Round 1", boxes), Column("Round 2", semis)])
    order = sorted(("r1-1", "r1-2", "r1-3", "r1-4"), key=lambda k: placed[k].y)
    assert order == ["r1-1", "r1-3", "r1-2", "r1-4"]


def test_double_elimination_draws_two_bands_with_their_titles() -> None:
    columns = [
        Column(
            "Round 1",
            (
                Box(
                    "w1",
                    "Table 1",
                    (Entry("Ann", "won", advanced=True, key=1), Entry("Ben", "lost", out=True, key=2)),
                    feeds=((1, "w2"),),
                ),
            ),
        ),
        Column(
            "Round 2",
            (
                Box("w2", "Table 1", (Entry("Ann", key=1), Entry("Cat", key=3))),
                Box("l1", "Table 2", (Entry("Ben", key=2), Entry("Dan", key=4)), band=1),
            ),
        ),
    ]
    svg = render(columns, label="DE", band_titles={0: "Winners bracket", 1: "Losers bracket"})
    root = parse(svg)
    texts = ["".join(t.itertext()) for t in root.iter(f"{NS}text")]
    assert "Winners bracket" in texts and "Losers bracket" in texts
    placed, _ = layout(columns, {0: "Winners bracket", 1: "Losers bracket"})
    assert placed["l1"].y > placed["w2"].y + placed["w2"].h, "the losers bracket below the winners"
    assert names_in(root, "advanced") == ["Ann"]


def test_rounds_still_to_come_are_empty_boxes() -> None:
    root = parse(render([Column("Round 1"), Column("Final", (Box("p", "Table 1", ()),))], label="x"))
    assert "to be decided" in ["".join(t.itertext()) for t in root.iter(f"{NS}text")]
