"""The organiser's admin: creating a tournament, entrants, actions and custom views, through Django's
test client as a staff user; non-staff and staff without permissions are refused."""

from __future__ import annotations

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.tournaments import services
from games.tournaments.models import Entrant, Match, Notice, Tournament
from tests.play.factories import fixed_secrets

from .helpers import active_matches, make_players, make_tournament, refresh, said

pytestmark = pytest.mark.django_db

CHANGELIST = "admin:tournaments_tournament_changelist"


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "tournament-admin")


@pytest.fixture
def staff():
    return get_user_model().objects.create_superuser("td", email="td@example.com", password=None)


@pytest.fixture
def admin_client(staff) -> Client:
    client = Client()
    client.force_login(staff)
    return client


def _inline_management(prefix: str, total: int = 0, initial: int = 0) -> dict:
    return {
        f"{prefix}-TOTAL_FORMS": str(total),
        f"{prefix}-INITIAL_FORMS": str(initial),
        f"{prefix}-MIN_NUM_FORMS": "0",
        f"{prefix}-MAX_NUM_FORMS": "1000",
    }


def _tournament_form(**overrides) -> dict:
    data = {
        "name": "Club Championship",
        "description": "Monthly club event",
        "format": "rr_ko",
        "match_games": "1",
        "playoff_match_games": "3",
        "qualifiers": "",
        "qualifying_games": "9",
        "pairing": "standing",
        "tie_break_1": "games_won",
        "tie_break_2": "spread",
        "tie_break_3": "head_to_head",
        "tie_break_4": "cut",
        "tie_break_5": "",
        "target": "121",
        "skunks": "on",
        "peg_out_zone": "0",
        "win_points": "2",
        "skunk_points": "3",
        "double_skunk_points": "3",
        "registration_opens_0": "",
        "registration_opens_1": "",
        "registration_closes_0": "",
        "registration_closes_1": "",
        "max_entrants": "16",
        "forfeit_minutes": "5",
        "turn_timer": "0",
        "auto_advance": "on",
    }
    data.update(_inline_management("notices"))
    data.update(overrides)
    return data


def _action(client: Client, url_name: str, action: str, pks, **extra):
    return client.post(
        reverse(url_name), {"action": action, "_selected_action": [str(pk) for pk in pks], **extra}
    )


def test_create_a_tournament_with_entrants_in_the_admin(admin_client, staff) -> None:
    players = make_players(3)
    data = _tournament_form(turn_timer="60")
    data.update(_inline_management("entrants", total=2))
    data.update(
        {
            "entrants-0-user": str(players[0].pk),
            "entrants-0-seed": "2",
            "entrants-1-user": str(players[1].pk),
            "entrants-1-seed": "",
        }
    )
    response = admin_client.post(reverse("admin:tournaments_tournament_add"), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    t = Tournament.objects.get(name="Club Championship")
    assert (t.format, t.max_entrants, t.created_by, t.status) == ("rr_ko", 16, staff, "upcoming")
    assert t.turn_timer == 60
    assert sorted(t.entrants.values_list("user__username", "seed")) == [("p1", 2), ("p2", None)]
    assert t.notices.filter(kind=Notice.Kind.ENTRANTS).count() == 2
    assert LogEntry.objects.filter(object_id=str(t.pk), action_flag=1).exists()  # the add is logged


def test_remove_and_reseed_entrants_on_the_change_form(admin_client) -> None:
    players = make_players(3)
    t = make_tournament(players)
    entrants = list(t.entrants.order_by("registered_at"))
    data = _tournament_form(name=t.name, format="rr")
    data.update(_inline_management("entrants", total=3, initial=3))
    for i, e in enumerate(entrants):
        data.update(
            {
                f"entrants-{i}-id": str(e.pk),
                f"entrants-{i}-tournament": str(t.pk),
                f"entrants-{i}-user": str(e.user_id),
                f"entrants-{i}-seed": str(3 - i),
            }
        )
    data["entrants-2-DELETE"] = "on"
    response = admin_client.post(reverse("admin:tournaments_tournament_change", args=[t.pk]), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    assert list(t.entrants.order_by("seed").values_list("user__username", "seed")) == [("p2", 2), ("p1", 3)]
    assert said(t, "p3 was removed")


def test_start_action_draws_and_is_logged(admin_client, staff) -> None:
    t = make_tournament(make_players(4), format=Tournament.Format.KNOCKOUT)
    response = _action(admin_client, CHANGELIST, "start_tournaments", [t.pk])
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING
    assert len(active_matches(t)) == 2
    entry = LogEntry.objects.get(object_id=str(t.pk), user=staff)
    assert entry.change_message == "Started."  # the desk's own words: the same step
    # Starting again is refused with a message, and nothing changes.
    response = _action(admin_client, CHANGELIST, "start_tournaments", [t.pk])
    assert Match.objects.filter(tournament=t).count() == 3
    messages = [str(m) for m in response.wsgi_request._messages]
    assert any("Only an upcoming tournament" in m for m in messages)


def test_advance_action(admin_client, staff) -> None:
    t = make_tournament(make_players(4), format=Tournament.Format.ROUND_ROBIN, auto_advance=False)
    services.tournament_start(tournament_id=t.pk)
    response = _action(admin_client, CHANGELIST, "advance_tournaments", [t.pk])
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.current_round == 2  # the round-one games go on; round two starts now
    assert LogEntry.objects.filter(object_id=str(t.pk), change_message__startswith="Moved on").exists()


def test_seed_actions(admin_client) -> None:
    t = make_tournament(make_players(3))
    Entrant.objects.filter(tournament=t).update(seed=None)
    _action(admin_client, CHANGELIST, "seed_by_rating", [t.pk])
    assert list(t.entrants.order_by("registered_at").values_list("seed", flat=True)) == [1, 2, 3]
    assert LogEntry.objects.filter(
        object_id=str(t.pk), change_message__contains="registration order"
    ).exists()
    _action(admin_client, CHANGELIST, "seed_by_registration", [t.pk])
    assert LogEntry.objects.filter(change_message="Seeded: in registration order.").exists()


def test_cancel_action_asks_for_a_reason(admin_client) -> None:
    t = make_tournament(make_players(2))
    response = _action(admin_client, CHANGELIST, "cancel_tournaments", [t.pk])
    assert response.status_code == 200 and b'name="reason"' in response.content
    assert refresh(t).status == Tournament.Status.UPCOMING
    response = _action(
        admin_client, CHANGELIST, "cancel_tournaments", [t.pk], apply="1", reason="Too few players"
    )
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.status == Tournament.Status.CANCELLED
    assert t.notices.get(kind=Notice.Kind.CANCEL).reason == "Too few players"
    assert LogEntry.objects.filter(object_id=str(t.pk), change_message__contains="Too few players").exists()


def test_set_and_correct_a_result_in_the_admin(admin_client, staff) -> None:
    t = make_tournament(make_players(2), format=Tournament.Format.ROUND_ROBIN)
    services.tournament_start(tournament_id=t.pk)
    (m,) = active_matches(t)
    url = reverse("admin:tournaments_match_result", args=[m.pk])
    page = admin_client.get(url)
    assert page.status_code == 200 and m.entrant1.name in page.content.decode()
    # A reason is required.
    response = admin_client.post(url, {"winner": str(m.entrant2_id), "reason": ""})
    assert response.status_code == 400
    assert refresh(m).status == Match.Status.ACTIVE
    response = admin_client.post(
        url,
        {
            "winner": str(m.entrant2_id),
            "reason": "Opponent disconnected for good",
            "games1": "",
            "games2": "",
            "points1": "",
            "points2": "",
            "spread": "",
        },
    )
    assert response.status_code == 302
    m.refresh_from_db()
    assert (m.winner_id, m.decided_by, m.note, m.games2, m.points2) == (
        m.entrant2_id,
        "admin",
        "Opponent disconnected for good",
        1,
        2,
    )
    # Correct it: the other player won after all, with a skunk.
    response = admin_client.post(
        url,
        {
            "winner": str(m.entrant1_id),
            "reason": "Appeal upheld",
            "games1": "1",
            "games2": "0",
            "points1": "3",
            "points2": "0",
            "spread": "35",
        },
    )
    assert response.status_code == 302
    m.refresh_from_db()
    assert (m.winner_id, m.points1, m.spread, m.note) == (m.entrant1_id, 3, 35, "Appeal upheld")
    reasons = list(t.notices.filter(kind=Notice.Kind.RESULT).values_list("reason", flat=True))
    assert sorted(reasons) == ["Appeal upheld", "Opponent disconnected for good"]
    logged = LogEntry.objects.filter(user=staff, change_message__contains="Appeal upheld")
    assert logged.count() == 2  # on the match and on the tournament
    assert refresh(t).champion == m.entrant1.user


def test_match_change_page_links_to_the_result_form(admin_client) -> None:
    t = make_tournament(make_players(2), format=Tournament.Format.ROUND_ROBIN)
    services.tournament_start(tournament_id=t.pk)
    (m,) = active_matches(t)
    page = admin_client.get(reverse("admin:tournaments_match_change", args=[m.pk]))
    assert page.status_code == 200
    assert reverse("admin:tournaments_match_result", args=[m.pk]) in page.content.decode()
    listing = admin_client.get(reverse("admin:tournaments_match_changelist"))
    assert listing.status_code == 200


def test_withdraw_action_asks_for_a_reason_then_withdraws(admin_client) -> None:
    players = make_players(3)
    t = make_tournament(players, format=Tournament.Format.ROUND_ROBIN)
    services.tournament_start(tournament_id=t.pk)
    e = Entrant.objects.get(tournament=t, user=players[1])
    url = "admin:tournaments_entrant_changelist"
    response = _action(admin_client, url, "withdraw_entrants", [e.pk])
    assert response.status_code == 200 and not refresh(e).withdrawn
    response = _action(admin_client, url, "withdraw_entrants", [e.pk], apply="1", reason="Family emergency")
    assert response.status_code == 302
    assert refresh(e).withdrawn
    assert t.notices.get(kind=Notice.Kind.WITHDRAWAL).reason == "Family emergency"
    assert LogEntry.objects.filter(object_id=str(t.pk),
                                   change_message=f"Withdrew {e.name}. Reason: Family emergency").exists()


def test_remove_action_only_before_the_start(admin_client) -> None:
    players = make_players(3)
    t = make_tournament(players)
    e = Entrant.objects.get(tournament=t, user=players[2])
    _action(admin_client, "admin:tournaments_entrant_changelist", "remove_entrants", [e.pk])
    assert not Entrant.objects.filter(pk=e.pk).exists()
    services.tournament_start(tournament_id=t.pk)
    other = Entrant.objects.get(tournament=t, user=players[0])
    _action(admin_client, "admin:tournaments_entrant_changelist", "remove_entrants", [other.pk])
    assert Entrant.objects.filter(pk=other.pk).exists()


def test_extend_forfeit_time_action(admin_client) -> None:
    t = make_tournament(make_players(2), format=Tournament.Format.ROUND_ROBIN)
    services.tournament_start(tournament_id=t.pk)
    (m,) = active_matches(t)
    url = "admin:tournaments_match_changelist"
    assert _action(admin_client, url, "extend_forfeit_time", [m.pk]).status_code == 200
    response = _action(admin_client, url, "extend_forfeit_time", [m.pk], apply="1", minutes="15")
    assert response.status_code == 302
    assert refresh(m).extra_minutes == 15
    assert said(t, "15 minutes", kind=Notice.Kind.DEADLINE)


def test_rules_are_locked_once_started(admin_client) -> None:
    t = make_tournament(make_players(2), format=Tournament.Format.ROUND_ROBIN)
    services.tournament_start(tournament_id=t.pk)
    page = admin_client.get(reverse("admin:tournaments_tournament_change", args=[t.pk])).content.decode()
    assert 'name="target"' not in page and 'name="forfeit_minutes"' in page
    assert 'name="turn_timer"' not in page  # every game of a tournament has the same clock


def test_non_staff_are_refused(staff) -> None:
    player = make_players(1, prefix="plain")[0]
    t = make_tournament(make_players(2), format=Tournament.Format.ROUND_ROBIN)
    client = Client()
    client.force_login(player)
    login = reverse("admin:login")
    for response in (
        client.get(reverse(CHANGELIST)),
        _action(client, CHANGELIST, "start_tournaments", [t.pk]),
        client.get(reverse("admin:tournaments_tournament_change", args=[t.pk])),
    ):
        assert response.status_code == 302 and response.url.startswith(login)
    assert refresh(t).status == Tournament.Status.UPCOMING
    services.tournament_start(tournament_id=t.pk)
    (m,) = active_matches(t)
    response = client.post(
        reverse("admin:tournaments_match_result", args=[m.pk]),
        {"winner": str(m.entrant1_id), "reason": "I say so"},
    )
    assert response.status_code == 302 and response.url.startswith(login)
    assert refresh(m).status == Match.Status.ACTIVE
    anonymous = Client().get(reverse(CHANGELIST))
    assert anonymous.status_code == 302


def test_staff_without_tournament_permissions_are_refused() -> None:
    clerk = get_user_model().objects.create_user("clerk", password=None, is_staff=True)
    t = make_tournament(make_players(2), format=Tournament.Format.ROUND_ROBIN)
    client = Client()
    client.force_login(clerk)
    assert client.get(reverse(CHANGELIST)).status_code == 403
    response = _action(client, CHANGELIST, "start_tournaments", [t.pk])
    assert response.status_code == 403
    assert refresh(t).status == Tournament.Status.UPCOMING
    services.tournament_start(tournament_id=t.pk)
    (m,) = active_matches(t)
    response = client.post(
        reverse("admin:tournaments_match_result", args=[m.pk]), {"winner": str(m.entrant1_id), "reason": "x"}
    )
    assert response.status_code == 403
    assert refresh(m).status == Match.Status.ACTIVE


def test_the_admin_shows_notices_in_words_with_who_posted_them(admin_client, staff) -> None:
    """The admin words a notice as the pages do (``notice_words``): its list, its page and the
    tournament's inline, each with the player's name looked up and the director who posted it."""
    players = make_players(2)
    t = make_tournament(players)
    services.tournament_start(tournament_id=t.pk, by=staff)
    entrant = t.entrants.get(user=players[0])
    services.entrant_withdraw(entrant_id=entrant.pk, by=staff, reason="Called away")
    withdrawal = t.notices.get(kind=Notice.Kind.WITHDRAWAL)
    said_here = f"{players[0].username} has withdrawn."

    listed = admin_client.get(reverse("admin:tournaments_notice_changelist")).content.decode()
    assert said_here in listed and "The tournament has started with 2 players." in listed
    assert 'class="field-posted_by nowrap">td</td>' in listed  # who posted it
    page = admin_client.get(reverse("admin:tournaments_notice_change", args=[withdrawal.pk])).content.decode()
    assert said_here in page and "Called away" in page
    assert reverse("admin:auth_user_change", args=[staff.pk]) in page  # who posted it
    inline = admin_client.get(reverse("admin:tournaments_tournament_change", args=[t.pk])).content.decode()
    assert said_here in inline and "The tournament has started with 2 players." in inline
