"""Learn by playing through the site: start a lesson, leave it and resume it, hide the explanations
(remembered), play the prepared deals to the lesson's end and its offer of a normal game; never a
card of the computer's hand in the learner's page."""

from __future__ import annotations

import random
import re

import pytest

from games.engine.actions import action_to_dict
from games.engine.game import legal_actions
from games.play import services
from games.play.models import Game
from games.practice.lesson import deals
from games.practice.models import LessonRecord
from tests.play.factories import computer_game, fixed_secrets, load, logged_in, make_user
from tests.play.test_hidden_information import cards_in, hidden_from, without_last_deal

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
START, PAGE = "/practice/lesson/start/", "/practice/lesson/"


class SeededBytes:
    """Stands in for ``secrets`` inside the lesson's deals: the same candidate seeds on every run."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def token_bytes(self, n: int) -> bytes:
        return self._rng.randbytes(n)


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "lesson")
    monkeypatch.setattr(deals, "secrets", SeededBytes(11))


@pytest.fixture
def ann():
    return make_user("ann")


def coach_text(html: str) -> str:
    found = re.search(r'<section class="coach.*?</section>', html, re.S)
    assert found, "no coach on the board"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(0))).replace("&#39;", "'")


def test_a_visitor_is_asked_to_sign_in_and_the_rules_page_links_the_lesson(client):
    page = client.get(PAGE).content.decode()
    assert "Sign in to start the lesson" in page and "/accounts/login/?next=/practice/lesson/" in page
    assert 'href="/practice/lesson/"' in client.get("/rules/").content.decode()
    assert client.post(START).status_code == 302 and not Game.objects.exists()


def test_start_leave_and_resume_a_lesson(ann):
    client = logged_in(ann)
    assert "Start the lesson" in client.get(PAGE).content.decode()
    answer = client.post(START)
    game = Game.objects.get()
    assert answer["Location"] == game.get_absolute_url()
    assert game.lesson and game.vs_computer and not game.rated and game.hints
    assert game.computer_level == "easy" and game.target == 121
    assert LessonRecord.objects.get(user=ann).game == game
    board = client.get(game.get_absolute_url()).content.decode()
    said = coach_text(board)
    assert "The cut for deal" in said and "the crib is the dealer's" in said
    assert 'role="status" aria-live="polite"' in board
    # Left and come back to: the lesson page offers the game in hand.
    page = client.get(PAGE).content.decode()
    assert "Resume your lesson" in page and f'href="{game.get_absolute_url()}"' in page
    # The player's data download tells of it.
    data = client.get("/accounts/u/ann/data.json").json()["lessons"]
    assert data["lessons_started"] == 1 and data["latest_game"] == game.pk


def test_a_normal_game_has_no_coach(ann):
    game = computer_game(ann, hints=True)
    assert 'id="coach"' not in logged_in(ann).get(game.get_absolute_url()).content.decode()


def test_hiding_the_explanations_is_remembered_for_the_next_lesson(ann):
    client = logged_in(ann)
    client.post(START)
    game = Game.objects.get()
    answer = client.post(f"/practice/lesson/{game.pk}/coach/", headers=HTMX)
    board = answer.content.decode()
    assert answer.status_code == 200 and board.startswith('<div id="board"')
    assert "Show explanations" in board and "The cut for deal:" not in coach_text(board)
    client.post(START)
    newer = Game.objects.latest("pk")
    assert "Show explanations" in client.get(newer.get_absolute_url()).content.decode()
    assert client.post(f"/practice/lesson/{newer.pk}/coach/")["Location"] == newer.get_absolute_url()
    assert "The cut for deal:" in coach_text(client.get(newer.get_absolute_url()).content.decode())


def test_the_coach_switch_answers_only_for_the_player_s_own_lesson(ann):
    other = make_user("bob")
    logged_in(other).post(START)
    lesson = Game.objects.get(created_by=other)
    normal = computer_game(ann)
    client = logged_in(ann)
    for game in (lesson, normal):
        answer = client.post(f"/practice/lesson/{game.pk}/coach/")
        assert answer.status_code == 404
    assert not LessonRecord.objects.filter(user=ann, coach_hidden=True).exists()
    assert client.get(f"/practice/lesson/{lesson.pk}/coach/").status_code == 405


def test_the_prepared_deals_teach_step_by_step_and_end_with_a_normal_game_offered(ann):
    """The learner makes every move (the first legal one); after each, the board says what the step
    needs, and never shows a card of the computer's hand or of the deck."""
    client = logged_in(ann)
    client.post(START)
    game = Game.objects.get()
    headings, said_all = [], []
    for _ in range(80):
        services.play_computer_turns(game.pk)
        state = load(game)
        html = client.get(game.get_absolute_url()).content.decode()
        leaked = cards_in(without_last_deal(html, state), hidden_from(state, 0))
        assert not leaked, f"{state.phase}: {sorted(map(str, leaked))}"
        said = coach_text(html)
        said_all.append(said)
        headings.append(said.split(": ")[1].split(" Hide")[0] if "explains:" in said else "")
        if state.phase == "show" and state.deal_no == deals.PREPARED_DEALS - 1:
            break
        action = action_to_dict(legal_actions(state, 0)[0])
        del action["seat"]
        services.game_act(user=ann, game_id=game.pk, version=Game.objects.get().version, action=action)
    text = " ".join(said_all)
    assert {"The cut for deal", "Laying away", "The play", "The show"} <= set(headings)
    assert "the lower card deals" in text and "The computer's advice: lay away" in text
    assert "the count is" in text and "The show: each hand is counted with the starter" in text
    assert "The skunk lines" in said and "91" in said and "61" in said and "The lesson is done" in said
    assert 'id="coach-normal-game"' in html
    answer = client.post("/practice/lesson/normal-game/")
    normal = Game.objects.latest("pk")
    assert answer["Location"] == normal.get_absolute_url()
    assert not normal.lesson and normal.vs_computer and normal.computer_level == "standard"
