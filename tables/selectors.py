"""Read paths for pits and tables."""

from tables.models import Table


def floor_tables():
    return Table.objects.select_related("pit").order_by("number")
