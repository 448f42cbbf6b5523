from django.apps import AppConfig


class BenchmarksConfig(AppConfig):
    """Installed only so that ``manage.py`` finds its commands; it has no models."""

    name = "benchmarks"
    verbose_name = "Benchmarks"
