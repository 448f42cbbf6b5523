"""Create one group per role, each carrying its role permission."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

ROLE_PERMISSIONS = {
    "dealing_croupier": "deal_at_table",
    "observing_croupier": "observe_at_table",
    "inspector": "inspect_tables",
    "duty_administrator": "administer_duty",
    "pit_boss": "manage_pit",
}


def create_groups(apps, schema_editor):
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for role, codename in ROLE_PERMISSIONS.items():
        group, _ = Group.objects.get_or_create(name=role)
        group.permissions.add(
            Permission.objects.get(codename=codename, content_type__app_label="staff")
        )


def remove_groups(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name__in=ROLE_PERMISSIONS).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("staff", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_groups, remove_groups)]
