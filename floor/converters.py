"""The path converter of record ids: ``<id:table_id>`` in every URL.

Django's ``<int:...>`` takes any number of digits; a path id beyond any database id
(2⁶³ − 1) or zero is then a query the database cannot answer. ``<id:...>`` matches 1 to 19
ASCII digits and only values from 1 to 2⁶³ − 1 (``floor.parsing.record_id``); anything else
does not match, so the answer is 404 before any view or query runs.
"""

from django.urls import register_converter

from floor.parsing import record_id


class RecordIdConverter:
    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = record_id(value)
        if number is None:
            raise ValueError(value)  # no match: 404
        return number

    def to_url(self, value) -> str:
        return str(int(value))


register_converter(RecordIdConverter, "id")
