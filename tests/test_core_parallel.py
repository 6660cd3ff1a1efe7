"""Worker processes: results come back, and a worker that dies costs only its own job."""

import os

import pytest

from placesat.core.parallel import WorkerCrash, run_jobs


def square_or_die(n: int) -> int:
    if n == 3:
        os._exit(9)  # the worker process dies, as in a native crash
    return n * n


def test_results_in_process_and_in_workers():
    for jobs in (1, 2):
        assert dict(run_jobs(square_or_die, [0, 1, 2, 4], jobs)) == {0: 0, 1: 1, 2: 4, 3: 16}


def test_a_dying_worker_marks_only_its_job():
    results = dict(run_jobs(square_or_die, [0, 1, 2, 3, 4, 5], 2))
    assert isinstance(results[3], WorkerCrash)
    assert {i: r for i, r in results.items() if i != 3} == {0: 0, 1: 1, 2: 4, 4: 16, 5: 25}


def _sleep_then(value, seconds):
    import time

    time.sleep(seconds)
    return value


def _fail():
    raise ValueError("no such thing")


def test_run_killable_returns_the_childs_answer():
    from placesat.core.parallel import run_killable

    assert run_killable(_sleep_then, ({"answer": 42}, 0.0)) == {"answer": 42}


def test_run_killable_stops_the_child_at_the_deadline():
    import time

    from placesat.core.limits import Deadline, TimeUp
    from placesat.core.parallel import run_killable

    started = time.monotonic()
    with pytest.raises(TimeUp):
        run_killable(_sleep_then, (1, 30.0), Deadline(0.3))
    assert time.monotonic() - started < 10  # killed, not waited for


def test_run_killable_reports_a_child_that_raises():
    from placesat.core.parallel import WorkerCrash, run_killable

    with pytest.raises(WorkerCrash, match="no such thing"):
        run_killable(_fail, ())
