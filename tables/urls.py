from django.urls import path

from tables import views

app_name = "tables"
urlpatterns = [
    path("pit/", views.pit_home, name="pit_home"),
    path("staff/", views.staff_board, name="staff_board"),
    path("alerts/", views.alerts, name="alerts"),
    path("alerts/acknowledge/", views.alert_acknowledge, name="alert_acknowledge"),
    path("<int:table_id>/", views.table_detail, name="table"),
]
