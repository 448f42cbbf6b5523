from django.urls import path

from floor import views

app_name = "floor"

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("metrics", views.metrics, name="metrics"),
    # Browsers ask for /favicon.ico on their own: the app's icon is a static SVG.
    path("favicon.ico", views.favicon, name="favicon"),
]
