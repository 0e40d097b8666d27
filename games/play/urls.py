from django.urls import path

import games.play.converters  # noqa: F401  registers <id:...>, the one converter for ids
from games.play.views import game, lobby, pass_play, spectate

urlpatterns = [
    # Every move, every computer step: first, so that resolving them tries nothing else.
    path("games/<id:game_id>/act/", game.act, name="act"),
    path("games/<id:game_id>/computer/", game.computer_step, name="computer_step"),
    path("lobby/", lobby.lobby, name="lobby"),
    path("games/new/computer/", lobby.new_computer_game, name="new_computer_game"),
    path("games/new/seek/", lobby.new_seek, name="new_seek"),
    path("games/new/table/", lobby.new_table, name="new_table"),
    path("games/new/pass-and-play/", pass_play.new_pass_play, name="new_pass_play"),
    path("games/<id:game_id>/show-hand/", pass_play.show_hand, name="show_hand"),
    path("games/<id:game_id>/accept/", lobby.accept, name="accept"),
    path("games/<id:game_id>/withdraw/", lobby.withdraw, name="withdraw"),
    path("games/<id:game_id>/leave/", lobby.leave, name="leave"),
    path("games/<id:game_id>/rematch/", lobby.rematch, name="rematch"),
    path("invite/<str:token>/", lobby.invitation, name="invitation"),
    path("games/<id:game_id>/", game.game_page, name="game"),
    path("games/<id:game_id>/watch/", spectate.watch, name="watch_game"),
    path("games/<id:game_id>/claim/", game.claim_win, name="claim_win"),
    path("games/<id:game_id>/abort/", game.abort, name="abort"),
    path("games/<id:game_id>/timeout/", game.timeout, name="timeout"),
    path("games/<id:game_id>/presence/", game.presence_fragment, name="presence"),
    path("games/<id:game_id>/say/", game.say, name="say"),
]
