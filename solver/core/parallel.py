"""Run independent jobs in worker processes, surviving a worker that dies.

A worker process that crashes (a segfault in a native solver, the out-of-memory killer)
breaks a ``ProcessPoolExecutor`` for every job still in it. Those jobs are run again in a
fresh pool, one at a time, so the one that brings its worker down is found and reported
as failed, and the others still finish.
"""

from __future__ import annotations

import os
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from collections import deque
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Sequence

if TYPE_CHECKING:
    from .limits import Deadline


class WorkerCrash(Exception):
    """A job whose worker process died while running it."""


def usable_cores() -> int:
    """How many processors this process may run on (its affinity, else the machine's count)."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except (AttributeError, OSError):
        return max(os.cpu_count() or 1, 1)


def worker_count(jobs: int, work: int | None = None) -> int:
    """The worker processes worth starting for ``jobs`` asked and ``work`` items (None: not
    known yet, a stream): never more than the items, nor than the cores. More would each
    fork and build their own solvers for nothing, and on a busy machine their start alone
    outlasted a time limit (``--jobs 256 --time-limit 2`` took 8.7 s)."""
    limit = usable_cores() if work is None else min(usable_cores(), work)
    return max(min(jobs, limit), 1)


def _start_worker(initializer: Callable[..., None] | None, initargs: tuple) -> None:
    """Workers leave Ctrl-C to the parent and die with it; then run the caller's initializer."""
    from .signals import prepare_worker

    prepare_worker()
    if initializer is not None:
        initializer(*initargs)


def run_jobs(
    function: Callable[[Any], Any],
    items: Sequence[Any],
    jobs: int,
    initializer: Callable[..., None] | None = None,
    initargs: tuple = (),
) -> Iterator[tuple[int, Any]]:
    """Yield ``(index, function(items[index]))`` as jobs finish, in any order.

    With ``jobs <= 1`` everything runs here, in order. A job whose worker died, or whose
    function raised in a worker (a native solver can raise when Ctrl-C reaches the whole
    process group), yields a :class:`WorkerCrash` as its result. When the caller stops
    (Ctrl-C, SIGTERM, or it stops iterating), the workers are terminated before the
    exception goes on; they also die by themselves if this process is killed outright.
    """
    if jobs <= 1:
        if initializer is not None:
            initializer(*initargs)
        for index, item in enumerate(items):
            yield index, function(item)
        return
    pending = list(range(len(items)))
    isolate = False  # after a crash, run the suspects one per pool to find the culprit
    while pending:
        width = 1 if isolate else jobs
        batch = pending[:1] if isolate else pending
        executor = ProcessPoolExecutor(
            max_workers=min(width, len(batch)), initializer=_start_worker, initargs=(initializer, initargs)
        )
        futures: dict[Future, int] = {}
        done_here: set[int] = set()
        try:
            futures = {executor.submit(function, items[i]): i for i in batch}
            remaining = set(futures)
            while remaining:
                finished, remaining = wait(remaining, return_when=FIRST_COMPLETED)
                for future in finished:
                    index = futures[future]
                    try:
                        result = future.result()
                    except BrokenProcessPool:
                        continue
                    except Exception as error:  # raised inside the worker: that job failed
                        result = WorkerCrash(f"the job failed in its worker: {error}")
                    done_here.add(index)
                    yield index, result
        except BaseException:
            workers = list((getattr(executor, "_processes", None) or {}).values())
            executor.shutdown(wait=False, cancel_futures=True)
            for process in workers:
                process.terminate()
            raise
        executor.shutdown(wait=True, cancel_futures=True)
        crashed = [i for i in batch if i not in done_here]
        if isolate and crashed:
            yield crashed[0], WorkerCrash("the worker process died while running this job")
            done_here.add(crashed[0])
        pending = [i for i in pending if i not in done_here]
        isolate = bool(crashed) or isolate
        if isolate and not crashed:
            isolate = False  # the culprit is found; the rest may share pools again


def run_ordered(
    function: Callable[[Any], Any],
    items: Iterable[Any],
    jobs: int,
    initializer: Callable[..., None] | None = None,
    initargs: tuple = (),
    here: Callable[[Any], Any] | None = None,
    window: int | None = None,
) -> Iterator[tuple[Any, Any]]:
    """Yield ``(item, function(item))`` for a stream of items, in the items' order, as soon as
    each result and all before it are known.

    At most ``window`` items (default: eight per worker) are in flight, so a stream of any
    length is held a window at a time. ``here(item)``, when given, may answer an item in this
    process (a result other than None: an unreadable item, or any past the time limit) so
    that it is never sent out. A worker that dies, or a function that raises in a worker,
    gives :class:`WorkerCrash` as in :func:`run_jobs` (the items in flight when the pool
    broke are run again through it, the culprit alone). With ``jobs <= 1`` everything runs
    here. When the caller stops, the workers are terminated before the exception goes on.
    """
    if jobs <= 1:
        if initializer is not None:
            initializer(*initargs)
        for item in items:
            answer = here(item) if here is not None else None
            yield item, function(item) if answer is None else answer
        return
    window = window or 8 * jobs
    queue: deque[list] = deque()  # [item, future or None, result]
    executor = _pool(jobs, initializer, initargs)
    try:
        for item in items:
            answer = here(item) if here is not None else None
            if answer is not None:
                queue.append([item, None, answer])
            else:
                queue.append([item, executor.submit(function, item), None])
            in_flight = sum(1 for entry in queue if entry[1] is not None)
            while queue and (in_flight >= window or _settled(queue[0])):
                executor = yield from _yield_head(queue, function, jobs, initializer, initargs, executor)
                in_flight = sum(1 for entry in queue if entry[1] is not None)
        while queue:
            executor = yield from _yield_head(queue, function, jobs, initializer, initargs, executor)
    except BaseException:
        _terminate(executor)
        raise
    executor.shutdown(wait=True, cancel_futures=True)


def _pool(jobs: int, initializer: Callable[..., None] | None, initargs: tuple) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(max_workers=jobs, initializer=_start_worker, initargs=(initializer, initargs))


def _terminate(executor: ProcessPoolExecutor) -> None:
    workers = list((getattr(executor, "_processes", None) or {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    for process in workers:
        process.terminate()


def _settled(entry: list) -> bool:
    return entry[1] is None or entry[1].done()


def _yield_head(queue: deque, function: Callable[[Any], Any], jobs: int, initializer: Callable[..., None] | None,
                initargs: tuple, executor: ProcessPoolExecutor):
    """Yield the first item's result (waiting for it); after a broken pool, every item in
    flight is run again through :func:`run_jobs` and a fresh pool takes the rest."""
    entry = queue[0]
    if entry[1] is not None:
        wait([entry[1]])
        try:
            entry[2] = entry[1].result()
        except BrokenProcessPool:
            _terminate(executor)
            for other in queue:  # what finished before the pool broke is kept
                future = other[1]
                if future is not None and future.done() and not future.cancelled() and future.exception() is None:
                    other[1], other[2] = None, future.result()
            again = [e for e in queue if e[1] is not None]
            for index, result in run_jobs(function, [e[0] for e in again], jobs, initializer, initargs):
                again[index][1], again[index][2] = None, result
            executor = _pool(jobs, initializer, initargs)
        except Exception as error:  # raised inside the worker: that item failed
            entry[2] = WorkerCrash(f"the job failed in its worker: {error}")
        entry[1] = None
    queue.popleft()
    yield entry[0], entry[2]
    return executor


def run_killable(function: Callable[..., Any], args: tuple, deadline: "Deadline | None" = None) -> Any:
    """``function(*args)`` in a forked child process that is killed when ``deadline`` passes
    (``TimeUp``) or a stop signal comes (it is raised here).

    For one long native call that cannot be interrupted from inside (a proof checker, say):
    the child inherits the arguments through the fork, so only the result, which must be
    picklable, crosses a pipe. A child that dies or raises makes :class:`WorkerCrash`.
    """
    import multiprocessing

    from .limits import TimeUp
    from .signals import raise_if_stopped

    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_run_and_send, args=(function, args, send), daemon=True)
    child.start()
    send.close()
    try:
        while not receive.poll(0.05):
            raise_if_stopped()
            if deadline is not None and deadline.expired():
                raise TimeUp("the time limit came first")
            if not child.is_alive() and not receive.poll(0):
                raise WorkerCrash(f"the worker process died (exit code {child.exitcode})")
        try:
            ok, value = receive.recv()
        except EOFError:
            raise WorkerCrash("the worker process died before it answered") from None
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receive.close()
    if not ok:
        raise WorkerCrash(value)
    return value


def _run_and_send(function: Callable[..., Any], args: tuple, send: Any) -> None:
    from .signals import prepare_worker

    prepare_worker()
    try:
        result = (True, function(*args))
    except Exception as error:  # reported to the parent as a crash of this job
        result = (False, f"{type(error).__name__}: {error}")
    send.send(result)
    send.close()
