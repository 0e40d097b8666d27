"""The director's desk in the admin, through Django's test client: each step said before it is taken,
players added many at once (unknown names listed, nothing added), imported and withdrawn, a round's
results on one form with corrections audited, announcements on every entrant's board and lobby, and
bad input answered with a message and a 4xx that changes nothing."""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.play.models import Game
from games.tournaments import services
from games.tournaments.models import Entrant, Match, Notice, ResultChange, Tournament
from tests.play.factories import fixed_secrets, logged_in

from .helpers import active_matches, make_players, make_tournament, refresh, said

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "desk")


@pytest.fixture
def staff():
    return get_user_model().objects.create_superuser("td", email="td@example.com", password=None)


@pytest.fixture
def desk(staff) -> Client:
    client = Client()
    client.force_login(staff)
    return client


def url(name: str, t: Tournament) -> str:
    return reverse(f"admin:tournaments_tournament_desk{'_' + name if name else ''}", args=[t.pk])


def text(response) -> str:
    body = re.sub(r"<[^>]+>", " ", response.content.decode())
    return " ".join(html.unescape(body).split())


def sheet(t: Tournament, results: dict[int, tuple[int | None, str]], **extra) -> dict:
    """A round's score sheet as the desk posts it: ``{match id: (winner id, scores)}``."""
    t = refresh(t)
    data = {"stage": t.stage, "round": str(t.current_round), "reason": extra.pop("reason", "")}
    for m in Match.objects.filter(
        tournament=t, stage=t.stage, round_no=t.current_round, entrant2__isnull=False
    ).exclude(status__in=["bye", "void"]):
        winner, scores = results.get(m.pk, (None, ""))
        data[f"m{m.pk}-winner"] = "" if winner is None else str(winner)
        data[f"m{m.pk}-scores"] = scores
        data[f"m{m.pk}-was"] = "True" if m.status == Match.Status.FINISHED else "False"
    data.update(extra)
    return data


def test_the_desk_says_what_each_step_will_do_before_it_is_done(desk) -> None:
    t = make_tournament(make_players(7), format=Tournament.Format.ACC, qualifying_games=4, name="Club Night")
    page = text(desk.get(url("", t)))
    assert "Closes the entry list at 7 players" in page
    assert "Round 1 of 4 is paired now from seed order; each later round is paired by standing" in page
    assert "The top 2 then go on to a seeded playoff" in page
    assert "Ends the event for good" in page
    assert refresh(t).status == Tournament.Status.UPCOMING  # reading the desk changes nothing
    response = desk.post(url("step", t), {"step": "start", "confirmed": "on"})
    assert response.status_code == 302
    page = text(desk.get(url("", t)))
    assert "Running" in page and "qualifying round 1 of 4" in page
    assert "Pairs qualifying round 2 of 4 by standing" in page
    assert "Round 1 is not complete: waiting for" in page
    assert "One player has the bye (a win, no spread)" in page
    assert LogEntry.objects.filter(object_id=str(t.pk), change_message__startswith="Started").exists()


def test_the_desk_refuses_too_many_games_before_the_start(desk) -> None:
    t = make_tournament(make_players(5), format=Tournament.Format.ACC, qualifying_games=9)
    page = text(desk.get(url("", t)))
    assert "A field of 5 can play at most 5 games each against a different opponent" in page
    response = desk.post(url("step", t), {"step": "start", "confirmed": "on"})
    assert response.status_code == 409
    assert "A field of 5 can play at most 5 games" in text(response)
    assert refresh(t).status == Tournament.Status.UPCOMING


def test_add_many_players_lists_unknown_names_and_adds_nobody(desk) -> None:
    make_players(3, "club")
    t = make_tournament(name="Tuesday")
    response = desk.post(url("add", t), {"usernames": "club1\n club2 \nclbu3\nnobody\n\n"})
    assert response.status_code == 400
    page = text(response)
    assert "No player is called “clbu3”, “nobody”" in page and "Nobody was added" in page
    assert "club1" in response.content.decode().split('name="usernames"')[1][:200]  # the list comes back
    assert not t.entrants.exists()
    response = desk.post(url("add", t), {"usernames": "club1\nclub2\nCLUB3\nclub1"})
    assert response.status_code == 302
    assert sorted(t.entrants.values_list("user__username", flat=True)) == ["club1", "club2", "club3"]
    assert said(t, "3 players entered by the director")
    response = desk.post(url("add", t), {"usernames": "club2"})
    assert response.status_code == 409 and "entered already" in text(response)


def test_import_the_previous_events_players(desk) -> None:
    last = make_tournament(make_players(4, "old"), name="March")
    Entrant.objects.filter(tournament=last, user__username="old4").update(withdrawn=True)
    t = make_tournament([get_user_model().objects.get(username="old1")], name="April")  # entered already
    page = desk.get(url("", t)).content.decode()
    assert f'<option value="{last.pk}" selected>March</option>' in page
    response = desk.post(url("import", t), {"source": str(last.pk)})
    assert response.status_code == 302
    assert sorted(t.entrants.values_list("user__username", flat=True)) == ["old1", "old2", "old3"]
    assert desk.post(url("import", t), {"source": "99999"}).status_code == 400
    assert desk.post(url("import", t), {"source": str(t.pk)}).status_code == 400


def test_withdraw_one_player_needs_a_reason_once_started(desk) -> None:
    t = make_tournament(make_players(4), format=Tournament.Format.ROUND_ROBIN)
    services.tournament_start(tournament_id=t.pk)
    gone = Entrant.objects.get(tournament=t, seed=4)
    response = desk.post(url("withdraw", t), {"entrant": str(gone.pk), "reason": ""})
    assert response.status_code == 400 and "Give a reason" in text(response)
    assert not refresh(gone).withdrawn
    stranger = make_tournament(make_players(2, "x"))
    other = stranger.entrants.first()
    response = desk.post(url("withdraw", t), {"entrant": str(other.pk), "reason": "x"})  # another event's
    assert response.status_code == 400 and not refresh(other).withdrawn
    response = desk.post(url("withdraw", t), {"entrant": str(gone.pk), "reason": "Taken ill"})
    assert response.status_code == 302 and refresh(gone).withdrawn


def test_a_rounds_results_on_one_form_then_a_correction_with_its_audit(desk, staff) -> None:
    t = make_tournament(make_players(4), format=Tournament.Format.ACC, qualifying_games=2, auto_advance=False)
    services.tournament_start(tournament_id=t.pk)
    first, second = sorted(active_matches(t), key=lambda m: m.slot)
    page = text(desk.get(url("", t)))
    assert "Results: Qualifying round 1 of 2" in page
    response = desk.post(
        url("results", t),
        sheet(
            t,
            {
                first.pk: (first.entrant1_id, "121-85"),
                second.pk: (second.entrant2_id, "110-121"),
            },
        ),
    )
    assert response.status_code == 302, text(response)[:2000]
    first, second = refresh(first), refresh(second)
    assert (first.winner_id, first.points1, first.spread, first.decided_by) == (
        first.entrant1_id,
        3,
        36,
        "admin",
    )
    assert (second.winner_id, second.points2, second.spread) == (second.entrant2_id, 2, -11)
    assert Game.objects.get(pk=first.game_id).status == Game.Status.FINISHED  # its game was ended
    assert said(t, "entered 2 results (qualifying round 1 of 2)")
    # A correction needs a reason, and keeps who, when, before and after.
    data = sheet(t, {first.pk: (first.entrant2_id, "100-121"), second.pk: (second.entrant2_id, "110-121")})
    response = desk.post(url("results", t), data)
    assert response.status_code == 400 and "needs a reason" in text(response)
    assert refresh(first).winner_id == first.entrant1_id
    data["reason"] = "Score sheet misread"
    assert desk.post(url("results", t), data).status_code == 302
    first = refresh(first)
    assert (first.winner_id, first.spread, first.note) == (first.entrant2_id, -21, "Score sheet misread")
    change = ResultChange.objects.filter(match=first).latest("at")
    assert change.by == staff and change.correction
    assert change.before.startswith(f"{first.entrant1.name} wins 1–0 (points 3–0, spread +36)")
    assert change.after.startswith(f"{first.entrant2.name} wins 1–0 (points 2–0, spread +21)")
    assert ResultChange.objects.filter(match=second).count() == 1  # unchanged: no line
    public = text(Client().get(t.get_absolute_url()))
    assert "Corrected" in public and f"by td: was {change.before}" in public
    assert "by td" in text(desk.get(url("", t)))


def test_bad_result_sheets_are_refused_and_change_nothing(desk) -> None:
    t = make_tournament(make_players(4), format=Tournament.Format.ACC, qualifying_games=2)
    services.tournament_start(tournament_id=t.pk)
    first, second = sorted(active_matches(t), key=lambda m: m.slot)
    cases = [
        ({first.pk: (second.entrant1_id, "")}, 400, "Select a valid choice"),  # a forged winner
        ({first.pk: (first.entrant1_id, "121-200")}, 400, "exactly one player reaches 121"),
        ({first.pk: (first.entrant1_id, "95-121")}, 400, f"The scores say {first.entrant2.name} won"),
        ({first.pk: (first.entrant1_id, "lots")}, 400, "is not a game's score"),
        ({first.pk: (first.entrant1_id, "121-90, 121-80")}, 400, "ends when a player wins 1 game"),
    ]
    for results, status, message in cases:
        response = desk.post(url("results", t), sheet(t, results))
        assert response.status_code == status, (results, text(response)[:500])
        assert message in text(response)
        assert refresh(first).status == Match.Status.ACTIVE and refresh(second).status == Match.Status.ACTIVE
    # A result for a match that was decided meanwhile (another desk, its game ended) is refused.
    stale = sheet(t, {first.pk: (first.entrant1_id, "121-100")})
    services.match_set_result(match_id=first.pk, winner_id=first.entrant2_id, reason="Left the hall")
    response = desk.post(url("results", t), stale)
    assert response.status_code == 400 and "Decided meanwhile" in text(response)
    assert refresh(first).winner_id == first.entrant2_id
    # No such round, a finished tournament's qualifying round, a GET to a form's address.
    assert desk.post(url("results", t), {"stage": "q", "round": "7"}).status_code == 400
    assert desk.post(url("step", t), {"step": "explode"}).status_code == 400
    assert desk.get(url("results", t)).status_code == 302
    assert desk.get(reverse("admin:tournaments_tournament_desk", args=[99999])).status_code == 404


def test_strangers_cannot_use_the_desk(staff) -> None:
    t = make_tournament(make_players(2), format=Tournament.Format.ROUND_ROBIN)
    player = t.entrants.first().user
    for client in (Client(), logged_in(player)):
        response = client.post(url("step", t), {"step": "start"})
        assert response.status_code == 403
        response = client.post(url("announce", t), {"text": "Free drinks"})
        assert response.status_code == 403
        page = client.get(url("", t))
        assert page.status_code == 302 and reverse("admin:login") in page.url
    clerk = get_user_model().objects.create_user("clerk", password=None, is_staff=True)
    client = Client()
    client.force_login(clerk)
    assert client.get(url("", t)).status_code == 403
    assert client.post(url("step", t), {"step": "start"}).status_code == 403
    assert refresh(t).status == Tournament.Status.UPCOMING
    assert not t.notices.filter(kind=Notice.Kind.ANNOUNCEMENT).exists()


def test_an_announcement_reaches_the_page_the_boards_and_the_lobbies(desk) -> None:
    t = make_tournament(make_players(4), format=Tournament.Format.KNOCKOUT, name="Spring Open")
    services.tournament_start(tournament_id=t.pk)
    m = active_matches(t)[0]
    before = Game.objects.get(pk=m.game_id).version
    response = desk.post(url("announce", t), {"text": "Round two starts at 8 pm sharp."})
    assert response.status_code == 302
    game = Game.objects.get(pk=m.game_id)
    assert game.notice.startswith("Spring Open, from the director at ")
    assert game.notice.endswith(": Round two starts at 8 pm sharp.")
    assert game.version == before + 1 and game.turn_timer == 0 == t.turn_timer  # no clock touched
    player = m.entrant1.user
    assert "Round two starts at 8 pm sharp." in text(logged_in(player).get(reverse("game", args=[game.pk])))
    lobby = text(logged_in(player).get(reverse("lobby")))
    assert "Spring Open" in lobby and "Round two starts at 8 pm sharp." in lobby
    outsider = make_players(1, "outsider")[0]
    assert "Round two starts" not in text(logged_in(outsider).get(reverse("lobby")))
    page = text(Client().get(t.get_absolute_url()))
    assert "From the director" in page and "Round two starts at 8 pm sharp." in page
    response = desk.post(url("announce", t), {"text": "x" * 201})
    assert response.status_code == 400
    response = desk.post(url("announce", t), {"text": "   "})
    assert response.status_code == 400
    assert t.notices.filter(kind=Notice.Kind.ANNOUNCEMENT).count() == 1


def test_pause_resume_and_cancel_from_the_desk(desk) -> None:
    t = make_tournament(make_players(4), format=Tournament.Format.ROUND_ROBIN)
    services.tournament_start(tournament_id=t.pk)
    assert desk.post(url("step", t), {"step": "pause"}).status_code == 302
    assert refresh(t).paused
    assert "paused by the director" in text(Client().get(t.get_absolute_url()))
    assert desk.post(url("step", t), {"step": "pause"}).status_code == 409
    assert desk.post(url("step", t), {"step": "resume"}).status_code == 302
    response = desk.post(url("step", t), {"step": "cancel", "reason": ""})
    assert response.status_code == 400 and "Give a reason" in text(response)
    assert refresh(t).status == Tournament.Status.RUNNING
    assert desk.post(url("step", t), {"step": "cancel", "reason": "Power cut"}).status_code == 302
    assert refresh(t).status == Tournament.Status.CANCELLED


def test_delete_is_not_offered_once_an_event_has_players_and_the_admin_is_the_halls(desk) -> None:
    empty = make_tournament(name="Empty")
    full = make_tournament(make_players(2), name="Full")
    change = lambda t: desk.get(reverse("admin:tournaments_tournament_change", args=[t.pk])).content.decode()  # noqa: E731
    assert reverse("admin:tournaments_tournament_delete", args=[empty.pk]) in change(empty)
    assert reverse("admin:tournaments_tournament_delete", args=[full.pk]) not in change(full)
    assert desk.get(reverse("admin:tournaments_tournament_delete", args=[full.pk])).status_code == 403
    listing = desk.get(reverse("admin:tournaments_tournament_changelist")).content.decode()
    assert "delete_selected" not in listing and "Open the desk" in listing
    assert "Cribbage Hall administration" in listing and "Django administration" not in listing


def test_the_settings_page_orders_the_tie_breaks(desk) -> None:
    t = make_tournament(make_players(2), name="Ties")
    page = desk.get(reverse("admin:tournaments_tournament_change", args=[t.pk])).content.decode()
    assert 'name="tie_break_1"' in page and 'name="qualifying_games"' in page and 'name="muggins"' in page
    services.tournament_start(tournament_id=t.pk)
    page = text(desk.get(reverse("admin:tournaments_tournament_change", args=[t.pk])))
    assert "Ties on points" in page and "Games won, then point spread" in page


def test_printable_pages(desk) -> None:
    t = make_tournament(make_players(6), format=Tournament.Format.ACC, qualifying_games=2, name="Wall Chart")
    assert Client().get(reverse("tournaments:print_pairings", args=[t.pk])).status_code == 404  # none yet
    services.tournament_start(tournament_id=t.pk)
    page = Client().get(reverse("tournaments:print_pairings", args=[t.pk]))
    assert page.status_code == 200
    body = text(page)
    assert "Wall Chart" in body and "Pairings: Qualifying round 1 of 2" in body and "printed" in body
    assert page.content.decode().count('class="print-page"') == 1
    standings = Client().get(reverse("tournaments:print_standings", args=[t.pk]))
    assert standings.status_code == 200 and "Qualifying standings" in text(standings)
    assert Client().get(reverse("tournaments:print_bracket", args=[t.pk])).status_code == 404
    assert Client().get(reverse("tournaments:print_pairings", args=[t.pk]) + "?round=x").status_code == 404


def test_one_result_with_game_scores_and_its_audit_on_the_match_page(desk, staff) -> None:
    t = make_tournament(make_players(2), format=Tournament.Format.ROUND_ROBIN, match_games=3)
    services.tournament_start(tournament_id=t.pk)
    (m,) = active_matches(t)
    result = reverse("admin:tournaments_match_result", args=[m.pk])
    data = {"winner": str(m.entrant2_id), "reason": "Played on the club's boards", "scores": "121-80, 90-121"}
    response = desk.post(result, data)
    assert response.status_code == 400 and "ends when a player wins 2 games" in text(response)
    assert refresh(m).status == Match.Status.ACTIVE
    data["scores"] = "121-80, 90-121, 55-121"
    assert desk.post(result, data).status_code == 302
    m = refresh(m)
    # 80 and 90 are skunks (3 points each), 55 a double skunk (3 here); spread 41 - 31 - 66.
    assert (m.games1, m.games2, m.points1, m.points2, m.spread) == (1, 2, 3, 6, -56)
    page = text(desk.get(reverse("admin:tournaments_match_change", args=[m.pk])))
    assert "Results set or corrected by the director" in page
    # Every figure the winner's first: the games won, the points and the game scores.
    after = f"{m.entrant2.name} wins 2–1 (points 6–3, spread +56), games 80–121, 121–90, 121–55"
    assert f"in play {after}" in page


def test_the_desk_seeds_and_the_changelist_shortcut_is_the_same_step(desk, staff) -> None:
    t = make_tournament(make_players(3))
    Entrant.objects.filter(tournament=t).update(seed=None)
    page = text(desk.get(url("", t)))
    assert "Numbers the seeds of the 3 players 1 to 3 in the order they registered." in page
    response = desk.post(url("step", t), {"step": "seed_order"})
    assert response.status_code == 302
    assert list(t.entrants.order_by("registered_at").values_list("seed", flat=True)) == [1, 2, 3]
    by_desk = LogEntry.objects.filter(object_id=str(t.pk)).latest("pk").change_message
    desk.post(reverse("admin:tournaments_tournament_changelist"),
              {"action": "seed_by_registration", "_selected_action": [str(t.pk)]})
    by_shortcut = LogEntry.objects.filter(object_id=str(t.pk)).latest("pk").change_message
    assert by_desk == by_shortcut == "Seeded: in registration order."
    t = refresh(t)
    services.tournament_start(tournament_id=t.pk)
    assert "Seed by rating" not in text(desk.get(url("", t)))  # seeds are fixed once started
