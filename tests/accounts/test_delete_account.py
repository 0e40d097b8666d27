"""Deleting an account (games.accounts.services.account_delete): a player in a running tournament with
a match in play, a finished rated game, a rated game in progress, a seek, invitations and an upcoming
entry leaves; the others keep consistent histories, ratings and standings under "a deleted player"."""

from __future__ import annotations

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.contrib.sessions.models import Session
from django.db.models import Q
from django.test import Client
from django.urls import reverse

from games.accounts.forms import SignupForm
from games.accounts.services import account_delete
from games.engine.rules import HouseRules
from games.history.models import PlayerGame, Rating, RatingChange
from games.history.ratings import rebuild_ratings
from games.history.summaries import record_game
from games.play.models import Connection, Game
from games.play.names import DELETED_NAME, is_deleted
from games.tournaments import notice_words, selectors
from games.tournaments import services as tournament_services
from games.tournaments.models import Entrant, Match, Notice, Tournament
from tests.accounts.helpers import PASSWORD, World, make_world
from tests.history.helpers import finish_table
from tests.play.factories import fixed_secrets, logged_in, make_user
from tests.tournaments.helpers import better_seed_wins, make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _setup(settings, monkeypatch):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    fixed_secrets(monkeypatch, "owndata")


def rating_rows() -> dict[int, tuple]:
    return {
        c.pk: (c.game_id, c.user_id, c.rating_before, c.rd_before, c.rating_after, c.rd_after)
        for c in RatingChange.objects.all()
    }


def ratings() -> dict[tuple[int, int], tuple]:
    return {(r.user_id, r.pool): (round(r.rating, 6), round(r.rd, 6), r.games, r.wins, r.losses)
            for r in Rating.objects.all()}


@pytest.fixture
def world() -> World:
    return make_world()


def test_the_account_is_anonymised_and_cannot_log_in(world):
    first, second = logged_in(world.alice), logged_in(world.alice)
    assert Session.objects.count() == 2
    account_delete(user_id=world.alice.pk)

    alice = get_user_model().objects.get(pk=world.alice.pk)
    assert is_deleted(alice.username) and alice.username != "alice"
    assert (alice.email, alice.first_name, alice.last_name, alice.last_login) == ("", "", "", None)
    assert not alice.has_usable_password() and not alice.is_active
    assert authenticate(username="alice", password=PASSWORD) is None
    assert authenticate(username=alice.username, password=PASSWORD) is None
    assert not Client().login(username="alice", password=PASSWORD)
    # Every session ended, on every device: both clients are anonymous now.
    assert Session.objects.count() == 0
    for client in (first, second):
        assert client.get(reverse("lobby")).status_code == 302
    assert not Connection.objects.filter(user=alice).exists()
    # No profile, no statistics, no place on the leaderboard (the rating rows stay, see below).
    for name in (alice.username, "alice"):
        for view in ("profile", "player_stats", "player_games"):
            assert Client().get(reverse(view, args=[name])).status_code == 404
    assert Rating.objects.filter(user=alice).exists()
    board = Client().get(reverse("leaderboard")).content.decode()
    assert "alice" not in board and alice.username not in board and "data-player=\"bob\"" in board


def test_games_waiting_and_in_play_are_called_off_or_resigned(world):
    account_delete(user_id=world.alice.pk)
    for game in (world.seek, world.invitation, world.table):
        game.refresh_from_db()
        assert game.status == Game.Status.ABORTED
    world.in_play.refresh_from_db()
    assert world.in_play.status == Game.Status.FINISHED
    assert world.in_play.winner_seat == 1  # carol's seat: she won by the resignation
    assert world.in_play.moves.order_by("-seq").first().action["type"] == "resign"
    assert world.in_play.seat_names() == [DELETED_NAME, "carol"]
    assert not Game.objects.filter(seats__user=world.alice, status__in=["waiting", "active"]).exists()


def test_other_players_histories_name_a_deleted_player(world):
    account_delete(user_id=world.alice.pk)
    bobs = PlayerGame.objects.get(game=world.finished, user=world.bob)
    assert bobs.opponent_name == DELETED_NAME
    carols = PlayerGame.objects.get(game=world.in_play, user=world.carol)
    assert carols.opponent_name == DELETED_NAME and carols.won
    # Rebuilding the history from the move log names her the same way.
    record_game(world.finished)
    assert PlayerGame.objects.get(game=world.finished, user=world.bob).opponent_name == DELETED_NAME

    client = logged_in(world.bob)
    for url in (reverse("player_games", args=["bob"]), reverse("player_stats", args=["bob"]),
                reverse("profile", args=["bob"]), reverse("game_record", args=[world.finished.pk])):
        page = client.get(url).content.decode()
        assert DELETED_NAME in page, url
        assert "alice" not in page, url
    exported = client.get(reverse("game_export_json", args=[world.finished.pk])).json()
    assert exported["players"][0] == {**exported["players"][0], "name": DELETED_NAME, "username": None}


def test_ratings_stay_consistent(world):
    before_rows, before = rating_rows(), ratings()
    open_games = set(Game.objects.filter(seats__user=world.alice, status=Game.Status.ACTIVE)
                     .values_list("pk", flat=True))
    account_delete(user_id=world.alice.pk)

    after_rows = rating_rows()
    # Nothing already rated changed; the only new updates are the games the deletion resigned.
    assert {pk: after_rows[pk] for pk in before_rows} == before_rows
    new = RatingChange.objects.exclude(pk__in=before_rows)
    assert new.exists() and set(new.values_list("game_id", flat=True)) <= open_games
    changed_users = set(new.values_list("user_id", flat=True))
    after = ratings()
    for key, value in before.items():
        if key[0] not in changed_users:
            assert after[key] == value
    # Each rating is what its last update says, and rating every game again gives the same.
    for rating in Rating.objects.all():
        last = RatingChange.objects.filter(user=rating.user, pool=rating.pool).order_by("at", "pk").last()
        assert rating.rating == pytest.approx(last.rating_after)
    rebuild_ratings()
    rebuilt = ratings()
    assert rebuilt.keys() == after.keys()
    for key, value in after.items():
        assert rebuilt[key][:2] == pytest.approx(value[:2]) and rebuilt[key][2:] == value[2:]


def test_the_tournament_goes_on_with_a_withdrawal(world):
    t = world.tournament
    account_delete(user_id=world.alice.pk)
    t.refresh_from_db()
    gone = Entrant.objects.get(tournament=t, user=world.alice)
    assert gone.withdrawn and gone.name == DELETED_NAME
    theirs = Match.objects.filter(tournament=t).filter(Q(entrant1=gone) | Q(entrant2=gone))
    later = [m for m in theirs if m.round_no > 1]
    assert later and all(m.decided_by == Match.Decided.WITHDRAWAL and m.winner_id != gone.pk for m in later)
    first = theirs.get(round_no=1)
    assert first.winner_id == gone.pk and first.decided_by == Match.Decided.RESIGN  # her win stands
    table = selectors.standings(t)
    assert [row.player for row in table][-1] == gone and table[-1].withdrawn
    assert all(Game.objects.get(pk=m.game_id).status == Game.Status.FINISHED for m in theirs if m.game_id)
    # Her name is gone from the public notices (one said the organiser entered her): they name
    # players by id, worded when shown, so nothing was rewritten.
    notices = notice_words.in_words(Notice.objects.filter(tournament=t))
    texts = [f"{n.words} {n.reason_words}" for n in notices]
    assert not any("alice" in text for text in texts)
    assert f"{DELETED_NAME} was entered by the organiser. " in texts
    assert any(text.startswith(f"{DELETED_NAME} has withdrawn.") for text in texts)
    assert not Notice.objects.filter(tournament=t).exclude(text="").exists()  # none holds a sentence
    notes = [m.note_text for m in theirs.select_related("entrant1__user", "entrant2__user") if m.note]
    assert notes and all("alice" not in note and DELETED_NAME in note for note in notes)
    page = Client().get(t.get_absolute_url()).content.decode()
    assert DELETED_NAME in page and "alice" not in page
    # The others play on to a champion.
    better_seed_wins(t)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED and t.champion_id != world.alice.pk
    # Upcoming: simply no longer entered.
    assert list(world.upcoming.entrants.values_list("user__username", flat=True)) == ["bob"]


def test_deleting_twice_changes_nothing_more(world):
    account_delete(user_id=world.alice.pk)
    alice = get_user_model().objects.get(pk=world.alice.pk)
    snapshot = (alice.username, rating_rows(), ratings(), list(Notice.objects.values_list("text", flat=True)),
                list(PlayerGame.objects.values_list("opponent_name", flat=True)))
    account_delete(user_id=world.alice.pk)
    alice.refresh_from_db()
    assert snapshot == (alice.username, rating_rows(), ratings(),
                        list(Notice.objects.values_list("text", flat=True)),
                        list(PlayerGame.objects.values_list("opponent_name", flat=True)))


def test_the_notices_name_a_deleted_player_without_being_rewritten(db):
    """Notices hold ids, not names: deleting an account changes no notice's row, and each reads
    "a deleted player" where the name was; an announcement (the director's own words) is kept."""
    al, bo = make_user("al"), make_user("bo")
    t = make_tournament([bo], name="Al's cup")
    tournament_services.entrant_add(tournament_id=t.pk, user=al)
    Notice.objects.create(tournament=t, kind=Notice.Kind.ANNOUNCEMENT, text="The final is at six.")
    rows = list(Notice.objects.filter(tournament=t).values())
    account_delete(user_id=al.pk)
    assert list(Notice.objects.filter(tournament=t).values()) == rows
    words = {n.words for n in notice_words.in_words(Notice.objects.filter(tournament=t))}
    assert words == {f"{DELETED_NAME} was entered by the organiser.", "The final is at six."}


def test_at_a_table_of_four_the_partner_and_the_opponents_lines_name_a_deleted_player(alice, bob, carol):
    """Alice's partner carol and opponent bob keep rows that name her; both lines change."""
    seats = [{"kind": "open"}, {"kind": "invite", "user": carol}, {"kind": "computer", "level": "easy"}]
    game = finish_table(alice, seats, rules=HouseRules(players=4, target=61), seed=4,
                        accept=((bob, 1), (carol, 2)))
    assert PlayerGame.objects.get(game=game, user=carol).partner_name == "alice"
    account_delete(user_id=alice.pk)
    assert PlayerGame.objects.get(game=game, user=carol).partner_name == DELETED_NAME
    assert PlayerGame.objects.get(game=game, user=bob).opponent_name == f"{DELETED_NAME} & carol"
    page = logged_in(carol).get(reverse("player_stats", args=["carol"])).content.decode()
    assert DELETED_NAME in page and "alice" not in page


def test_no_one_can_sign_up_under_a_deleted_players_handle(world):
    account_delete(user_id=world.alice.pk)
    handle = get_user_model().objects.get(pk=world.alice.pk).username
    form = SignupForm({"username": handle, "password1": PASSWORD, "password2": PASSWORD})
    assert not form.is_valid() and "username" in form.errors


def test_an_upcoming_entry_withdrawn_already_is_removed_too(alice, bob):
    t = make_tournament([alice, bob])
    tournament_services.entrant_withdraw(entrant_id=Entrant.objects.get(tournament=t, user=alice).pk)
    account_delete(user_id=alice.pk)
    assert not Entrant.objects.filter(user=alice).exists()
    assert list(t.entrants.values_list("user__username", flat=True)) == ["bob"]
