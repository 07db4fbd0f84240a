"""Carrying out an install plan, step by step, so that every failure is safe to retry.

Order: the venv (reused when healthy, rebuilt when an interrupted run left it broken) → pip and NVML into
it → the GPUs read again through NVML and the plan made final → PyTorch from the chosen index → the app →
a smoke test of the installed app (CLI, PyTorch build, the GUI's imports under Qt's offscreen platform)
→ shortcuts, last. On a re-run the old shortcuts are taken down before anything changes and put back
only by a passing smoke test, so a menu entry never points at a broken app. A failed step stops with its
reason (pip's own error lines), the log file and the exact command to retry; ``install.json`` records
every file made, for the uninstaller.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable, TextIO

from core import RESOURCES_DIR, __version__
from core.environment.facts import EnvironmentFacts, facts_from_dict
from core.i18n import tr
from installer.failure import StepFailed
from installer.layout import APP_ID, Layout
from installer.manifest import Manifest, load_manifest, save_manifest
from core.install.pip_progress import PipProgress, pip_supports_raw
from core.environment.commands import torch_index_url
from core.environment.tables import PINNED
from core.install.index_check import answer, check_argv, fallback_tags, moved_reason, why
from installer.plan import InstallPlan, render_plan, with_build
from installer.shortcuts import windows_shortcuts, write_linux_entry
from installer.smoke import smoke_test

#: (argv, env, on_line) -> exit code; every output line goes to on_line.
ProcessRunner = Callable[[list[str], dict[str, str], Callable[[str], None]], int]
#: (facts read through NVML in the venv, their source) -> the final plan, with the user's options.
Replan = Callable[[EnvironmentFacts, str], InstallPlan]


def run_process(argv: list[str], env: dict[str, str], on_line: Callable[[str], None]) -> int:
    """Run a child with its output merged and read line by line (pip, the venv's Python)."""
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                env=env, text=True, encoding="utf-8", errors="replace", bufsize=1)
    except OSError as exc:
        on_line(f"ERROR: {argv[0]}: {exc.strerror or exc}")
        return 127
    assert proc.stdout is not None
    try:
        for line in proc.stdout:
            on_line(line.rstrip("\n"))
        return proc.wait()
    except BaseException:
        proc.kill()  # Ctrl+C: pip must not go on alone
        proc.wait()
        raise


class Installer:
    def __init__(self, plan: InstallPlan, replan: Replan | None = None, out: TextIO = sys.stdout,
                 runner: ProcessRunner = run_process, icon_source: Path | None = None) -> None:
        self.plan = plan
        self.replan = replan
        self.raw_progress = False
        self.layout: Layout = plan.layout
        self.out = out
        self.runner = runner
        self.icon_source = icon_source or RESOURCES_DIR / "icons" / f"{APP_ID}.svg"
        self.prefix = Path(self.layout.prefix)
        self.manifest = load_manifest(Path(self.layout.manifest)) or Manifest()
        self.upgrade = self.manifest.status == "installed"
        self.log: TextIO | None = None
        self.step_name = ""
        self.tty = hasattr(out, "isatty") and out.isatty()

    # -- output -------------------------------------------------------------------------------------------

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)
        self._log(text)

    def _log(self, text: str) -> None:
        if self.log is not None:
            self.log.write(text + "\n")
            self.log.flush()

    def step(self, number: int, total: int, name: str) -> None:
        self.step_name = name
        self.say(tr("[{n}/{total}] {name}", n=number, total=total, name=name))

    def env(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        """The children's environment: the installed app is tested, never the source clone."""
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
        env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
        env["PYTHONIOENCODING"] = "utf-8"
        return dict(env, **(extra or {}))

    def run(self, argv: list[str], *, pip: bool = False, env: dict[str, str] | None = None) -> list[str]:
        """Run one command of the current step; output to the log (and a progress line for pip)."""
        self._log("$ " + " ".join(argv))
        progress = PipProgress()
        lines: list[str] = []
        shown = [""]

        def on_line(line: str) -> None:
            self._log(line)
            lines.append(line)
            del lines[:-200]
            if pip and progress.feed(line):
                text = "      " + progress.describe()
                if self.tty:
                    print("\r" + text[:100].ljust(len(shown[0])), end="", file=self.out, flush=True)
                elif text != shown[0] and not line.startswith("Progress "):
                    print(text, file=self.out, flush=True)
                shown[0] = text[:100]

        code = self.runner(argv, self.env(env), on_line)
        if self.tty and shown[0]:
            print(file=self.out)
        if code != 0:
            errors = progress.errors or [ln for ln in lines if ln.strip()][-8:]
            raise StepFailed(self.step_name, "\n".join(errors) or tr("exit code {code}", code=code))
        return lines

    def pip(self, argv: list[str]) -> None:
        self.run(argv + (["--progress-bar", "raw"] if self.raw_progress else []), pip=True)

    # -- the steps ----------------------------------------------------------------------------------------

    def execute(self) -> int:
        self.prefix.mkdir(parents=True, exist_ok=True)
        self.log = open(self.layout.log, "a", encoding="utf-8")  # noqa: SIM115 - closed in finally
        try:
            return self._execute()
        except StepFailed as failed:
            return self._failed(failed.step, failed.reason)
        except KeyboardInterrupt:
            return self._failed(self.step_name, tr("interrupted"), check_previous=False)
        finally:
            self.log.close()
            self.log = None

    def _execute(self) -> int:
        lay = self.layout
        self.manifest.add(self.layout.manifest)
        self.manifest.add(self.layout.log)
        self.manifest.status = "installing"
        self.manifest.source = self.plan.source_root
        self.manifest.venv = str(lay.venv)
        save_manifest(self.manifest, Path(lay.manifest))
        if self.upgrade:
            self.say(tr("Upgrading the YOLO Studio installed in {prefix} in place.", prefix=lay.prefix))
        self._take_down_shortcuts()
        total = 7
        self.step(1, total, tr("Python environment {venv}", venv=lay.venv))
        self._venv()
        self.step(2, total, tr("pip and the NVIDIA management library"))
        self.run(self.plan.commands[1])
        self.raw_progress = pip_supports_raw(" ".join(self.run([str(lay.python), "-m", "pip", "--version"])))
        self.step(3, total, tr("Reading the GPUs through NVML"))
        self._final_plan()
        self._check_served()
        self.step(4, total, tr("PyTorch ({index}) — the largest download", index=self.plan.index))
        self.pip(self.plan.commands[2])
        self.step(5, total, tr("YOLO Studio and its other packages"))
        self.pip(self.plan.commands[3])
        self.step(6, total, tr("Checking the installed app"))
        notes = smoke_test(self.layout, self.plan.index, self.run)
        self.step(7, total, tr("Shortcuts"))
        self._shortcuts()
        self.manifest.status = "installed"
        self.manifest.app_version = __version__
        self.manifest.index = self.plan.index
        self.manifest.reason = self.plan.choice.reason
        save_manifest(self.manifest, Path(lay.manifest))
        for note in notes:
            self.say(tr("Note: {text}", text=note))
        self.say(self.summary())
        return 0

    def _venv(self) -> None:
        venv, python = Path(self.layout.venv), Path(self.layout.python)
        if venv.exists():
            healthy = python.exists() and self._quiet_ok([str(python), "-m", "pip", "--version"])
            if healthy:
                self.say(tr("      reusing the existing environment"))
                return
            if not (venv / "pyvenv.cfg").exists():
                raise StepFailed(self.step_name, tr("{venv} exists but is not a Python environment; move it away or "
                                                    "install elsewhere with --prefix DIR.", venv=venv))
            self.say(tr("      the environment is incomplete (an interrupted install?): building it again"))
            shutil.rmtree(venv)
        self.manifest.add(venv)
        save_manifest(self.manifest, Path(self.layout.manifest))
        self.run(self.plan.commands[0])

    def _quiet_ok(self, argv: list[str]) -> bool:
        return self.runner(argv, self.env(), lambda line: self._log(line)) == 0

    def _final_plan(self) -> None:
        """The GPUs read through NVML inside the new venv (nvidia-ml-py is there now); the plan is redone
        with them, and the change said, if the first look (nvidia-smi) saw something else."""
        if self.replan is None:
            return
        lines = self.run([str(self.layout.python), "-m", "installer", "detect"],
                         env={"PYTHONPATH": self.plan.source_root})
        try:
            answer = json.loads("\n".join(lines))
            facts, _ = facts_from_dict(answer["facts"])
            source = str(answer["source"])
        except (ValueError, KeyError, TypeError):
            self.say(tr("      NVML gave no readable answer; keeping the plan from {source}",
                        source=self.plan.facts_source))
            return
        old = self.plan
        self.plan = self.replan(facts, source)
        if self.plan.index != old.index:
            self.say(tr("      NVML changed the choice: {old} -> {new}", old=old.index, new=self.plan.index))
        self.say("      " + self.plan.choice.reason)

    def _check_served(self) -> None:
        """Ask the index (pip's dry run, ``index_check``) whether it serves the chosen build for this venv's
        Python before PyTorch is touched; move to another build that fits, or to the CPU build, saying why; stop
        when the index cannot be asked at all or serves nothing that fits."""
        first = self.plan
        python = str(self.layout.python)
        tags = [first.index, *fallback_tags(first.choice, first.driver_os)]
        if first.index != "cpu" and not first.choice.code.startswith("override"):
            tags.append("cpu")  # last: the app works, without the GPU, and the reason says so
        refused: list[str] = []
        for tag in tags:
            argv = check_argv(python, tag, PINNED["torch"], PINNED["torchvision"], self.layout.os,
                              first.index_base)
            lines: list[str] = []
            self._log("$ " + " ".join(argv))
            code = self.runner(argv, self.env(), lambda line: (self._log(line), lines.append(line)))
            state = answer(code, lines)
            if state == "failed":
                raise StepFailed(self.step_name, tr("pip could not ask {index} whether it serves {tag}: {why}",
                                                    index=torch_index_url(tag, first.index_base), tag=tag,
                                                    why=why(lines) or tr("exit code {code}", code=code)))
            if state == "served":
                if tag != first.index:
                    reason = moved_reason(tag, first.index, refused, first.index_url) if tag != "cpu" else tr(
                        "{index} serves no CUDA build that fits this machine ({why}), so the CPU build is installed: "
                        "training will not use the GPU until a CUDA build is installed. When the index serves {first}"
                        ", run the installer again.", index=first.index_url, why="; ".join(refused), first=first.index)
                    self.plan = with_build(first, tag, reason, "not-served")
                    self.say("      " + reason)
                else:
                    self.say(tr("      {index} serves torch {torch} for this Python", index=first.index_url,
                                torch=first.torch[0].split("==", 1)[1]))
                return
            refused.append(tr("{tag}: {why}", tag=tag, why=why(lines)))
        raise StepFailed(self.step_name, tr("{index} serves none of the PyTorch builds that fit this machine ({tags})"
                                            ": {why}. Use an index that holds them (--torch-index URL).",
                                            index=first.index_url, tags=", ".join(tags), why="; ".join(refused)))

    def _take_down_shortcuts(self) -> None:
        for path in (self.layout.menu_entry, self.layout.desktop_entry, self.layout.launcher,
                     self.layout.uninstall_entry):
            if path is not None and str(path) in self.manifest.created and os.path.lexists(path):
                os.unlink(path)

    def _shortcuts(self) -> None:
        lay = self.layout
        if lay.os == "Windows":
            self._windows_shortcuts()
        else:
            for path in write_linux_entry(lay, self.icon_source, self.plan.desktop_shortcut):
                self.manifest.add(path)
            self._launcher()
        save_manifest(self.manifest, Path(lay.manifest))

    def _launcher(self) -> None:
        """``~/.local/bin/yolostudio`` -> the venv's CLI, unless another program already has that name."""
        launcher = Path(self.layout.launcher)  # type: ignore[arg-type]
        if os.path.lexists(launcher) and str(launcher) not in self.manifest.created:
            self.say(tr("Note: {path} exists and is not ours; left alone (the command is {cli}).",
                        path=launcher, cli=self.layout.cli))
            return
        launcher.parent.mkdir(parents=True, exist_ok=True)
        if os.path.lexists(launcher):
            launcher.unlink()
        launcher.symlink_to(self.layout.cli)
        self.manifest.add(launcher)

    def _windows_shortcuts(self) -> None:
        for name in ("uninstall.bat", "uninstall.ps1"):
            source = Path(self.plan.source_root) / "installer" / "windows" / name
            target = self.prefix / name
            shutil.copyfile(source, target)
            self.manifest.add(target)
        folder = Path(self.layout.menu_entry).parent  # the app's own Start-menu folder
        if not folder.exists():
            folder.mkdir(parents=True)
            self.manifest.add(folder)
        for link, argv, extra in windows_shortcuts(self.layout, self.plan.desktop_shortcut):
            self.run(argv, env=extra)
            self.manifest.add(link)

    # -- endings ------------------------------------------------------------------------------------------

    def summary(self) -> str:
        c = self.plan.choice
        where = tr("the applications menu") if self.layout.os == "Linux" else tr("the Start menu")
        return tr("YOLO Studio {version} installed in {prefix} with PyTorch {torch} ({why}); open it from {where}"
                  "{desktop}, or run {cli}.", version=__version__, prefix=self.layout.prefix,
                  torch=self.plan.torch[0].split("==", 1)[1], why=_short_reason(c.code, c.gpus, c.driver),
                  where=where, desktop=tr(" or the desktop") if self.plan.desktop_shortcut else "",
                  cli=self.layout.launcher or self.layout.cli)

    def _failed(self, step: str, reason: str, check_previous: bool = True) -> int:
        self.say(tr("\nStep failed: {step}\n{reason}", step=step or "?", reason=reason))
        retry = os.environ.get("YOLOSTUDIO_INSTALL_RETRY") or tr("the installer again, with the same options")
        kept = check_previous and self._previous_still_works()
        self.say(tr("{shortcut} The full log is {log}.\nFix the cause above, then run: {retry}\n"
                    "(It continues where it stopped: what is already installed is kept.)",
                    shortcut=tr("The version installed before still passes its check: its shortcut was put back.")
                    if kept else tr("No shortcut was created."), log=self.layout.log, retry=retry))
        return 1

    def _previous_still_works(self) -> bool:
        """A failed upgrade (a download that broke off, say) often leaves the old app intact: if it passes the
        same smoke test, its shortcuts come back; if not, none points at it."""
        if not self.upgrade or self.manifest.index is None:
            return False
        try:
            smoke_test(self.layout, self.manifest.index, self.run)
            self._shortcuts()
        except (StepFailed, OSError):
            return False
        return True


def _short_reason(code: str, gpus: list, driver: str | None) -> str:
    names = ", ".join(g.name for g in gpus if g.usable) or tr("no NVIDIA GPU")
    return {
        "fits-all": tr("fits driver {driver} and {gpus}", driver=driver, gpus=names),
        "mixed-gpus": tr("serves {gpus}; see the plan for the other GPUs", gpus=names),
        "driver-too-old": tr("driver {driver} is too old for CUDA builds: update it and run the installer again",
                             driver=driver),
        "driver-error": tr("the NVIDIA driver did not answer"),
        "no-gpu": tr("no NVIDIA GPU found"),
        "not-cuda-os": tr("no CUDA builds for this OS"),
        "override-cpu": tr("as asked with --cpu"),
        "override-cuda": tr("as asked with --cuda"),
        "not-served": tr("the first choice is not served by the index; see the reason above"),
    }.get(code, code)


def cmd_install(plan: InstallPlan, replan: Replan) -> int:
    print(render_plan(plan, dry_run=False), flush=True)
    if plan.errors:
        print(tr("\nNothing was changed."), flush=True)
        return 1
    return Installer(plan, replan).execute()
