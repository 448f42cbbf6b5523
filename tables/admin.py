from django.contrib import admin

from tables.models import Pit, Table


@admin.register(Pit)
class PitAdmin(admin.ModelAdmin):
    list_display = ("name",)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("number", "name", "pit", "boxes", "min_bet", "max_bet", "status", "card_entry")
    list_filter = ("pit", "status")
