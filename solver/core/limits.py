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


class TimeLimit(float):
    """A time limit in seconds that counts from when it was given, not from when it is used.

    The command line hands every query its ``--time-limit`` as one of these, made when the
    options are read: reading a 16 MB position or building a model then comes out of the same
    seconds as the search (a plain float would start the clock only inside the query). It is a
    float in every other way. Sent to a worker process it travels as the seconds left then.
    """

    started: float

    def __new__(cls, seconds: float) -> "TimeLimit":
        limit = super().__new__(cls, seconds)
        limit.started = time.monotonic()
        return limit

    def left(self) -> float:
        """Seconds left of this limit now, never below zero."""
        return max(self.started + float(self) - time.monotonic(), 0.0)

    def __reduce__(self):
        # another process (or machine) has its own clock: it gets the seconds left, as a float
        return (float, (self.left(),))


class Deadline:
    """The end of a time limit shared by everything one command does (None: no limit).

    Solver calls take :meth:`remaining` as their own limit; encoders call :meth:`check`
    in their outer loops, so building a model the limit cannot afford stops too.
    """

    def __init__(self, seconds: float | None = None) -> None:
        check_time_limit(seconds)
        self.seconds = seconds
        if seconds is None:
            self.end = None
        elif isinstance(seconds, TimeLimit):
            self.end = seconds.started + float(seconds)
        else:
            self.end = time.monotonic() + seconds

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
        :func:`placesat.core.signals.raise_if_stopped`)."""
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
