"""One daphne worker of ``bench_live``, counting its database queries.

Run as ``python -m benchmarks.management.commands._bench_worker <daphne arguments>``. Before
daphne starts it hooks every database connection the process opens (``connection_created``)
with an execute wrapper that counts statements in a Prometheus counter; with
``PROMETHEUS_MULTIPROC_DIR`` set (the benchmark sets it) the app's ``/metrics`` of any worker
serves the sum over all of them, next to the app's own counters (the run's own Redis keys
come with ``FEED_PREFIX`` in its environment). Otherwise the worker serves
``casino.asgi:application`` exactly as in production.
"""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
django.setup()

from daphne.cli import CommandLineInterface  # noqa: E402
from django.db.backends.signals import connection_created  # noqa: E402
from prometheus_client import Counter  # noqa: E402

QUERIES = Counter("bench_db_queries_total", "SQL statements sent by this worker (bench_live)")


def _count(execute, sql, params, many, context):
    QUERIES.inc()
    return execute(sql, params, many, context)


def _hook(sender, connection, **kwargs):
    if _count not in connection.execute_wrappers:
        connection.execute_wrappers.append(_count)


connection_created.connect(_hook)


def _profiled(path: str):
    """cProfile (CPU time) every thread of the worker (the event loop, the database threads);
    returns what writes the merged statistics to ``path`` (when daphne stops)."""
    import cProfile
    import pstats
    import threading
    import time

    profiles = []

    def start(*args):
        profile = cProfile.Profile(time.thread_time)  # CPU, not waiting
        profiles.append(profile)
        profile.enable()  # replaces this hook in this thread

    def dump():
        for profile in profiles:
            profile.disable()
        pstats.Stats(*profiles).dump_stats(path)

    threading.setprofile(start)
    start()
    return dump


if __name__ == "__main__":
    dump = None
    if os.environ.get("BENCH_PROFILE"):
        dump = _profiled(f"{os.environ['BENCH_PROFILE']}.{os.getpid()}")
    CommandLineInterface.entrypoint()
    if dump is not None:
        dump()
