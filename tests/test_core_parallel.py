"""Worker processes: results come back, and a worker that dies costs only its own job."""

import os

from solver.core.parallel import WorkerCrash, run_jobs


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
