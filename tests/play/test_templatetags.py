"""The presentation tags: card faces and backs, card names, and the SVG cribbage board."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import pytest
from django.template import Context, Template

from games.engine.cards import Card, parse_card
from games.play.pegboard import GROUP_GAP, HOLE_R, STEP, Layout, render_pegboard
from games.play.templatetags.cribbage import card_back, card_face, card_name

SVG = "{http://www.w3.org/2000/svg}"


def render(source: str, **context) -> str:
    return Template("{% load cribbage %}" + source).render(Context(context))


def two_tracks(you: tuple[int, int] = (45, 40), computer: tuple[int, int] = (38, 31)) -> list[dict]:
    return [
        {"label": "You", "front": you[0], "back": you[1], "color": "red"},
        {"label": "Computer", "front": computer[0], "back": computer[1], "color": "blue"},
    ]


def parse_board(html: str) -> ET.Element:
    return ET.fromstring(str(html))


def svg_of(figure: ET.Element) -> ET.Element:
    svg = figure.find(f"{SVG}svg")
    assert svg is not None
    return svg


def drawn_holes(svg: ET.Element) -> set[tuple[float, float]]:
    """Every hole centre the SVG draws: the dots of the dotted rows (a dash of no length, at each
    offset the dash pattern gives, from the start of each subpath ``M x y h length``), the start
    holes and the game hole."""
    holes: set[tuple[float, float]] = set()
    for path in svg.iter(f"{SVG}path"):
        if path.get("class") != "hole-rows":
            continue
        assert path.get("stroke-linecap") == "round" and float(path.get("stroke-width")) == 2 * HOLE_R
        pattern = [float(n) for n in path.get("stroke-dasharray").split()]
        for x, y, length in re.findall(r"M([-\d.]+) ([-\d.]+)h([-\d.]+)", path.get("d")):
            at, i = 0.0, 0
            while at <= float(length):
                if i % 2 == 0 and pattern[i % len(pattern)] == 0:  # a dash of no length: a dot
                    holes.add((round(float(x) + at, 6), float(y)))
                at += pattern[i % len(pattern)]
                i += 1
    for c in svg.iter(f"{SVG}circle"):
        if c.get("class") in ("start-hole", "game-hole"):
            holes.add((float(c.get("cx")), float(c.get("cy"))))
    return holes


def peg_at(svg: ET.Element, prefix: str, track: int, kind: str) -> tuple[float, float]:
    peg = next(g for g in svg.iter(f"{SVG}g") if g.get("id") == f"{prefix}-peg-{track}-{kind}")
    match = re.fullmatch(r"transform:translate\(([-\d.]+)px,([-\d.]+)px\)", peg.get("style"))
    assert match, peg.get("style")
    return float(match[1]), float(match[2])


# ---------- cards ----------


def test_card_face_shows_rank_and_suit_in_colour():
    html = str(card_face(parse_card("5H")))
    assert html.count('data-suit="\u2665\ufe0e">5<') == 2  # both corners
    assert str(card_face("5H", size="small")).count(">5<") == 1  # a small card shows one
    assert "\u2665" in html
    assert "card--red" in html
    assert 'aria-hidden="true"' in html
    assert 'data-card="5H"' in html


def test_card_face_draws_without_images():
    html = str(card_face("KS")) + str(card_back())
    assert "<img" not in html
    assert "src=" not in html
    assert "url(" not in html


def test_spades_and_clubs_are_black_hearts_and_diamonds_red():
    assert "card--black" in card_face("2S") and "card--black" in card_face("2C")
    assert "card--red" in card_face("2D") and "card--red" in card_face("2H")


def test_ten_is_written_10_and_courts_get_a_letter():
    assert 'data-suit="\u2666\ufe0e">10<' in card_face("TD")
    king = card_face(Card(13, "C"))
    assert 'data-court="K"' in king
    assert "card--court" in king


def test_card_face_accepts_cards_and_notation_alike():
    assert card_face(Card(5, "H")) == card_face("5H") == card_face("5h")


def test_size_class():
    assert "card--small" in card_face("AS", size="small")
    assert "card--large" in card_back(size="large")
    assert "card--medium" not in card_face("AS")  # medium is the default look
    assert "card--huge" not in card_face("AS", size="huge")


def test_card_back_is_face_down_and_hidden_from_assistive_tech():
    html = str(card_back())
    assert "card--back" in html
    assert 'aria-hidden="true"' in html
    assert "card__corner" not in html


def test_card_name_filter():
    assert card_name(parse_card("5H")) == "Five of hearts"
    assert card_name("TD") == "Ten of diamonds"
    assert card_name(None) == ""
    assert render("{{ c|card_name }}", c=Card(1, "S")) == "Ace of spades"


def test_tags_work_in_templates():
    source = '<button aria-label="{{ c|card_name }}">{% card_face c size="small" %}</button>{% card_back %}'
    html = render(source, c=parse_card("QD"))
    assert 'aria-label="Queen of diamonds"' in html
    assert "card--small" in html and "card--back" in html


# ---------- the board ----------


def test_board_names_the_scores_for_assistive_tech():
    svg = svg_of(parse_board(render_pegboard(two_tracks(), 121)))
    assert svg.get("role") == "img"
    assert svg.get("aria-label") == "You 45, Computer 38, game to 121"
    assert svg.find(f"{SVG}title").text == "You 45, Computer 38, game to 121"
    desc = svg.find(f"{SVG}desc").text
    assert "front peg 45, back peg 40" in desc
    assert "skunk line after 90" in desc


def test_board_shows_a_visible_score_for_each_track():
    figure = parse_board(render_pegboard(two_tracks(), 121))
    caption = "".join(figure.find("figcaption").itertext())
    assert "You 45" in caption
    assert "Computer 38" in caption
    assert "Game to 121" in caption


@pytest.mark.parametrize("target", [121, 61])
@pytest.mark.parametrize("n", [2, 3])
def test_every_track_has_one_hole_per_point_plus_start_and_game_holes(target: int, n: int):
    colours = ["red", "blue", "green"][:n]
    tracks = [{"label": f"P{i}", "front": 0, "back": 0, "color": c} for i, c in enumerate(colours)]
    svg = svg_of(parse_board(render_pegboard(tracks, target)))
    holes = drawn_holes(svg)
    assert len(holes) == n * (target - 1) + 2 * n + 1
    lay = Layout(n, target)
    for track in range(n):
        assert {lay.hole(track, h) for h in range(1, target)} <= holes


@pytest.mark.parametrize("target", [121, 61])
def test_holes_follow_one_another_in_fives_and_turns(target: int):
    lay = Layout(2, target)
    for track in range(2):
        for hole in range(1, target - 1):
            (x1, y1), (x2, y2) = lay.hole(track, hole), lay.hole(track, hole + 1)
            if y1 == y2:  # along a street: the next hole, with a wider gap after each five
                assert abs(x2 - x1) == (STEP + GROUP_GAP if hole % 5 == 0 else STEP)
            else:  # a turn to the next street, at the same end of the board
                assert x1 == x2 and hole % lay.per == 0
        sx, sy = lay.start_hole(track, 1)
        first = lay.hole(track, 1)
        assert sy == first[1] and sx < first[0]


@pytest.mark.parametrize(
    ("front", "back"),
    [(0, 0), (2, 0), (45, 40), (60, 52), (61, 60), (90, 84), (91, 90), (120, 112), (121, 118)],
)
def test_pegs_sit_in_the_holes_of_their_scores(front: int, back: int):
    html = render_pegboard(two_tracks(you=(front, back)), 121, id_prefix="b")
    svg = svg_of(parse_board(html))
    lay = Layout(2, 121)
    holes = drawn_holes(svg)
    assert peg_at(svg, "b", 0, "front") == lay.peg(0, front, front=True)
    assert peg_at(svg, "b", 0, "back") == lay.peg(0, back, front=False)
    assert peg_at(svg, "b", 0, "front") in holes
    assert peg_at(svg, "b", 0, "back") in holes
    assert peg_at(svg, "b", 1, "front") == lay.hole(1, 38)


def test_score_zero_pegs_are_in_the_two_start_holes():
    svg = svg_of(parse_board(render_pegboard(two_tracks(you=(0, 0), computer=(0, 0)), 121, id_prefix="b")))
    lay = Layout(2, 121)
    for track in (0, 1):
        front, back = peg_at(svg, "b", track, "front"), peg_at(svg, "b", track, "back")
        assert front != back
        assert {front, back} == {lay.start_hole(track, 0), lay.start_hole(track, 1)}
        assert front[0] < lay.hole(track, 1)[0]


def test_a_winning_peg_goes_in_the_shared_game_hole():
    lay = Layout(2, 121)
    svg = svg_of(parse_board(render_pegboard(two_tracks(you=(121, 115)), 121, id_prefix="b")))
    assert peg_at(svg, "b", 0, "front") == lay.game_hole()
    svg = svg_of(parse_board(render_pegboard(two_tracks(computer=(125, 119)), 121, id_prefix="b")))
    assert peg_at(svg, "b", 1, "front") == lay.game_hole()  # overshooting still lands in it


def test_hole_positions_on_the_long_board():
    lay = Layout(2, 121)
    # Street 0 runs left to right, street 1 comes back, street 2 goes out again to the game hole.
    assert lay.hole(0, 1)[0] < lay.hole(0, 40)[0]
    assert lay.hole(0, 41)[0] == lay.hole(0, 40)[0] and lay.hole(0, 41)[1] > lay.hole(0, 40)[1]
    assert lay.hole(0, 80)[0] == lay.hole(0, 1)[0]
    assert lay.hole(0, 120)[0] == lay.hole(0, 40)[0]
    assert lay.game_hole()[0] > lay.hole(0, 120)[0]
    # The two tracks are side by side, hole for hole.
    for hole in (1, 45, 90, 120):
        (x0, y0), (x1, y1) = lay.hole(0, hole), lay.hole(1, hole)
        assert x0 == x1 and y0 != y1


def skunk_lines_of(svg: ET.Element) -> dict[int, tuple[float, str]]:
    lines = {}
    for g in svg.iter(f"{SVG}g"):
        if g.get("class") == "skunk-line":
            line = g.find(f"{SVG}line")
            assert line.get("x1") == line.get("x2")
            lines[int(g.get("data-after"))] = (float(line.get("x1")), g.find(f"{SVG}text").text)
    return lines


def test_121_board_marks_the_skunk_and_double_skunk_lines():
    svg = svg_of(parse_board(render_pegboard(two_tracks(), 121)))
    lines = skunk_lines_of(svg)
    assert set(lines) == {60, 90}
    assert lines[90][1] == "skunk 90"
    assert lines[60][1] == "double skunk 60"
    lay = Layout(2, 121)
    for after, (x, _) in lines.items():
        for track in (0, 1):
            xa, xb = lay.hole(track, after)[0], lay.hole(track, after + 1)[0]
            assert min(xa, xb) < x < max(xa, xb)
            assert lay.hole(track, after)[1] == lay.hole(track, after + 1)[1]  # not on a turn


def test_61_board_has_60_holes_a_track_and_one_skunk_line():
    html = render_pegboard(two_tracks(you=(61, 52), computer=(30, 25)), 61, id_prefix="s")
    svg = svg_of(parse_board(html))
    assert svg.get("aria-label") == "You 61, Computer 30, game to 61"
    lines = skunk_lines_of(svg)
    assert set(lines) == {30}
    assert "double" not in html
    lay = Layout(2, 61)
    assert lay.per == 20
    assert peg_at(svg, "s", 0, "front") == lay.game_hole()
    assert peg_at(svg, "s", 1, "front") == lay.hole(1, 30)
    x, _ = lines[30]
    assert min(lay.hole(0, 30)[0], lay.hole(0, 31)[0]) < x < max(lay.hole(0, 30)[0], lay.hole(0, 31)[0])


def test_three_tracks_work():
    tracks = [*two_tracks(), {"label": "Cy", "front": 7, "back": 3, "color": "green"}]
    html = render_pegboard(tracks, 121, id_prefix="t")
    svg = svg_of(parse_board(html))
    assert svg.get("aria-label") == "You 45, Computer 38, Cy 7, game to 121"
    assert peg_at(svg, "t", 2, "front") == Layout(3, 121).hole(2, 7)
    assert "board-score--green" in html


def test_bends_are_concentric_so_lanes_never_cross():
    lay = Layout(3, 121)
    for street in range(2):
        centres = {(lay.row_y(street, t) + lay.row_y(street + 1, t)) / 2 for t in range(3)}
        assert len(centres) == 1


def test_pegs_have_stable_ids_and_a_css_transform_so_moves_animate():
    html = render_pegboard(two_tracks(), 121, id_prefix="game-7")
    for track in (0, 1):
        for kind in ("front", "back"):
            assert f'id="game-7-peg-{track}-{kind}"' in html
    assert "transform:translate(" in html


def test_labels_are_escaped():
    html = render_pegboard([{"label": "<script>x</script>", "front": 1, "back": 0, "color": "red"}], 121)
    assert "<script>" not in html
    assert "&lt;script&gt;" in html


def test_board_is_compact():
    assert len(render_pegboard(two_tracks(), 121)) < 8000


def test_unknown_colour_falls_back_and_bad_target_is_refused():
    html = render_pegboard([{"label": "A", "front": 1, "back": 0, "color": "purple"}], 121)
    assert "peg--red" in html
    with pytest.raises(ValueError):
        render_pegboard(two_tracks(), 100)


def test_board_tag_in_a_template():
    html = render("{% cribbage_board tracks 61 id_prefix='x' %}", tracks=two_tracks(you=(12, 4)))
    assert 'aria-label="You 12, Computer 38, game to 61"' in html
    assert 'id="x-peg-0-front"' in html


def test_peg_positions_are_distinct_for_every_score():
    lay = Layout(2, 121)
    spots = [lay.peg(0, s, front=True) for s in range(0, 122)]
    assert len(set(spots)) == 122
    assert all(math.isfinite(c) for spot in spots for c in spot)


def _log(lines) -> str:
    from django.template.loader import render_to_string

    html = render_to_string("play/parts/log.jinja", {"log": lines})
    return html.split("<ol>", 1)[1].split("</ol>", 1)[0].strip()


def test_the_log_lists_newest_first_numbered_from_the_first_marks_mine_and_escapes():
    from games.play.narration import LogLine

    lines = [
        LogLine("You", "play 5♥ for 15", 2, "play", (), True),
        LogLine("<b>Bob</b>", "says go", 0, "go", (), False),
        LogLine("", "Bob deals", 0, "dealer", (), False),
    ]
    items = re.findall(r"<li[^>]*>.*?</li>", _log(lines))
    assert len(items) == 3
    assert items[0] == '<li id="log-line-3" class="log-dealer"><span>Bob deals</span></li>'  # newest first
    assert items[1] == ('<li id="log-line-2" class="log-go"><span><span class="who">&lt;b&gt;Bob&lt;/b&gt;:'
                        "</span> says go</span></li>")
    assert items[2] == ('<li id="log-line-1" class="log-play log--mine"><span><span class="who">You:</span> '
                        'play 5♥ for 15</span> <span class="points">+2</span></li>')
    assert _log([]) == "<li>Nothing yet.</li>"


def test_remembered_boards_and_log_lines_never_serve_trusted_html_for_plain_text():
    """Pegboards are cached, and a SafeString equals the str with the same text: a player named
    like markup must still be escaped after the same text was drawn as trusted."""
    from django.utils.safestring import mark_safe

    from games.play.narration import LogLine

    name = "<b>Eve</b>"
    trusted = render_pegboard([{"label": mark_safe(name), "front": 3, "back": 1}])
    plain = render_pegboard([{"label": name, "front": 3, "back": 1}])
    assert "<b>Eve</b>" in trusted and "<b>Eve</b>" not in plain and "&lt;b&gt;Eve&lt;/b&gt;" in plain
    assert render_pegboard([{"label": name, "front": 3, "back": 1}]) == plain  # and it is remembered

    line = LogLine(who=name, text=name, points=2, kind="play", cards=(), mine=False)
    safe_line = LogLine(mark_safe(name), mark_safe(name), 2, "play", (), False)
    assert "<b>Eve</b>" in _log([safe_line])
    drawn = _log([line])
    assert "<b>Eve</b>" not in drawn and drawn.count("&lt;b&gt;Eve&lt;/b&gt;") == 2
    assert "+2" in drawn


def test_log_lines_are_remembered_per_viewer_and_never_mix_trusted_names_with_plain():
    from django.utils.safestring import SafeData, mark_safe

    from games.engine.events import Event
    from games.play.narration import Seating, log_lines

    events = [{"seat": 1, "kind": "deal", "points": 0, "cards": []},
              {"seat": 0, "kind": "fifteen", "points": 2, "cards": ["5H", "TH"]}]
    mine = log_lines(Seating(("You", "Bob"), 0), events)
    assert [(li.who, li.text, li.mine, li.cards) for li in mine] == [
        ("", "Bob deals", False, ()), ("You", "Fifteen for 2", True, (parse_card("5H"), parse_card("TH")))]
    theirs = log_lines(Seating(("Alice", "You"), 1), events)
    assert [(li.who, li.text, li.mine) for li in theirs] == [("", "You deal", True),
                                                                ("Alice", "Fifteen for 2", False)]
    assert log_lines(Seating(("You", "Bob"), 0), [Event.from_dict(e) for e in events]) == mine
    assert log_lines(Seating(("You", "Bob"), 0), events)[1] is mine[1]  # built once

    name = "<b>Eve</b>"
    trusted = log_lines(Seating((mark_safe(name), "Bob"), 0), events[1:])
    plain = log_lines(Seating((name, "Bob"), 0), events[1:])
    assert isinstance(trusted[0].who, SafeData) and not isinstance(plain[0].who, SafeData)


def test_a_part_s_morph_key_is_what_it_draws_without_the_csrf_token():
    from games.play.jinja import morph_key

    form = '<form id="f"><input type="hidden" name="csrfmiddlewaretoken" value="{}"><b>{}</b></form>'
    one, other = morph_key(form.format("a" * 64, "Go")), morph_key(form.format("b" * 64, "Go"))
    changed = morph_key(form.format("a" * 64, "Stay"))
    key = re.compile(r'^<form id="f" data-morph-key="([0-9a-f]{16})">')
    assert key.match(one)[1] == key.match(other)[1] != key.match(changed)[1]
    assert key.match(morph_key('<form id="f"><b>Go</b></form>')) is not None  # no token to leave out
