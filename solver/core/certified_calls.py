"""Certificates for a query whose "no" rests on several SAT calls: one proof per call, one verdict.

A query such as "can any completion score 7?" or "can Black win with 3 more stones?" answers
"no" because one unsatisfiable call said so; a query with many answers (every target of a board,
each player's maximum) rests on several such calls, some made after loop or ring cuts were
added. :class:`CallCertifier` certifies each call *at the moment it is made*, over exactly the
clauses the backend holds then (:func:`placesat.core.certify.certify_call`), keeps every
certificate with the claim it backs, and sums them up for the output: "3 proofs of 12,345 steps
checked by dratify in 0.80 s".

Certifying at once matters: a backend keeps growing (selectors, proved impossibilities added as
unit clauses, further cuts), and a later proof over a bigger clause set may rest on units that
only an earlier proof justifies. A caller that adds such units should add them only once their
own call is certified (:attr:`Certificate.certified`), so every proof rests on proven clauses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from .certify import DEFAULT_CHECKERS, Certificate, certify_call
from .limits import Deadline


class WrongNo(AssertionError):
    """A fresh solver found a model where a call had said there is none: one of the two solvers
    is wrong, and no answer resting on that call may be given (a defect, never bad input)."""


@dataclass
class CertifiedCall:
    """One certified call: ``name`` (a file stem for the certificate), ``claim`` (what its
    unsatisfiability means, in words) and the certificate (its refutation, when a proof was made)."""

    name: str
    claim: str
    certificate: Certificate


@dataclass
class CallCertifier:
    """Certifies the unsatisfiable SAT calls of one query (see the module docstring).

    ``checkers``: the proof checkers that must each accept every proof; ``deadline``: the
    query's time limit (a certificate it cuts short is "not certified", never "rejected").
    """

    checkers: Sequence[str] = DEFAULT_CHECKERS
    deadline: Deadline | None = None
    calls: list[CertifiedCall] = field(default_factory=list)

    def certify(self, backend, assumptions: Sequence[int], name: str, claim: str) -> Certificate:
        """Certify that ``backend``'s call under ``assumptions`` has no model (``claim`` says
        what that means). Raises :class:`WrongNo` when a fresh solver finds a model."""
        if not hasattr(backend, "clause_history"):
            raise ValueError(f"certificates need the SAT backend, not {getattr(backend, 'name', backend)!r}")
        outcome = certify_call(backend, list(assumptions), self.checkers, self.deadline)
        if not isinstance(outcome, Certificate):
            raise WrongNo(f"{claim}: the solver said so, but a fresh solver found a model of the same clauses")
        self.calls.append(CertifiedCall(self._unique(name), claim, outcome))
        return outcome

    def needs_no_proof(self, name: str, claim: str, why: str) -> Certificate:
        """Record a "no" that rests on no solver call (``why``: what settles it instead)."""
        certificate = Certificate(True, why)
        self.calls.append(CertifiedCall(self._unique(name), claim, certificate))
        return certificate

    def _unique(self, name: str) -> str:
        taken = {call.name for call in self.calls}
        if name not in taken:
            return name
        number = 2
        while f"{name}-{number}" in taken:
            number += 1
        return f"{name}-{number}"

    @property
    def proofs(self) -> list[CertifiedCall]:
        """The calls for which a proof was made (accepted or not)."""
        return [call for call in self.calls if call.certificate.refutation is not None]

    @property
    def certified(self) -> bool:
        """Every claim recorded is certified (vacuously true when there is none)."""
        return all(call.certificate.certified for call in self.calls)

    @property
    def rejected(self) -> list[CertifiedCall]:
        """The calls whose proof a checker refused."""
        return [call for call in self.calls if call.certificate.rejected]

    @property
    def steps(self) -> int:
        """Proof steps in all (lines that add a clause)."""
        return sum(call.certificate.steps for call in self.proofs)

    @property
    def seconds(self) -> float:
        """CPU seconds spent proving and checking, in all."""
        return sum(call.certificate.seconds for call in self.calls)

    def checker_name(self) -> str:
        """The checker(s) the proofs were replayed by, as the output names them."""
        return " and ".join(self.checkers)

    def words(self) -> str:
        """The whole verdict in words: ``certified: proof of N steps checked by X in S s``, or
        ``certified: 3 proofs of N steps in all ...``, or ``not certified: why``."""
        failed = [call for call in self.calls if not call.certificate.certified]
        if failed:
            return f"not certified: {failed[0].certificate.reason}"
        proofs = self.proofs
        if not proofs:
            reasons = sorted({call.certificate.checker or "" for call in self.calls})
            return f"certified: {'; '.join(reasons)}" if reasons else "certified: no proof needed"
        if len(proofs) == 1:
            return proofs[0].certificate.words()
        return (f"certified: {len(proofs)} proofs of {self.steps:,} steps in all checked by "
                f"{self.checker_name()} in {self.seconds:.2f} s")

    def to_json(self) -> dict:
        """``certified``, ``checker``, ``proofs``, ``proof_steps``, ``certify_seconds`` (and
        ``certify_error`` when not certified)."""
        record: dict = {
            "certified": self.certified,
            "checker": self.checker_name() if self.proofs else None,
            "proofs": len(self.proofs),
            "proof_steps": self.steps,
            "certify_seconds": round(self.seconds, 6),
        }
        failed = [call for call in self.calls if not call.certificate.certified]
        if failed:
            record["certify_error"] = failed[0].certificate.reason
        return record

    def files(self, header: Sequence[str] = ()) -> list[tuple[str, str]]:
        """Every proof as two files (name, text): ``NAME.cnf`` (DIMACS, its comment lines
        ``header`` and the claim) and ``NAME.drat``, to re-check with any DRAT checker."""
        written = []
        for call in self.proofs:
            refutation = call.certificate.refutation
            assert refutation is not None
            comments = [*header, f"unsatisfiable means: {call.claim}",
                        f"check: drat-trim {call.name}.cnf {call.name}.drat"]
            written.append((call.name + ".cnf", refutation.dimacs(comments)))
            written.append((call.name + ".drat", refutation.drat()))
        return written


__all__ = ["CallCertifier", "CertifiedCall", "WrongNo"]
