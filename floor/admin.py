from django.contrib import admin

from floor.models import Alert


class ReadOnlyAdmin(admin.ModelAdmin):
    """History: kept, never edited here."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Alert)
class AlertAdmin(ReadOnlyAdmin):
    list_display = ("table", "kind", "severity", "created_at", "acknowledged_at")
    list_filter = ("kind", "severity")
