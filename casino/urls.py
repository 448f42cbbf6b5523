from django.contrib import admin
from django.urls import include, path

from staff import views as staff_views

urlpatterns = [
    path("", staff_views.home, name="root"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("staff/", include("staff.urls")),
    path("tables/", include("tables.urls")),
    path("game/", include("game.urls")),
    path("cash/", include("cashdesk.urls")),
    path("", include("floor.urls")),
]

handler403 = "staff.views.error_403"
handler404 = "staff.views.error_404"
handler500 = "staff.views.error_500"
