"""A column header names what the column holds, in Russian too: the slips' and the
replacement requests' "requested" columns hold who and when, so they read as nouns
(«Запрос», «Выдача», «Получение»), not as a status («Запрошен»)."""

import re

from django.urls import reverse


def _headers(response) -> list[str]:
    assert response.status_code == 200
    return [
        re.sub(r"<[^>]+>", "", h).strip()
        for h in re.findall(r"<th[^>]*>(.*?)</th>", response.content.decode())
    ]


def test_the_slips_columns_read_as_headers_in_russian(client, crew, table):
    client.force_login(crew["duty"])
    page = client.get(reverse("cashdesk:table", args=[table.pk]), HTTP_ACCEPT_LANGUAGE="ru")
    headers = _headers(page)
    assert ["Запрос", "Выдача", "Получение", "Аннулирование"] == headers[
        headers.index("Запрос") : headers.index("Запрос") + 4
    ]
    assert "Запрошен" not in headers


def test_the_replacement_history_first_column_reads_as_a_header_in_russian(client, crew):
    client.force_login(crew["duty"])
    headers = _headers(client.get(reverse("staff:replacements"), HTTP_ACCEPT_LANGUAGE="ru"))
    assert headers[0] == "Запрос"
    assert "Запрошен" not in headers
