from django.urls import path

from games import views_game, views_lobby, views_rules, views_site

urlpatterns = [
    # Every move, every computer step: first, so that resolving them tries nothing else.
    path("games/<int:game_id>/act/", views_game.act, name="act"),
    path("games/<int:game_id>/computer/", views_game.computer_step, name="computer_step"),
    path("", views_site.home, name="home"),
    path("health/", views_site.health, name="health"),
    path("rules/", views_rules.how_to_play, name="how_to_play"),
    path("dev/board-demo/", views_site.board_demo, name="board_demo"),  # 404 unless DEBUG
    path("lobby/", views_lobby.lobby, name="lobby"),
    path("games/new/computer/", views_lobby.new_computer_game, name="new_computer_game"),
    path("games/new/seek/", views_lobby.new_seek, name="new_seek"),
    path("games/new/table/", views_lobby.new_table, name="new_table"),
    path("games/<int:game_id>/accept/", views_lobby.accept, name="accept"),
    path("games/<int:game_id>/withdraw/", views_lobby.withdraw, name="withdraw"),
    path("games/<int:game_id>/leave/", views_lobby.leave, name="leave"),
    path("games/<int:game_id>/rematch/", views_lobby.rematch, name="rematch"),
    path("invite/<str:token>/", views_lobby.invitation, name="invitation"),
    path("games/<int:game_id>/", views_game.game_page, name="game"),
    path("games/<int:game_id>/claim/", views_game.claim_win, name="claim_win"),
    path("games/<int:game_id>/abort/", views_game.abort, name="abort"),
    path("games/<int:game_id>/timeout/", views_game.timeout, name="timeout"),
    path("games/<int:game_id>/presence/", views_game.presence_fragment, name="presence"),
    path("games/<int:game_id>/say/", views_game.say, name="say"),
]
