"""The remote end of what another machine asks over ssh: ``machine files-hash|files-receive KEY`` (a dataset
sync, ``core.remote.sync``), ``machine launch RUN`` (a training started detached, its options as JSON on stdin)
``machine events RUN --from OFFSET`` (its events file streamed from a byte offset, ``core.remote.launch``) and
``machine run-files RUN`` (a run's files, hashed, with the checkpoints its provenance verifies: ``core.remote.fetch``),
``machine launch-job JOB`` (evaluate or export started detached, its argv as JSON on stdin), ``machine job-output JOB
--from OFFSET`` and ``machine job-status JOB`` (its output from a byte offset, its exit code: ``core.remote.jobs``).

A person has no use for them, so ``machine --help`` does not list them. KEY is one folder name under the
workspace's ``datasets/``, RUN one under ``runs/``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from cli.common import EXIT_OK, EXIT_USAGE
from core.remote.files import dataset_folder, folder_hashes, receive
from core.remote.fetch import run_files
from core.remote.jobs import job_exit, job_folder, launch_job, stream_job_output
from core.remote.launch import launch, stream_events
from core.training.config import valid_run_name


def add_remote_side(verbs: argparse._SubParsersAction) -> None:
    hashes = verbs.add_parser("files-hash")
    hashes.add_argument("key")
    hashes.set_defaults(handler=files_hash)
    receiving = verbs.add_parser("files-receive")
    receiving.add_argument("key")
    receiving.set_defaults(handler=files_receive)
    launching = verbs.add_parser("launch")
    launching.add_argument("run")
    launching.set_defaults(handler=run_launch)
    events = verbs.add_parser("events")
    events.add_argument("run")
    events.add_argument("--from", dest="offset", type=int, default=0)
    events.add_argument("--skip", type=int, default=0)
    events.set_defaults(handler=run_events)
    listing = verbs.add_parser("run-files")
    listing.add_argument("run")
    listing.set_defaults(handler=run_files_listing)
    job = verbs.add_parser("launch-job")
    job.add_argument("job")
    job.set_defaults(handler=run_launch_job)
    output = verbs.add_parser("job-output")
    output.add_argument("job")
    output.add_argument("--from", dest="offset", type=int, default=0)
    output.set_defaults(handler=run_job_output)
    status = verbs.add_parser("job-status")
    status.add_argument("job")
    status.set_defaults(handler=run_job_status)


def files_hash(args: argparse.Namespace, workspace: Path) -> int:
    try:
        folder = dataset_folder(workspace, args.key)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return EXIT_USAGE
    print(json.dumps({"folder": str(folder.absolute()), "files": folder_hashes(folder)}))
    return EXIT_OK


def files_receive(args: argparse.Namespace, workspace: Path) -> int:
    try:
        account = receive(sys.stdin.buffer, dataset_folder(workspace, args.key))
    except (ValueError, OSError, EOFError) as exc:
        print(f"files-receive: {exc}", file=sys.stderr)
        return EXIT_USAGE
    print(json.dumps(account))
    return EXIT_OK


def run_launch(args: argparse.Namespace, workspace: Path) -> int:
    if not valid_run_name(args.run):
        print(f"launch: not a run name: {args.run!r}", file=sys.stderr)
        return EXIT_USAGE
    try:
        config = json.loads(sys.stdin.read())
        if not isinstance(config, dict):
            raise ValueError("the options are not a JSON object")
        print(json.dumps(launch(workspace, args.run, config)))
    except (ValueError, OSError) as exc:
        print(f"launch: {exc}", file=sys.stderr)
        return EXIT_USAGE
    return EXIT_OK


def run_events(args: argparse.Namespace, workspace: Path) -> int:
    if not valid_run_name(args.run) or min(args.offset, args.skip) < 0:
        print(f"events: not a run name or offset: {args.run!r} {args.offset}", file=sys.stderr)
        return EXIT_USAGE
    return stream_events(workspace, args.run, args.offset, sys.stdout, sys.stderr, skip=args.skip)


def run_files_listing(args: argparse.Namespace, workspace: Path) -> int:
    if not valid_run_name(args.run):
        print(f"run-files: not a run name: {args.run!r}", file=sys.stderr)
        return EXIT_USAGE
    try:
        print(json.dumps(run_files(workspace, args.run)))
    except (ValueError, OSError) as exc:
        print(f"run-files: {exc}", file=sys.stderr)
        return EXIT_USAGE
    return EXIT_OK


def run_launch_job(args: argparse.Namespace, workspace: Path) -> int:
    try:
        argv = json.loads(sys.stdin.read())
        if not isinstance(argv, list):
            raise ValueError("the command is not a JSON list")
        print(json.dumps(launch_job(workspace, args.job, argv)))
    except (ValueError, OSError) as exc:
        print(f"launch-job: {exc}", file=sys.stderr)
        return EXIT_USAGE
    return EXIT_OK


def run_job_output(args: argparse.Namespace, workspace: Path) -> int:
    try:
        job_folder(workspace, args.job)
    except ValueError as exc:
        print(f"job-output: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if args.offset < 0:
        print(f"job-output: not an offset: {args.offset}", file=sys.stderr)
        return EXIT_USAGE
    code = stream_job_output(workspace, args.job, args.offset, sys.stdout)  # JSON lines: text
    if code:
        print(f"job-output: no job named {args.job}", file=sys.stderr)
    return code


def run_job_status(args: argparse.Namespace, workspace: Path) -> int:
    try:
        job_folder(workspace, args.job)
    except ValueError as exc:
        print(f"job-status: {exc}", file=sys.stderr)
        return EXIT_USAGE
    print(json.dumps({"job": args.job, "exit": job_exit(workspace, args.job)}))
    return EXIT_OK
