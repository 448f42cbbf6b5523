from django.urls import path

import floor.converters  # noqa: F401  (registers <id:...>, the bounded record id)
from tables import views

app_name = "tables"
urlpatterns = [
    path("pit/", views.pit_home, name="pit_home"),
    path("staff/", views.staff_board, name="staff_board"),
    path("alerts/", views.alerts, name="alerts"),
    path("alerts/acknowledge/", views.alert_acknowledge, name="alert_acknowledge"),
    path("<id:table_id>/", views.table_detail, name="table"),
]
