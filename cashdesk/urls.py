from django.urls import path

from cashdesk import views

app_name = "cashdesk"
urlpatterns = [
    path("duty/", views.duty_home, name="duty_home"),
]
