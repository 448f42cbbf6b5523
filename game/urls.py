from django.urls import path

from game import views

app_name = "game"
urlpatterns = [
    path("dealer/", views.dealer_home, name="dealer_home"),
    path("observer/", views.observer_home, name="observer_home"),
    path("inspector/", views.inspector_home, name="inspector_home"),
    path("tables/<int:table_id>/dealer/", views.dealer, name="dealer"),
    path("tables/<int:table_id>/watch/", views.observer, name="observer"),
]
