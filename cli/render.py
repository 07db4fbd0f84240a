"""The one output interface of every verb: human text by default, JSON for machines (``--json``).

``Output`` is what a verb writes through: its *result* (one JSON document, or the human text), *notes*
about what the CLI is doing (stdout for a person, stderr in JSON mode so stdout stays machine-readable)
and *errors* (always stderr, ``error: …`` with the way out on the next line). A verb that runs a worker
job uses an ``EventRenderer``, which adds what the job says: its protocol events, its non-protocol
output and how it ended (``finish``, with the ``core.job.jobs.JobOutcome``: the words when the worker died
without saying so). ``JsonEvents`` passes the event stream through unchanged and closes a dead stream with
a synthetic ``error``/``done`` pair, so a machine reader always sees a terminal event.
"""

from __future__ import annotations

import json
import sys
from typing import IO, Any, Callable

from core.display_text import escape_controls, escaped_strings
from core.i18n import tr
from core.job.jobs import JobOutcome
from core.job.protocol import encode, make_event
from cli.terminal import terminal


def shown(text: object) -> str:
    """Text from a file or a worker, as the terminal must show it: control characters escaped, never obeyed
    (``core.display_text``). Every verb prints file-derived text through this, or through ``Output``'s
    ``error``/``warning`` and the event renderers, which apply it themselves."""
    return escape_controls(text)


def shown_event(ev: dict[str, Any]) -> dict[str, Any]:
    """An event with ``shown`` applied to each string in it: what a human renderer reads."""
    return escaped_strings(ev)


class Output:
    def __init__(self, json_mode: bool = False, out: IO[str] | None = None, err: IO[str] | None = None) -> None:
        self.json_mode = json_mode
        self._out = out
        self._err = err

    # Resolved on use, so a test's captured sys.stdout/sys.stderr is the one written to; always through the
    # one writer (cli/terminal.py), whoever made this Output.
    @property
    def out(self) -> IO[str]:
        return terminal(self._out or sys.stdout)

    @property
    def err(self) -> IO[str]:
        return terminal(self._err or sys.stderr)

    def result(self, data: Any, text: str | Callable[[], str], *, indent: int | None = 2) -> None:
        """The verb's answer: ``data`` as one JSON document, or the human ``text``."""
        if self.json_mode:
            print(json.dumps(data, indent=indent, ensure_ascii=False), file=self.out, flush=True)
        else:
            print(text() if callable(text) else text, file=self.out, flush=True)

    def note(self, text: str) -> None:
        """What the CLI is doing, for a person: never mixed into a JSON stdout."""
        print(text, file=self.err if self.json_mode else self.out, flush=True)

    def error(self, message: str, hint: str = "") -> None:
        print(tr("error: {reason}", reason=shown(message)), file=self.err, flush=True)
        if hint:
            print("  → " + shown(hint), file=self.err, flush=True)

    def warning(self, message: str, hint: str = "") -> None:
        print(tr("warning: {message}", message=shown(message)), file=self.err, flush=True)
        if hint:
            print("  → " + shown(hint), file=self.err, flush=True)


class EventRenderer(Output):
    """Output for a verb that runs a worker job: what the job says, as it says it."""

    def event(self, ev: dict[str, Any]) -> None:
        """One protocol event from the worker."""

    def text(self, line: str) -> None:
        """A line of worker output that is not a protocol event."""
        print(shown(line), file=self.err, flush=True)

    def finish(self, outcome: JobOutcome) -> None:
        """The job has ended; say how when the worker could not (it died, was killed, timed out)."""
        if outcome.synthetic:
            self.error(outcome.message, outcome.hint)


class JsonEvents(EventRenderer):
    """The event stream, unchanged, one JSON object per line on stdout."""

    def __init__(self, out: IO[str] | None = None, err: IO[str] | None = None) -> None:
        super().__init__(True, out, err)

    def event(self, ev: dict[str, Any]) -> None:
        self.out.write(encode(ev))
        self.out.flush()

    def finish(self, outcome: JobOutcome) -> None:
        """A stream without its ``done`` gets one (and the reason as an ``error``), marked ``synthetic``."""
        if outcome.reported:
            return
        if outcome.synthetic:
            self.event(make_event("error", kind=outcome.kind, message=outcome.message, hint=outcome.hint,
                                  synthetic=True))
        self.event(make_event("done", status=outcome.status, elapsed_s=None, synthetic=True))
