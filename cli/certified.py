"""``--certify`` for the game queries that certify their solver calls one by one
(:class:`placesat.core.certified_calls.CallCertifier`): which backend, the error lines, the files."""

from __future__ import annotations

import os
from typing import Optional, Sequence

import typer

from .common import fail, write_output


def certificate_backend(ctx: typer.Context, backend: str, certify: bool, proof_dir: Optional[str]) -> str:
    """The backend a command runs on: the SAT backend with ``--certify`` (CP-SAT writes no
    proofs; a note on stderr when ``--backend cpsat`` was asked for), else ``backend``."""
    if proof_dir is not None and not certify:
        fail("--proof-dir needs --certify")
    if not certify or backend == "sat":
        return backend
    from click.core import ParameterSource

    if ctx.get_parameter_source("backend") is not ParameterSource.DEFAULT:
        typer.echo("placesat: note: --certify uses the SAT backend: CP-SAT writes no proofs", err=True)
    return "sat"


def report_certification(certifier, proof_dir: Optional[str], header: Sequence[str] = ()) -> bool:
    """After the answer is printed: an error line on stderr for every proof a checker rejected,
    the certificates written to ``proof_dir`` (``NAME.cnf`` and ``NAME.drat``), and whether
    every claim is certified (True when nothing was asked)."""
    if certifier is None:
        return True
    for call in certifier.rejected:
        typer.echo(f"placesat: error: {call.claim}: {call.certificate.reason}; that claim is not proven", err=True)
    if proof_dir is not None:
        for name, text in certifier.files(header):
            write_output(os.path.join(proof_dir, name), text)
    return certifier.certified
