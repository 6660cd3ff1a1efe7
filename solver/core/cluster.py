"""Run a stream of independent jobs on a Dask cluster, in chunks, results in input order.

The worker pool of :mod:`placesat.core.parallel` stops at one machine. Here the same kind of
work (a pure function over a stream of items) goes to a Dask ``distributed`` scheduler and
its workers, on as many machines as they run on: ``tcp://HOST:8786`` for a running
scheduler (``dask scheduler`` and ``dask worker`` start them), or ``local:N`` for a
LocalCluster of N worker processes here. Dask is an optional extra
(``pip install 'placesat[cluster]'``); nothing here imports it until a cluster is asked for.

Items go out in chunks (one task per chunk: a task costs the scheduler about a millisecond,
a 9x9 verdict a few), with a bounded number of chunks in flight, so a stream of any length
never becomes a million futures. A chunk is a pure function of its items, so when a worker
dies and Dask runs its chunk again elsewhere, the answer is the same and the parent still
takes each result once, in order.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any, Callable, Iterable, Iterator

from .errors import InputError

EXTRA = "placesat[cluster]"
CONNECT_SECONDS = 5.0
"""How long to wait for a scheduler to answer (an unreachable one is an error within 10 s)."""


class ClusterError(InputError):
    """A cluster that cannot be used: Dask missing, a scheduler that does not answer, workers
    without placesat or with another version of it."""


def placesat_version() -> str:
    """This installation's version of placesat (what the workers must run too)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("placesat")
    except PackageNotFoundError:
        return "unknown"


def _worker_version() -> str:
    from placesat.core.cluster import placesat_version

    return placesat_version()


class Cluster:
    """A connection to a Dask cluster (a scheduler's address, or ``local:N``)."""

    def __init__(self, address: str) -> None:
        try:
            import distributed  # noqa: F401
        except ImportError:
            raise ClusterError(f"--cluster needs Dask distributed, which is not installed: pip install '{EXTRA}'") from None
        from distributed import Client, LocalCluster

        self.address = address
        self.local = None
        if address.startswith("local:"):
            count = address[len("local:"):]
            if not (count.isascii() and count.isdigit() and 1 <= int(count) <= 256):
                raise ClusterError(f"--cluster {address}: local:N takes N from 1 to 256 worker processes")
            import logging

            logging.getLogger("distributed").setLevel(logging.ERROR)
            self.local = LocalCluster(n_workers=int(count), threads_per_worker=1, processes=True,
                                      dashboard_address=None, silence_logs=logging.ERROR)
            self.client = Client(self.local)
        else:
            try:
                self.client = Client(address, timeout=CONNECT_SECONDS)
            except (OSError, TimeoutError, ValueError) as error:
                raise ClusterError(f"--cluster {address}: no Dask scheduler answers there ({type(error).__name__}: {str(error)[:120]})") from None
        self._check_workers()

    def _check_workers(self) -> None:
        """Every worker must run this version of placesat (another may answer otherwise)."""
        end = time.monotonic() + CONNECT_SECONDS
        while not self.client.scheduler_info().get("workers") and time.monotonic() < end:
            time.sleep(0.1)
        if not self.client.scheduler_info().get("workers"):
            self.close()
            raise ClusterError(f"--cluster {self.address}: the scheduler has no workers")
        try:
            versions = self.client.run(_worker_version)
        except Exception as error:  # a worker that cannot import placesat cannot unpickle the call
            self.close()
            raise ClusterError(f"--cluster {self.address}: a worker cannot run placesat ({type(error).__name__}: {str(error)[:120]})") from None
        ours = placesat_version()
        other = {worker: v for worker, v in versions.items() if v != ours}
        if other:
            self.close()
            worker, theirs = next(iter(other.items()))
            raise ClusterError(f"--cluster {self.address}: worker {worker} runs placesat {theirs}, this is {ours}")

    def workers(self) -> int:
        return max(len(self.client.scheduler_info().get("workers", {})), 1)

    def worker_pids(self) -> dict[str, int]:
        """Each worker's process id (for tests that kill one)."""
        import os

        return self.client.run(os.getpid)

    def close(self) -> None:
        try:
            self.client.close()
        finally:
            if self.local is not None:
                self.local.close()

    def __enter__(self) -> "Cluster":
        return self

    def __exit__(self, *exc: object) -> bool:
        self.close()
        return False

    def run_ordered(
        self,
        function: Callable[[Any], Any],
        items: Iterable[Any],
        chunk: int,
        initializer: Callable[..., None] | None = None,
        initargs: tuple = (),
        here: Callable[[Any], Any] | None = None,
        in_flight: int | None = None,
    ) -> Iterator[tuple[Any, Any]]:
        """Yield ``(item, function(item))`` in the items' order, the work done on the cluster
        in chunks of ``chunk`` items, at most ``in_flight`` chunks at once (default: two per
        worker). ``here`` answers items in this process as in
        :func:`placesat.core.parallel.run_ordered`; a chunk that fails (or whose workers keep
        dying) gives :class:`placesat.core.parallel.WorkerCrash` for each of its items. When
        the caller stops, the chunks still out are cancelled."""
        from .parallel import WorkerCrash

        in_flight = in_flight or 2 * self.workers()
        queue: deque[list] = deque()  # [items, future or None, results]
        batch: list[Any] = []
        answered: list[Any] = []  # per item of the batch: its answer here, or None

        def send() -> None:
            nonlocal batch, answered
            if not batch:
                return
            sent = [item for item, answer in zip(batch, answered) if answer is None]
            future = self.client.submit(run_chunk, function, sent, initializer, initargs, pure=False) if sent else None
            queue.append([batch, future, answered])
            batch, answered = [], []

        def head() -> Iterator[tuple[Any, Any]]:
            items_, future, answers = queue.popleft()
            results: list[Any] = []
            if future is not None:
                try:
                    results = future.result()
                except Exception as error:  # the chunk failed, or killed its workers
                    results = [WorkerCrash(f"the chunk failed on the cluster: {type(error).__name__}: {error}")] * sum(a is None for a in answers)
                future.release()
            out = iter(results)
            for item, answer in zip(items_, answers):
                yield item, next(out) if answer is None else answer

        try:
            for item in items:
                batch.append(item)
                answered.append(here(item) if here is not None else None)
                if len(batch) >= chunk:
                    send()
                while queue and (sum(1 for q in queue if q[1] is not None) >= in_flight or queue[0][1] is None or queue[0][1].done()):
                    yield from head()
            send()
            while queue:
                yield from head()
        except BaseException:
            futures = [q[1] for q in queue if q[1] is not None]
            if futures:
                try:
                    self.client.cancel(futures)
                except Exception:  # the connection may be gone already; the close below ends it
                    pass
            raise


def run_chunk(function: Callable[[Any], Any], items: list[Any], initializer: Callable[..., None] | None, initargs: tuple) -> list[Any]:
    """Run ``function`` over a chunk in a worker (set up by ``initializer`` first): a pure
    function of its arguments, so a chunk run twice gives the same results."""
    if initializer is not None:
        initializer(*initargs)
    return [function(item) for item in items]
