from django.urls import path

import floor.converters  # noqa: F401  (registers <id:...>, the bounded record id)
from staff import views

app_name = "staff"
urlpatterns = [
    path("login/", views.login_view, name="login"),
    path("pin/", views.pin_login_view, name="pin_login"),
    path("logout/", views.logout_view, name="logout"),
    path("language/", views.language_view, name="language"),
    path("home/", views.home, name="home"),
    path("lockouts/", views.lockouts_view, name="lockouts"),
    path("lockouts/<id:user_id>/unlock/", views.unlock_view, name="unlock"),
    path("lockouts/sources/<id:attempt_id>/lift/", views.source_lift_view, name="source_lift"),
    path(
        "tables/<id:table_id>/replacement/",
        views.replacement_request_view,
        name="replacement_request",
    ),
    path("replacements/", views.replacements_view, name="replacements"),
    path("replacements/decide/", views.replacement_decide_view, name="replacement_decide"),
]
