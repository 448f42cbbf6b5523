"""The admin configures tables through the same service: closed only, every change kept."""

from django.urls import reverse

from tables.models import Table, TableChange


def _form(table, **changes):
    data = {
        "pit": table.pit_id,
        "number": table.number,
        "name": table.name,
        "boxes": table.boxes,
        "min_bet": "10",
        "max_bet": "500",
        "rules": '{"preset": "standard"}',
        "card_entry": "manual",
        "reservation_minutes": 20,
        "chip_denominations": "[]",
        "par_float": "{}",
    }
    data.update(changes)
    return data


def test_admin_change_on_a_closed_table_is_kept(client, table, django_user_model):
    admin = django_user_model.objects.create_superuser("root", "r@example.invalid", "pw")
    table.status = "closed"
    table.save()
    client.force_login(admin)
    url = reverse("admin:tables_table_change", args=[table.pk])
    response = client.post(url, _form(table, min_bet="20"))
    assert response.status_code == 302
    change = TableChange.objects.get(table=table)
    assert change.changed_by == admin and "min_bet" in change.changes


def test_admin_cannot_change_an_open_table_or_bad_rules(client, table, django_user_model):
    admin = django_user_model.objects.create_superuser("root", "r@example.invalid", "pw")
    client.force_login(admin)
    url = reverse("admin:tables_table_change", args=[table.pk])
    assert client.post(url, _form(table, min_bet="20")).status_code == 200
    table.status = "closed"
    table.save()
    page = client.post(url, _form(table, rules='{"decks": 0}')).content.decode()
    assert "decks must be a whole number" in page
    assert Table.objects.get(pk=table.pk).min_bet == 10
    assert not TableChange.objects.exists()
