"""The queue's attempt accounting: an attempt is counted when a job is claimed, so a job whose reading
killed the process is on its count at the next start (issue 11, finding 3), and only the culprit pays."""

from __future__ import annotations

import pytest

from engine.db import Database
from engine.indexing import catalog as catalog_mod
from engine.indexing import queue as queue_mod
from engine.indexing.queue import CRAWL, MANUAL, WorkQueue


@pytest.fixture
def queue(tmp_path):
    db = Database(tmp_path / "q.db")
    db.migrate(catalog_mod.MIGRATIONS + queue_mod.MIGRATIONS)
    yield WorkQueue(db, max_attempts=2)
    db.close()


def attempts(queue: WorkQueue, path: str) -> int:
    return next(q.attempts for q in queue.listing() if q.path == path)


def test_claiming_counts_an_attempt_and_a_handled_failure_does_not_count_it_twice(queue):
    queue.push("/d/a.txt", CRAWL)
    [job] = queue.claim_batch(10)
    assert job.attempts == 1 and not job.interrupted and attempts(queue, "/d/a.txt") == 1
    assert queue.failed("/d/a.txt", "damaged") is False
    assert attempts(queue, "/d/a.txt") == 1


def test_after_a_death_the_claimed_jobs_come_back_one_at_a_time_and_the_culprit_is_given_up_on(queue):
    queue.push_many([f"/d/{name}.txt" for name in ("a", "b", "killer")], CRAWL)
    assert len(queue.claim_batch(10)) == 3  # ... and the process dies: no release, no failure recorded
    first = queue.claim_batch(10)
    assert [job.path for job in first] == ["/d/a.txt"] and first[0].interrupted
    queue.done("/d/a.txt")
    queue.done(queue.claim_batch(10)[0].path)  # b, alone too
    [killer] = queue.claim_batch(10)  # the second death
    assert killer.path == "/d/killer.txt" and killer.attempts == 2 and not queue.exhausted(killer)
    [again] = queue.claim_batch(10)
    assert again.attempts == 3 and queue.exhausted(again)  # claimed max_attempts times, never finished


def test_a_crawl_finding_the_file_again_keeps_its_count_but_a_person_asking_resets_it(queue):
    queue.push("/d/killer.txt", CRAWL)
    queue.claim_batch(10)  # dies
    queue.push("/d/killer.txt", CRAWL, fresh=False)  # the next start's re-scan
    assert attempts(queue, "/d/killer.txt") == 1
    queue.push("/d/killer.txt", MANUAL)  # reindex_path: a person's request deserves a fresh start
    assert attempts(queue, "/d/killer.txt") == 0


def test_a_crawl_restarts_a_failed_job_whose_file_changed(queue):
    queue.push("/d/a.txt", CRAWL)
    queue.failed("/d/a.txt", "damaged", permanent=True)
    queue.push("/d/a.txt", CRAWL, fresh=False)
    assert queue.listing()[0].status == "queued" and attempts(queue, "/d/a.txt") == 0


def test_a_released_claim_is_not_taken_for_a_death(queue):
    queue.push_many(["/d/a.txt", "/d/b.txt"], CRAWL)
    jobs = queue.claim_batch(10)
    queue.release([job.path for job in jobs])
    assert len(queue.claim_batch(10)) == 2  # a normal batch again, not one suspect at a time
