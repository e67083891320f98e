"""How a job takes an error: which end it (a stop, a lost connection: it resumes when its
lease runs out), which fail it or one of its items, and what its reader is told."""

from __future__ import annotations

import psycopg
import pytest

from app.errors import BadRequest, ConnectionLost, GatewayTimeout, from_database_error
from app.jobs.worker import MAX_ATTEMPTS, JobStopped, RunningJob, failure_message, resumes
from conftest import settings_for_tests


def _no_connection() -> None:  # a connect function the test never calls
    raise AssertionError("no database here")


def _translated(error: psycopg.Error) -> Exception:
    """The error as a job's handler meets it through the supervisor's connection."""
    translated = from_database_error(error)
    translated.__cause__ = error
    return translated


@pytest.mark.parametrize(
    ("failure", "resumed"),
    [(ConnectionLost("the database connection was lost"), True),
     (ConnectionResetError("reset by peer"), True),
     (psycopg.OperationalError("server closed the connection"), True),
     (psycopg.errors.AdminShutdown(), True),
     (_translated(psycopg.errors.SerializationFailure()), True),
     (_translated(psycopg.errors.QueryCanceled()), True),
     (_translated(psycopg.errors.LockNotAvailable()), True),
     (psycopg.errors.OutOfMemory(), True),
     (JobStopped(), False), (_translated(psycopg.errors.ProgramLimitExceeded()), False),
     (psycopg.DataError("a NUL the driver refused"), False), (TimeoutError(), False),
     (BadRequest("bad"), False), (TypeError("a parser's"), False)],
)  # fmt: skip
def test_a_job_resumes_after_a_lost_connection_or_a_passing_failure(failure, resumed):
    """Before, a lost connection came to the worker as the supervisor's 503 and failed the
    job (a re-embed's shadow left behind), and any driver error without a SQLSTATE, or any
    OSError, counted as a lost connection."""
    assert resumes(failure) is resumed


def test_a_job_that_keeps_failing_in_passing_fails_at_last():
    def job(attempts: int) -> RunningJob:
        return RunningJob(1, "reembed", None, 1, {}, settings_for_tests(), _no_connection,
                          attempts=attempts)  # fmt: skip

    timeout = _translated(psycopg.errors.QueryCanceled())
    assert job(MAX_ATTEMPTS - 1).will_resume(timeout)
    assert not job(MAX_ATTEMPTS).will_resume(timeout)


def test_a_failure_is_told_in_words_never_by_a_class_name():
    assert failure_message(BadRequest("src must be at most 2,000 bytes")) == (
        "src must be at most 2,000 bytes"
    )
    unforeseen = failure_message(TypeError("TextInputSequence must be str"))
    assert unforeseen == "an unexpected error; the service log has it"
    told = failure_message(psycopg.errors.CheckViolation())
    assert told == "a value breaks a rule of the stored data"
    timeout = failure_message(GatewayTimeout("search_timeout", message="took too long"))
    assert timeout == "took too long"
