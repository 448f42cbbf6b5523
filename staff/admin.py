from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.utils.translation import gettext_lazy as _

from staff.models import TableAssignment, User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    list_display = ("username", "full_name", "employee_number", "is_active", "pin_locked_at")
    search_fields = ("username", "full_name", "employee_number")
    fieldsets = BaseUserAdmin.fieldsets + (
        (_("Casino"), {"fields": ("full_name", "employee_number", "preferred_language",
                                  "pin_failures", "pin_locked_at")}),
    )


@admin.register(TableAssignment)
class TableAssignmentAdmin(admin.ModelAdmin):
    list_display = ("table", "role", "user", "starts_at", "ends_at")
    list_filter = ("role", "table")
    readonly_fields = ("starts_at", "ends_at", "assigned_by")

    def has_delete_permission(self, request, obj=None):
        return False  # history is kept
