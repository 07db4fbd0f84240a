"""``run_job``: the CLI's one way to run a worker, against stand-in workers (plain Python scripts)."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import psutil

from cli import jobs
from cli.jobs import render_job, run_job
from cli.render import EventRenderer
from core.job.jobs import JobSpec, worker_died_words
from core.job.protocol import encode, make_event
from tests.fixtures.doors import SayingDoor, SpecDoor


def _script(tmp_path: Path, body: str) -> list[str]:
    path = tmp_path / "stand_in.py"
    path.write_text("import subprocess, sys, time\n" + body, encoding="utf-8")
    return [sys.executable, str(path)]


def _emit(*events: dict) -> str:
    return f"sys.stdout.write({''.join(encode(e) for e in events)!r}); sys.stdout.flush()\n"


def test_events_arrive_and_the_worker_says_how_it_ended(tmp_path):
    job = JobSpec.scratch("export", {"workspace": str(tmp_path)}, tmp_path)
    job.write()
    seen: list[dict] = []
    argv = _script(tmp_path, _emit(make_event("stage", stage="loading"), make_event("done", status="completed",
                                                                                      elapsed_s=0.1)))
    outcome = run_job(SpecDoor(job), seen.append, argv=argv)
    assert [e["type"] for e in seen] == ["stage", "done"]
    assert outcome.status == "completed" and outcome.reported and outcome.exit_code == 0
    assert job.path is not None and not job.path.exists()  # a scratch spec is removed when the job ends


def test_a_crash_is_worker_died_with_its_last_words_kept(tmp_path):
    job = JobSpec.scratch("probe", {}, tmp_path)
    texts: list[str] = []
    argv = _script(tmp_path, _emit(make_event("probe_step", step="torch", index=3, count=5))
                   + "print('a stray print', flush=True)\nsys.stderr.write('Segmentation fault\\n'); sys.exit(139)\n")
    outcome = run_job(SpecDoor(job), lambda event: None, argv=argv, on_text=texts.append)
    assert outcome.kind == "worker_died" and outcome.message == worker_died_words(139)[0] and outcome.synthetic
    # stdout and stderr are two pipes read by two threads: their relative order is not knowable, only that
    # both lines are kept (the crash's words in the outcome, the stray print passed on as text).
    assert "Segmentation fault" in outcome.output_tail and "a stray print" in texts


def test_a_hung_worker_is_killed_at_its_timeout(tmp_path):
    outcome = run_job(SpecDoor(JobSpec.scratch("probe", {}, tmp_path)), lambda event: None, 1.0,
                      argv=_script(tmp_path, "time.sleep(600)\n"))
    assert outcome.kind == "timeout" and outcome.timed_out_s == 1.0 and outcome.failed


def test_a_grandchild_holding_the_pipes_does_not_hang_the_terminal(tmp_path, monkeypatch):
    monkeypatch.setattr(jobs, "DRAIN_S", 0.5)
    pid_file = tmp_path / "grandchild.pid"
    body = ("child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'])\n"
            f"open({str(pid_file)!r}, 'w').write(str(child.pid))\n"
            + _emit(make_event("done", status="completed", elapsed_s=0.1)))
    outcome = run_job(SpecDoor(JobSpec.scratch("export", {}, tmp_path)), lambda event: None, 300.0,
                      argv=_script(tmp_path, body))
    grandchild = psutil.Process(int(pid_file.read_text()))
    try:
        assert outcome.status == "completed" and outcome.exit_code == 0
        assert grandchild.is_running()  # run_job returned while the pipes' other holder still lives
    finally:
        grandchild.kill()
        grandchild.wait(30)


def test_a_worker_that_cannot_start_says_why(tmp_path):
    outcome = run_job(SpecDoor(JobSpec.scratch("export", {}, tmp_path)), lambda event: None,
                      argv=[str(tmp_path / "no-such-python")])
    assert outcome.kind == "launch" and "no-such-python" in outcome.message and outcome.hint


class _Scripted(JobSpec):
    """A job whose command is a stand-in script (``render_job`` runs what the door's spec says)."""

    script: list[str] = []

    def argv(self, python: str | None = None) -> list[str]:
        return self.script


def test_the_verb_shows_the_doors_result_folded_from_every_event_and_the_process_ending(tmp_path):
    job = _Scripted("probe", {}, tmp_path / "jobs")
    job.script = _script(tmp_path, _emit(make_event("stage", stage="loading")) + "sys.exit(139)\n")
    door = SayingDoor(job)
    err = io.StringIO()
    outcome = render_job(EventRenderer(err=err), door)
    assert [e["type"] for e in door.folded] == ["stage"]  # every event went to the door…
    assert door.asked == [{"exit_code": 139, "crashed": False, "killed": False}]  # …and the process's ending
    assert outcome.message == f"{SayingDoor.WORDS}: failed" and outcome.kind == "worker_died"
    assert f"{SayingDoor.WORDS}: failed" in err.getvalue()  # what the verb printed is the door's result
