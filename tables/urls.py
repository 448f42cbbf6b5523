from django.urls import path

from tables import views

app_name = "tables"
urlpatterns = [
    path("pit/", views.pit_home, name="pit_home"),
]
