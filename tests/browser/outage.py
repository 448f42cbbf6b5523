"""Outages to test against: a TCP proxy whose connections can be cut (the tablet's network
going down), and a private Redis with daphne workers pointed at it that can be restarted —
never the shared Redis."""

import asyncio
import shutil
import socket
import subprocess
import threading
import time
from functools import partial

from channels.testing.live import make_application
from daphne.testing import DaphneProcess
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.db import connections

from tests.browser.conftest import _serve_test_database
from tests.conftest import require_service

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


class CuttableProxy:
    """Forwards TCP to ``target`` (host, port) until :meth:`cut`: then every connection is
    dropped and new ones are refused, as a network that went down; :meth:`restore` lets
    them through again."""

    def __init__(self, target: tuple[str, int]):
        self.target = target
        self.port = free_port()
        self.down = False
        self.writers: set = set()
        self.loop = asyncio.new_event_loop()
        started = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(started,), daemon=True)
        self.thread.start()
        started.wait(5)

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def _run(self, started) -> None:
        asyncio.set_event_loop(self.loop)
        self.server = self.loop.run_until_complete(
            asyncio.start_server(self._connection, HOST, self.port)
        )
        started.set()
        self.loop.run_forever()

    async def _connection(self, reader, writer) -> None:
        if self.down:
            writer.close()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        self.writers |= {writer, up_writer}
        await asyncio.gather(self._pump(reader, up_writer), self._pump(up_reader, writer))

    async def _pump(self, reader, writer) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except (OSError, asyncio.CancelledError):
            pass
        finally:
            self.writers.discard(writer)
            writer.close()

    def cut(self) -> None:
        def drop():
            self.down = True
            for writer in list(self.writers):
                writer.transport.abort()  # a reset, as a dead link: no close frame
            self.writers.clear()

        self.loop.call_soon_threadsafe(drop)

    def restore(self) -> None:
        self.loop.call_soon_threadsafe(setattr, self, "down", False)

    def close(self) -> None:
        self.cut()

        async def stop():
            self.server.close()
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            self.loop.stop()

        self.loop.call_soon_threadsafe(lambda: self.loop.create_task(stop()))
        self.thread.join(5)


class PrivateRedis:
    """A redis-server of the test's own, on a free port, that the test may stop and start."""

    def __init__(self):
        self.binary = shutil.which("redis-server")
        if self.binary is None:
            require_service("redis-server is not installed (apt-get install redis-server)")
        self.port = free_port()
        self.process = None
        self.start()

    @property
    def url(self) -> str:
        return f"redis://{HOST}:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(  # noqa: S603 - our own server, our own arguments
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                HOST,
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection((HOST, self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the private redis-server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()  # as a crash: no goodbye to the clients
            self.process.wait(10)
            self.process = None


def _serve_with_redis(db_name: str, redis_url: str, prefix: str) -> None:
    """Runs in a private daphne before it serves: the test database, the private Redis."""
    from channels.layers import channel_layers as layers
    from django.conf import settings

    from casino.settings import channel_layers

    _serve_test_database(db_name)
    settings.REDIS_URL = redis_url
    settings.FEED_PREFIX = prefix
    settings.CHANNEL_LAYERS = channel_layers(redis_url, prefix)
    layers.backends.clear()  # the parent's layer is not this worker's


def start_daphne(db_name: str, redis_url: str, prefix: str) -> tuple[DaphneProcess, str]:
    """A live daphne on the test database whose feed goes through ``redis_url``."""
    connections.close_all()  # a forked child must not share the parent's database sockets
    process = DaphneProcess(
        host=HOST,
        get_application=partial(make_application, static_wrapper=ASGIStaticFilesHandler),
        setup=partial(_serve_with_redis, db_name, redis_url, prefix),
    )
    process.daemon = True
    process.start()
    if not process.ready.wait(timeout=20):
        process.terminate()
        raise RuntimeError("the private daphne did not start")
    return process, f"http://{HOST}:{process.port.value}"
