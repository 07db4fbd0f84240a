"""``yolostudio``: the command-line face of the app — the same core as the GUI, for terminals and SSH.

Verbs: ``train``, ``resume``, ``attach``, ``stop``, ``runs``, ``demo``, ``gui`` (also the default with no
arguments). Human output by default, ``--json`` for machines. Training runs in the same worker
subprocess the GUI uses, in its own session: Ctrl+C asks it to stop gracefully (a second Ctrl+C kills
it), and a dropped SSH connection leaves it training — ``yolostudio attach RUN`` follows it again.

With ``--json``, control lines written to the CLI's stdin (``{"type": "stop"}``) are passed on to the
worker, so a program driving the CLI can stop a run the same way the GUI does.

Exit codes: 0 completed (or listed), 1 the run failed, 2 usage or configuration error, 3 stopped.
This module imports no Qt: ``yolostudio gui`` imports the GUI package only when asked.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import asdict
from pathlib import Path
from typing import IO, Any

from core.cli_render import ConsoleRenderer, JsonRenderer
from core.i18n import tr
from core.launch import worker_argv, worker_env
from core.machine import quick_machine_facts
from core.progress import format_duration
from core.protocol import EventFileTail, LineDecoder
from core.runs import (EVENTS_FILE, create_run, list_runs, load_run_config, read_run, request_stop, resume_spec,
                       write_spec)
from core.train_config import AUTO_BATCH, TrainConfig, validate_config
from core.workspace import resolve_workspace, runs_dir

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_STOPPED = 0, 1, 2, 3

#: Modules that add verbs of their own: each has ``register(subparsers)``, which adds its parser and sets
#: ``handler=fn(args, workspace) -> exit code`` as a default. Keep their imports light (no torch, no Qt).
FEATURE_VERBS: list[str] = ["core.cli_export", "core.cli_dataset", "core.cli_doctor"]
_STATUS_EXIT = {"completed": EXIT_OK, "stopped": EXIT_STOPPED, "failed": EXIT_FAILED}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="yolostudio", description=tr("YOLO Studio: train and export YOLOv5 models."))
    parser.add_argument("--workspace", help=tr("workspace folder (runs, demo dataset); default: the app's data folder"))
    sub = parser.add_subparsers(dest="verb", metavar="VERB")

    train = sub.add_parser("train", help=tr("train a model (runs in a worker process)"))
    train.add_argument("data", help=tr("the dataset's data.yaml"))
    defaults = TrainConfig(data="")
    train.add_argument("--model", default=defaults.model, help=tr("yolov5n/s/m/l/x.yaml, a model YAML, or a .pt"))
    train.add_argument("--weights", default="", help=tr("initial weights (.pt) to fine-tune from"))
    train.add_argument("--epochs", type=int, default=defaults.epochs)
    train.add_argument("--imgsz", "--img", type=int, default=defaults.imgsz)
    train.add_argument("--batch", "--batch-size", type=int, default=defaults.batch,
                       help=tr("images per batch; {auto} picks it on one GPU", auto=AUTO_BATCH))
    train.add_argument("--workers", type=int, default=defaults.workers)
    train.add_argument("--device", default=defaults.device, help=tr("cpu, 0, 0,1 … (empty: first GPU, else CPU)"))
    train.add_argument("--name", default=defaults.name, help=tr("run name (a suffix is added if it exists)"))
    train.add_argument("--hyp", default=defaults.hyp)
    train.add_argument("--cache", choices=["ram", "disk"], default=None)
    train.add_argument("--optimizer", default=defaults.optimizer)
    train.add_argument("--patience", type=int, default=defaults.patience)
    train.add_argument("--seed", type=int, default=defaults.seed)
    train.add_argument("--cos-lr", action="store_true")
    train.add_argument("--rect", action="store_true")
    train.add_argument("--single-cls", action="store_true")
    train.add_argument("--trust-weights", action="store_true",
                       help=tr("allow loading a .pt from outside your runs (a .pt is a pickle and can run code)"))
    train.add_argument("--json", action="store_true", help=tr("print the event stream as JSON lines"))

    resume = sub.add_parser("resume", help=tr("resume a stopped or failed run from its last checkpoint"))
    resume.add_argument("run", help=tr("run name or folder"))
    resume.add_argument("--json", action="store_true")

    attach = sub.add_parser("attach", help=tr("follow a run's progress (or replay a finished one)"))
    attach.add_argument("run")
    attach.add_argument("--json", action="store_true")

    stop = sub.add_parser("stop", help=tr("ask a running run to stop gracefully"))
    stop.add_argument("run")

    runs = sub.add_parser("runs", help=tr("list runs with status and best mAP"))
    runs.add_argument("--json", action="store_true")

    demo = sub.add_parser("demo", help=tr("write the demo dataset and print its data.yaml path"))
    demo.add_argument("--json", action="store_true")

    sub.add_parser("gui", help=tr("open the desktop app (the default)"))
    for module in FEATURE_VERBS:
        importlib.import_module(module).register(sub)
    return parser


def _run_dir(workspace: Path, run: str) -> Path:
    candidate = Path(run).expanduser()
    if candidate.is_dir():
        return candidate.resolve()
    named = runs_dir(workspace) / run
    if named.is_dir():
        return named
    raise FileNotFoundError(tr("No run named {run} in {folder}.", run=run, folder=runs_dir(workspace)))


def _config_from_args(args: argparse.Namespace) -> TrainConfig:
    return TrainConfig(
        data=args.data, model=args.model, weights=args.weights, epochs=args.epochs, imgsz=args.imgsz,
        batch=args.batch, workers=args.workers, device=args.device, name=args.name, hyp=args.hyp,
        cache=args.cache or "", optimizer=args.optimizer, patience=args.patience, seed=args.seed,
        cos_lr=args.cos_lr, rect=args.rect, single_cls=args.single_cls)


def _needs_trust(weights: Path | None, workspace: Path) -> bool:
    if weights is None:
        return False
    root = runs_dir(workspace).resolve()
    return root not in weights.resolve().parents


class WorkerSession:
    """Runs one worker subprocess and feeds its events to a renderer; Ctrl+C means stop, twice means kill."""

    def __init__(self, argv: list[str], renderer: Any, *, forward_stdin: bool = False) -> None:
        self.argv = argv
        self.renderer = renderer
        self.forward_stdin = forward_stdin
        self.interrupts = 0
        self.proc: subprocess.Popen[bytes] | None = None

    def _on_sigint(self, signum: int, frame: Any) -> None:
        self.interrupts += 1
        if self.proc is None:
            return
        if self.interrupts == 1:
            self.renderer.note(tr("Stopping after the current batch and saving a checkpoint… "
                                  "(Ctrl+C again to kill the worker)"))
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.write(b'{"v":1,"type":"stop"}\n')
                self.proc.stdin.flush()
            except (OSError, ValueError):
                pass
        else:
            self.renderer.note(tr("Killing the worker; the last saved checkpoint is kept."))
            self.proc.kill()

    def _forward_stdin(self) -> None:
        """In --json mode a controlling program may write control lines ({"type": "stop"}) to our stdin."""
        try:
            fd = sys.stdin.fileno()
        except (AttributeError, OSError, ValueError):
            return
        while self.proc is not None:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                return
            if not chunk:
                return  # EOF is not a stop
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.write(chunk)
                self.proc.stdin.flush()
            except (OSError, ValueError):
                return

    def run(self) -> int:
        popen_kw: dict[str, Any] = {}
        if os.name == "posix":
            popen_kw["start_new_session"] = True  # Ctrl+C and a dropped SSH session don't reach the worker
        else:
            popen_kw["creationflags"] = subprocess.CREATE_NEW_PROCESS_GROUP  # type: ignore[attr-defined]
        previous = signal.signal(signal.SIGINT, self._on_sigint)
        decoder = LineDecoder()
        status: str | None = None
        try:
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         env=worker_env(), **popen_kw)
            assert self.proc.stdout is not None
            if self.forward_stdin:
                threading.Thread(target=self._forward_stdin, name="forward-stdin", daemon=True).start()
            while True:
                chunk = self.proc.stdout.read1(65536)
                lines = decoder.feed(chunk) if chunk else decoder.flush()
                for decoded in lines:
                    if decoded.event is not None:
                        if decoded.event.get("type") == "done":
                            status = decoded.event.get("status")
                        self.renderer.event(decoded.event)
                    elif decoded.text:
                        self.renderer.text(decoded.text)
                if not chunk:
                    break
            code = self.proc.wait()
        finally:
            signal.signal(signal.SIGINT, previous)
        if status is None:
            self.renderer.died(code)
            return EXIT_FAILED
        return _STATUS_EXIT.get(status, EXIT_FAILED)


def _renderer(json_mode: bool, stream: IO[str]) -> Any:
    return JsonRenderer(stream) if json_mode else ConsoleRenderer(stream)


def cmd_train(args: argparse.Namespace, workspace: Path) -> int:
    checked = validate_config(_config_from_args(args), quick_machine_facts())
    out = sys.stderr if args.json else sys.stdout
    for problem in checked.problems:
        label = tr("error") if problem.severity == "error" else tr("warning")
        print(f"{label}: {problem.message}" + (f"\n  → {problem.hint}" if problem.hint else ""), file=sys.stderr)
    if not checked.ok:
        return EXIT_USAGE
    trusted: tuple[str, ...] = ()
    if _needs_trust(checked.weights_path, workspace):
        if not args.trust_weights:
            print(tr("error: {path} is outside your runs. A .pt file is a pickle and can run code when loaded; "
                     "if you trust it, add --trust-weights.", path=checked.weights_path), file=sys.stderr)
            return EXIT_USAGE
        trusted = (str(checked.weights_path),)
    run_dir = create_run(workspace, checked, trusted_weights=trusted)
    spec = load_run_config(run_dir)["spec"]
    renderer = _renderer(args.json, sys.stdout)
    if not args.json:
        print(tr("Run {name}: {path}", name=run_dir.name, path=run_dir), file=out)
    return WorkerSession(worker_argv("train", write_spec(run_dir, spec)), renderer, forward_stdin=args.json).run()


def cmd_resume(args: argparse.Namespace, workspace: Path) -> int:
    run_dir = _run_dir(workspace, args.run)
    info = read_run(run_dir)
    if info.status == "running":
        print(tr("error: run {name} is still running; use 'yolostudio attach {name}'.", name=info.name), file=sys.stderr)
        return EXIT_USAGE
    if info.status == "completed":
        print(tr("error: run {name} completed; start a new run from its best.pt instead.", name=info.name),
              file=sys.stderr)
        return EXIT_USAGE
    spec = resume_spec(run_dir)
    renderer = _renderer(args.json, sys.stdout)
    return WorkerSession(worker_argv("train", write_spec(run_dir, spec)), renderer, forward_stdin=args.json).run()


def cmd_attach(args: argparse.Namespace, workspace: Path) -> int:
    """Follow a run through its events file until it ends; Ctrl+C only detaches (the run goes on)."""
    run_dir = _run_dir(workspace, args.run)
    renderer = _renderer(args.json, sys.stdout)
    tail = EventFileTail(run_dir / EVENTS_FILE)
    try:
        while True:
            for event in tail.poll():
                renderer.event(event)
            info = read_run(run_dir)
            if info.status != "running":
                for event in tail.poll():
                    renderer.event(event)
                if info.status == "failed" and (info.error or {}).get("kind") == "worker_died":
                    renderer.died(None)
                return _STATUS_EXIT.get(info.status, EXIT_FAILED)
            time.sleep(0.5)
    except KeyboardInterrupt:
        renderer.note(tr("Detached; the run keeps going. 'yolostudio stop {name}' stops it.", name=run_dir.name))
        return EXIT_OK


def cmd_stop(args: argparse.Namespace, workspace: Path) -> int:
    run_dir = _run_dir(workspace, args.run)
    if read_run(run_dir).status != "running":
        print(tr("Run {name} is not running.", name=run_dir.name), file=sys.stderr)
        return EXIT_USAGE
    request_stop(run_dir)
    print(tr("Asked run {name} to stop; it saves a checkpoint after the current batch.", name=run_dir.name))
    return EXIT_OK


def _fmt_map(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def cmd_runs(args: argparse.Namespace, workspace: Path) -> int:
    runs = list_runs(workspace)
    if args.json:
        rows = []
        for info in runs:
            row = asdict(info)
            row["best_map"] = info.best_map50  # the headline figure, under a stable name
            rows.append(row)
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return EXIT_OK
    if not runs:
        print(tr("No runs yet in {folder}. Start one with: yolostudio train DATA.yaml", folder=runs_dir(workspace)))
        return EXIT_OK
    header = (tr("name"), tr("status"), tr("epochs"), "mAP@0.5", "mAP@.5:.95", tr("images/s"), tr("GPU busy"),
              tr("data wait"), tr("duration"), tr("started"), tr("path"))
    rows_txt = [header]
    for info in runs:
        started = time.strftime("%Y-%m-%d %H:%M", time.localtime(info.started)) if info.started else "—"
        ips = "—" if info.images_per_s is None else f"{info.images_per_s:.1f}"
        gpu = "—" if info.gpu_util_mean_percent is None else f"{info.gpu_util_mean_percent:.0f}%"
        wait = "—" if info.data_wait_share is None else f"{100 * info.data_wait_share:.0f}%"
        duration = info.duration_s if info.duration_s is not None else info.elapsed_s
        rows_txt.append((info.name, info.status, f"{info.epochs_done}/{info.epochs_total}", _fmt_map(info.best_map50),
                         _fmt_map(info.best_map50_95), ips, gpu, wait, format_duration(duration), started, info.path))
    widths = [max(len(str(r[i])) for r in rows_txt) for i in range(len(header) - 1)]
    for row in rows_txt:
        print("  ".join(str(c).ljust(w) for c, w in zip(row, widths)) + "  " + str(row[-1]))
    return EXIT_OK


def cmd_demo(args: argparse.Namespace, workspace: Path) -> int:
    from core.demo_dataset import ensure_demo_dataset

    path = ensure_demo_dataset(workspace)
    print(json.dumps({"data": str(path)}) if args.json else path)
    return EXIT_OK


def cmd_gui(argv: list[str]) -> int:
    return int(importlib.import_module("gui.app").main(argv))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.verb in (None, "gui"):
        return cmd_gui(["--workspace", args.workspace] if args.workspace else [])
    workspace = resolve_workspace(args.workspace)
    handler = getattr(args, "handler", None)
    handlers = {"train": cmd_train, "resume": cmd_resume, "attach": cmd_attach, "stop": cmd_stop,
                "runs": cmd_runs, "demo": cmd_demo}
    try:
        return (handler or handlers[args.verb])(args, workspace)
    except FileNotFoundError as exc:
        print(tr("error: {reason}", reason=exc), file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # `yolostudio runs | head`
        return EXIT_OK
    except OSError as exc:
        print(tr("error: {reason}", reason=exc), file=sys.stderr)
        return EXIT_FAILED


if __name__ == "__main__":
    sys.exit(main())
