"""Operations endpoints: ``/healthz`` and ``/metrics``, for the intranet's machines only.

Both answer only to clients whose address is inside ``OPS_ALLOWED_NETWORKS`` (by default
loopback and the private ranges); anyone else gets 404, as if they did not exist. The proxy
does not forward ``/metrics`` at all (docs/operations.md).
"""

from __future__ import annotations

import asyncio
import ipaddress
import os
import time

import redis.asyncio
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection
from django.http import Http404, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.templatetags.static import static


def _allowed(request) -> bool:
    try:
        address = ipaddress.ip_address((request.META.get("REMOTE_ADDR") or "").split("%")[0])
    except ValueError:
        return False
    return any(address in ipaddress.ip_network(net) for net in settings.OPS_ALLOWED_NETWORKS)


def _database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


async def _feed_bus() -> None:
    """The live feed's Redis answers (with several workers the screens need it); one process
    without Redis has nothing to reach."""
    if not settings.REDIS_URL:
        return
    client = redis.asyncio.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2)
    try:
        await asyncio.wait_for(client.ping(), timeout=2)
    finally:
        await client.aclose()


def favicon(request):
    """Browsers ask for /favicon.ico on their own: the app's icon is a static SVG (its
    hashed name in production, so the address is asked of the storage per request)."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))


async def healthz(request):
    """200 when a database query and the live feed's Redis both answer, else 503."""
    if not _allowed(request):
        raise Http404
    checks = {}
    started = time.perf_counter()
    for name, check in (
        ("database", sync_to_async(_database, thread_sensitive=False)),
        ("feed", _feed_bus),
    ):
        try:
            await check()
            checks[name] = "ok"
        except Exception as error:  # noqa: BLE001 - any failure is the answer
            checks[name] = f"failed: {type(error).__name__}"
    healthy = all(v == "ok" for v in checks.values())
    checks["ms"] = round((time.perf_counter() - started) * 1000, 1)
    return JsonResponse(checks, status=200 if healthy else 503)


def metrics(request):
    """The Prometheus exposition of this process (of every worker with
    ``PROMETHEUS_MULTIPROC_DIR``)."""
    if not _allowed(request):
        raise Http404
    from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest

    registry = REGISTRY
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    return HttpResponse(generate_latest(registry), content_type=CONTENT_TYPE_LATEST)
