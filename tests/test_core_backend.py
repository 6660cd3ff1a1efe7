"""The python-sat backend's slices: by the clock for answers, by conflicts alone where a model must follow from a seed."""

import random

import placesat.core.backend as backend


class _Slices:
    """A stand-in for a python-sat solver that gives up on its first ``unknown`` slices and
    records the conflict budget of every slice."""

    def __init__(self, unknown: int) -> None:
        self.unknown = unknown
        self.budgets: list[int] = []

    def conf_budget(self, budget: int) -> None:
        self.budgets.append(budget)

    def solve_limited(self, assumptions: list[int]) -> bool | None:
        return None if len(self.budgets) <= self.unknown else True


def _budgets(monkeypatch, seconds_a_slice: float, by_clock: bool) -> list[int]:
    clock = iter(range(0, 1000))
    monkeypatch.setattr(backend.time, "monotonic", lambda: next(clock) * seconds_a_slice)
    solver = _Slices(unknown=4)
    assert backend.solve_in_slices(solver, [], None, by_clock=by_clock)[0] is True
    return solver.budgets


def test_slices_grow_while_they_are_short_and_not_when_long(monkeypatch):
    first = backend.FIRST_SLICE_CONFLICTS
    assert _budgets(monkeypatch, 0.0, True) == [first, 2 * first, 4 * first, 8 * first, 16 * first]
    assert _budgets(monkeypatch, 1.0, True) == [first] * 5


def test_without_the_clock_every_machine_gets_the_same_slices(monkeypatch):
    fast = _budgets(monkeypatch, 0.0, False)
    slow = _budgets(monkeypatch, 1.0, False)
    assert fast == slow == [backend.FIRST_SLICE_CONFLICTS] * 5


def test_a_random_draw_is_the_same_however_long_its_slices_take(monkeypatch):
    # a 12x12 draw with this seed takes several slices; with the clock's schedule, a machine on
    # which slices took under SLICE_SECONDS (budgets doubling) drew another solution than one
    # on which they took longer, so the same seed gave another puzzle
    from placesat.lixso.deduce import deducer_for
    from placesat.lixso.generate import random_solution

    template = deducer_for(12, 12).template
    drawn = []
    for seconds in (0.0, 1e9):  # every slice slow, then every slice fast
        monkeypatch.setattr(backend, "SLICE_SECONDS", seconds)
        drawn.append(random_solution(template, random.Random("det:2")))
    assert drawn[0] == drawn[1]


def test_maximize_finds_the_optimum_brute_force_finds():
    """The climb's counter is cut at what the first model leaves to gain (issue 41): on random
    small formulas with weights of both signs, its optimum is the best over every assignment."""
    import itertools

    rng = random.Random(5)
    for _ in range(40):
        variables = rng.randint(3, 8)
        formula = backend.Formula()
        formula.new_vars(variables)
        for _ in range(rng.randint(1, 10)):
            formula.add_clause([rng.choice([1, -1]) * rng.randint(1, variables) for _ in range(rng.randint(1, 3))])
        objective = [(rng.choice([1, -1]) * rng.randint(1, variables), rng.choice([-2, -1, 1, 2, 3])) for _ in range(rng.randint(1, 6))]
        best = None
        for values in itertools.product([False, True], repeat=variables):
            def holds(lit: int) -> bool:
                return values[abs(lit) - 1] == (lit > 0)
            if all(any(holds(lit) for lit in clause) for clause in formula.clauses):
                score = sum(weight for lit, weight in objective if holds(lit))
                best = score if best is None else max(best, score)
        solver = backend.SatBackend(formula)
        result = solver.maximize(objective)
        if best is None:
            assert result.status is backend.Status.UNSAT
        else:
            assert result.status is backend.Status.SAT and result.objective == best
            assert sum(weight for lit, weight in objective if result.value(lit)) == best
