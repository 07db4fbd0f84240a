"""The evaluate verb's terminal lines: a Ctrl+C is acknowledged once the worker has taken it (its
``stage: stopping``), as ``train`` does; the e2e held-out stop test waits for that line."""

from __future__ import annotations

from cli.verbs.evaluate import EvaluateRenderer


def test_the_terminal_says_when_the_worker_has_taken_the_stop(capsys):
    renderer = EvaluateRenderer(json_mode=False)
    renderer.event({"v": 1, "type": "stage", "t": 1.0, "stage": "stopping", "detail": "stop requested (stdin)"})
    assert capsys.readouterr().out == "… stop requested (stdin)\n"
