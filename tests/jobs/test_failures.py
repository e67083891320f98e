"""How a job takes an error: which end it (a stop, a lost connection: it resumes when its
lease runs out), which fail it or one of its items, and what its reader is told."""

from __future__ import annotations

import psycopg
import pytest

from app.errors import BadRequest
from app.jobs.worker import JobStopped, ends_the_job, failure_message, resumes


@pytest.mark.parametrize(
    ("failure", "resumed", "ended"),
    [(OSError("reset by peer"), True, True), (psycopg.OperationalError("closed"), True, True),
     (psycopg.errors.AdminShutdown(), True, True), (JobStopped(), False, True),
     (psycopg.errors.ProgramLimitExceeded(), False, False),
     (psycopg.errors.QueryCanceled(), False, False), (BadRequest("bad"), False, False),
     (TypeError("a parser's"), False, False)],
)  # fmt: skip
def test_only_a_stop_or_a_lost_connection_ends_a_job(failure, resumed, ended):
    assert resumes(failure) is resumed and ends_the_job(failure) is ended


def test_a_failure_is_told_in_words_never_by_a_class_name():
    assert failure_message(BadRequest("src must be at most 2,000 bytes")) == (
        "src must be at most 2,000 bytes"
    )
    unforeseen = failure_message(TypeError("TextInputSequence must be str"))
    assert unforeseen == "an unexpected error; the service log has it"
    told = failure_message(psycopg.errors.CheckViolation())
    assert told == "a value breaks a rule of the stored data"
