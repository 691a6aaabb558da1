"""`rulec review SRC... -o review.html`: every statement of every manual and what became of
it, as one self-contained HTML page; `--serve`: the same page on 127.0.0.1 taking the
engineer's decisions; `--trace`: the traceability export (``compiler/review/``)."""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path
from typing import Any

from rulec.compiler.llm.flags import CACHE_DIR_NAME, add_llm_arguments

DEFAULT_DECISIONS = Path("review-decisions.jsonl")


def register(sub: Any) -> None:
    """Add `review` to the `rulec` sub-command parsers."""
    p = sub.add_parser(
        "review", help="every statement and what became of it, as one HTML page; "
        "--serve to take decisions",
        description="Write one self-contained HTML page (no network) showing each manual as "
        "written with every statement marked: compiled (rule, severity, condition in words "
        "and as boxes, converted units, advisory), needs review, unreadable, descriptive; "
        "with filters, search, the knowledge-base findings and the rule-box figure.  "
        "--serve shows it on 127.0.0.1, where the engineer accepts, rejects or corrects "
        "rules and turns statements into rules; the decisions go to a JSON-lines file that "
        "`rulec compile --decisions FILE` applies.")
    p.add_argument("sources", nargs="+", type=Path, metavar="SRC")
    p.add_argument("-o", "--output", type=Path, metavar="REVIEW.html",
                   help="where to write the page ('-': standard output; needed unless "
                   "--serve or --trace)")
    p.add_argument("--decisions", type=Path, metavar="FILE",
                   help="the decisions file to show and apply (--serve writes to it; default "
                   f"with --serve: {DEFAULT_DECISIONS}); never inside a source folder")
    p.add_argument("--serve", action="store_true",
                   help="serve the page on 127.0.0.1 and record the decisions made in it")
    p.add_argument("--port", type=int, default=0,
                   help="port for --serve (default: any free port, printed on stderr)")
    p.add_argument("--who", help="the reviewer's name the page starts with (default: the "
                   "login name)")
    p.add_argument("--trace", type=Path, metavar="TRACE.json|.csv",
                   help="write the traceability export: statement -> rule -> bundle id -> "
                   "the --scenario runs that raise it, and the rules none raised")
    p.add_argument("--scenario", type=Path, action="append", default=[], metavar="RUN.csv",
                   help="a replay scenario (CSV as for `rulec replay`) for --trace; repeat")
    add_llm_arguments(p)
    p.set_defaults(run=run_review)


def run_review(args: argparse.Namespace) -> int:
    from rulec.compiler.commands.outputs import refuse_overwriting_inputs
    from rulec.compiler.llm.client import config_from_args
    from rulec.compiler.review.decisions import load_decisions
    from rulec.compiler.review.session import compile_for_review
    from rulec.runtime.errors import DocumentError, StateError

    if args.output is None and not args.serve and args.trace is None:
        raise DocumentError("review: give -o REVIEW.html, --trace FILE or --serve")
    if args.scenario and args.trace is None:
        raise StateError(f"{args.scenario[0]}: --scenario needs --trace FILE")
    decisions_path = args.decisions or (DEFAULT_DECISIONS if args.serve else None)
    if decisions_path is not None:
        _refuse_inside_sources(decisions_path, args.sources)
    if args.decisions is not None and not args.serve and not args.decisions.is_file():
        raise DocumentError(f"{args.decisions}: no such decisions file")
    refuse_overwriting_inputs(
        [("-o", args.output), ("--trace", args.trace)],
        [*args.sources, *args.scenario, *([decisions_path] if decisions_path else [])])
    for run in args.scenario:
        if not run.is_file():
            raise StateError(f"{run}: no such scenario file")
    written = args.output or args.trace
    llm = config_from_args(args, default_cache=(written.parent if written else Path("."))
                           / CACHE_DIR_NAME)
    if args.serve:
        assert decisions_path is not None
        return _serve(args, decisions_path, llm)
    decisions = load_decisions(decisions_path) if decisions_path is not None else []
    _outputs(args, compile_for_review(args.sources, decisions, extractor=args.extractor,
                                      llm=llm))
    return 0


def _outputs(args: argparse.Namespace, reviewed: Any) -> None:
    """The page (-o) and the traceability export (--trace) of one compile for review."""
    from rulec.compiler.review.html import render
    from rulec.compiler.review.trace import trace, write_trace

    if args.output is not None:
        _write(args.output, render(reviewed.data()))
        print(f"wrote {args.output}: {len(reviewed.result.rules)} rule(s), "
              f"{_count(reviewed)} statement(s), {len(reviewed.findings)} finding(s), "
              f"{len(reviewed.decisions)} decision(s)", file=sys.stderr)
    if args.trace is not None:
        export = trace(reviewed, args.scenario)
        try:
            write_trace(args.trace, export)
        except OSError as exc:
            from rulec.runtime.errors import DocumentError

            raise DocumentError(f"{args.trace}: cannot write: {exc.strerror or exc}") from None
        print(f"wrote {args.trace}: bundle {export['bundle_id']}, "
              f"{len(export['scenarios'])} scenario(s), {len(export['never_raised'])} rule(s) "
              "never raised", file=sys.stderr)


def _serve(args: argparse.Namespace, decisions_path: Path, llm: Any) -> int:
    """The page on 127.0.0.1 until Ctrl-C; -o and --trace are written first, at start."""
    from rulec.compiler.review.server import ReviewState, make_server
    from rulec.runtime.errors import DocumentError

    state = ReviewState(args.sources, decisions_path, args.who or _login(), args.extractor,
                        llm)
    _outputs(args, state.reviewed)
    try:
        server = make_server(state, args.port)
    except OSError as exc:
        raise DocumentError(f"--port {args.port}: cannot listen on 127.0.0.1: "
                            f"{exc.strerror or exc}") from None
    host, port = server.server_address[:2]
    print(f"rulec review: serving http://{host}:{port}/ (decisions: {decisions_path}); "
          "Ctrl-C to stop", file=sys.stderr, flush=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()
    return 0


def _login() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return ""


def _refuse_inside_sources(path: Path, sources: list[Path]) -> None:
    """A .jsonl inside a source folder would be read as a reviewed-rules file."""
    from rulec.runtime.errors import DocumentError

    target = path.expanduser().resolve()
    for src in sources:
        if src.is_dir() and target.is_relative_to(src.resolve()):
            raise DocumentError(f"--decisions {path}: inside the source folder {src}, where "
                                "it would be read as rules; keep it outside")


def _write(path: Path, text: str) -> None:
    from rulec.compiler.commands.outputs import is_stdout
    from rulec.runtime.errors import DocumentError

    if is_stdout(path):
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise DocumentError(f"{path}: cannot write: {exc.strerror or exc}") from None


def _count(reviewed: Any) -> int:
    return sum(len(d.views.statements) for d in reviewed.result.documents
               if d.views is not None)
