from django.urls import path

import floor.converters  # noqa: F401  (registers <id:...>, the bounded record id)
from game.configuration import views as config_views
from game.dealers import views as dealer_views
from game.players import views as player_views
from game.replay import views as replay_views
from game.screens import views

app_name = "game"
urlpatterns = [
    path("dealer/", views.dealer_home, name="dealer_home"),
    path("observer/", views.observer_home, name="observer_home"),
    path("inspector/", views.inspector_home, name="inspector_home"),
    path("pit/", views.pit_overview, name="pit_overview"),
    path("tables/<id:table_id>/dealer/", views.dealer, name="dealer"),
    path("tables/<id:table_id>/watch/", views.observer, name="observer"),
    path("tables/<id:table_id>/config/", config_views.table_config, name="table_config"),
    path(
        "tables/<id:table_id>/config/rules/",
        config_views.table_config_rules,
        name="table_config_rules",
    ),
    path("players/", player_views.players, name="players"),
    path("players/<str:card>/", player_views.player, name="player"),
    path("rounds/", replay_views.replay_search, name="replay_search"),
    path("rounds/<id:round_id>/", replay_views.replay, name="replay"),
    path("dealers/", dealer_views.dealers, name="dealers"),
    path("dealers/export/", dealer_views.dealers_export, name="dealers_export"),
]
