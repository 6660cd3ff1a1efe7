"""Time limits that hold for a whole command, model building included."""

from __future__ import annotations

import math
import time

from .signals import raise_if_stopped

MAX_TIME_LIMIT = 10**6
"""The longest time limit accepted, in seconds (about eleven days)."""


class TimeUp(Exception):
    """The time limit came before the answer: the query says 'unknown', never a guess."""


def check_time_limit(seconds: float | None) -> float | None:
    """``seconds`` when it is a usable limit; ``ValueError`` naming the problem otherwise."""
    if seconds is None:
        return None
    if not math.isfinite(seconds):
        raise ValueError(f"must be a finite number of seconds, not {seconds}")
    if seconds < 0:
        raise ValueError(f"must not be negative, not {seconds:g}")
    if seconds > MAX_TIME_LIMIT:
        raise ValueError(f"must be at most {MAX_TIME_LIMIT} seconds, not {seconds:g}")
    return seconds


class Deadline:
    """The end of a time limit shared by everything one command does (None: no limit).

    Solver calls take :meth:`remaining` as their own limit; encoders call :meth:`check`
    in their outer loops, so building a model the limit cannot afford stops too.
    """

    def __init__(self, seconds: float | None = None) -> None:
        check_time_limit(seconds)
        self.seconds = seconds
        self.end = None if seconds is None else time.monotonic() + seconds

    @classmethod
    def never(cls) -> "Deadline":
        """A deadline that never comes."""
        return cls(None)

    def remaining(self) -> float | None:
        """Seconds left, never below zero; None without a limit."""
        return None if self.end is None else max(self.end - time.monotonic(), 0.0)

    def expired(self) -> bool:
        """Whether the time is up."""
        return self.end is not None and time.monotonic() >= self.end

    def check(self) -> None:
        """Raise :class:`TimeUp` when the time is up (and a pending Ctrl-C or SIGTERM, see
        :func:`~solver.core.signals.raise_if_stopped`)."""
        raise_if_stopped()
        if self.expired():
            raise TimeUp("the time limit came first")

    def sooner(self, seconds: float | None) -> "Deadline":
        """A deadline at most ``seconds`` from now and no later than this one."""
        if seconds is None:
            return self
        child = Deadline(None)
        own = self.remaining()
        limit = seconds if own is None else min(seconds, own)
        child.seconds = limit
        child.end = time.monotonic() + limit
        return child


def as_deadline(limit: "Deadline | float | None") -> Deadline:
    """A :class:`Deadline` from a deadline, a number of seconds from now, or None."""
    return limit if isinstance(limit, Deadline) else Deadline(limit)
