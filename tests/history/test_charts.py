"""The score chart draws the skunk lines where the board draws them, with the board's words."""

import re

from games.history.charts import NARROW, WIDE, score_chart

DEAL = {"deal_no": 0, "timeline": [[10, 4], [95, 40], [121, 59]]}


def _drawings(figure: str) -> list[str]:
    """The chart's two drawings, the wide screen's and the phone's."""
    return re.findall(r"<svg.*?</svg>", figure)


def _labels(svg: str) -> list[str]:
    """Each text's words, its lines joined by a space."""
    texts = re.findall(r"<text[^>]*>(.*?)</text>", svg)
    return [" ".join(re.sub(r"<tspan[^>]*>", " ", t).replace("</tspan>", "").split()) for t in texts]


def test_a_121_game_chart_has_both_skunk_lines_labelled_as_on_the_board():
    for svg in _drawings(str(score_chart([DEAL], ["ann", "bo"], 121, title="Scores"))):
        labels = _labels(svg)
        assert "skunk 90" in labels and "double skunk 60" in labels and "121" in labels
        assert "91" not in labels and "61" not in labels
        ys = [float(v) for v in re.findall(r'class="chart-skunk"[^>]*y1="([\d.]+)"', svg)]
        assert len(ys) == 2 and all(0 < v < WIDE.height for v in ys)
        assert ys[0] > ys[1]  # the double-skunk line (60) sits below the skunk line (90)


def test_a_61_game_chart_has_one_skunk_line():
    figure = str(score_chart([{"deal_no": 0, "timeline": [[30, 61]]}], ["ann", "bo"], 61, title="Scores"))
    for svg in _drawings(figure):
        labels = _labels(svg)
        assert "skunk 30" in labels and not any("double" in t for t in labels)
        assert svg.count('class="chart-skunk"') == 1


def test_the_skunk_words_stand_beside_the_plot_never_on_a_line():
    wide, narrow = _drawings(str(score_chart([], ["alice", "bob"], 121, title="Score")))
    for svg, frame in ((wide, WIDE), (narrow, NARROW)):
        for x in re.findall(r'class="chart-skunk-label" x="([\d.]+)"', svg):
            assert float(x) > frame.width - frame.right  # in the margin, where no score line runs
        assert len(re.findall('class="chart-skunk-label"', svg)) == 2
