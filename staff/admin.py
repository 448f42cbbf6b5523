from django import forms
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from staff import services as staff_services
from staff.models import TableAssignment, User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    list_display = ("username", "full_name", "employee_number", "is_active", "pin_locked_at")
    search_fields = ("username", "full_name", "employee_number")
    fieldsets = BaseUserAdmin.fieldsets + (
        (
            _("Casino"),
            {
                "fields": (
                    "full_name",
                    "employee_number",
                    "preferred_language",
                    "pin_locked_at",
                )
            },
        ),
    )


class TableAssignmentAddForm(forms.ModelForm):
    """Adding an assignment goes through ``assignment_start``: the same rules as everywhere
    (one holder per table role, a croupier on one table, the role held), and ``starts_at``
    set to now. ``clean`` runs the service inside the admin's transaction."""

    replace = forms.BooleanField(
        label=_("Replace the current holder"),
        required=False,
        help_text=_("End the current holder's assignment (kept in the history)."),
    )

    class Meta:
        model = TableAssignment
        fields = ("table", "user", "role")

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        try:
            self.assignment = staff_services.assignment_start(
                table=cleaned["table"],
                user=cleaned["user"],
                role=cleaned["role"],
                assigned_by=self.assigned_by,
                replace=cleaned.get("replace", False),
            )
        except ValidationError as exc:
            raise forms.ValidationError(exc.messages)
        return cleaned


@admin.register(TableAssignment)
class TableAssignmentAdmin(admin.ModelAdmin):
    list_display = ("table", "role", "user", "starts_at", "ends_at")
    list_filter = ("role", "table")
    readonly_fields = ("starts_at", "ends_at", "assigned_by")

    def get_form(self, request, obj=None, change=False, **kwargs):
        if obj is None:
            kwargs["form"] = TableAssignmentAddForm
            form = super().get_form(request, obj, change=change, **kwargs)
            form.assigned_by = request.user
            return form
        return super().get_form(request, obj, change=change, **kwargs)

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return ()
        return ("table", "user", "role", *self.readonly_fields)

    def get_fields(self, request, obj=None):
        if obj is None:
            return ("table", "user", "role", "replace")
        return super().get_fields(request, obj)

    def save_form(self, request, form, change):
        if change:
            return super().save_form(request, form, change)
        return form.assignment  # already saved by the service in form.clean()

    def save_model(self, request, obj, form, change):
        if change:
            super().save_model(request, obj, form, change)

    def save_related(self, request, form, formsets, change):
        if change:
            super().save_related(request, form, formsets, change)

    def has_delete_permission(self, request, obj=None):
        return False  # history is kept
