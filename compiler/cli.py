"""`rulec`: the command line.  It builds the parser from ``commands/`` (one module per
group of subcommands) and turns every error into one line and an exit status.

Bad input ends with a one-line error on stderr naming the file (and line) at
fault and a non-zero status, never a traceback.  `query` and `replay` use only
the onboard runtime, exactly as the vehicle would.
"""

from __future__ import annotations

import argparse
import sys

from rulec.compiler.terminal import escape_controls, escaped_output
from rulec.compiler.version import __version__
from rulec.runtime.errors import RulecError

EXIT_BAD_INPUT = 2  # --strict failures exit 3 (commands/compile.py)
EXIT_INTERNAL = 70


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    # NAME=VALUE pairs may stand on both sides of --json, which argparse alone refuses.
    args, extra = parser.parse_known_args(argv)
    if extra:
        if getattr(args, "command", None) == "query" and all(
                "=" in e and not e.startswith("-") for e in extra):
            args.assignments = [*args.assignments, *extra]
        elif getattr(args, "command", None) == "ask" and args.question is None and len(
                extra) == 1 and not extra[0].startswith("-"):
            args.question = extra[0]  # the question after an option: ask B --json "Q"
        else:
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if not getattr(args, "command", None):
        parser.print_help()
        return EXIT_BAD_INPUT
    try:
        with escaped_output():
            return int(args.run(args))
    except RulecError as exc:
        print(f"rulec: error: {_one_line(exc)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # noqa: BLE001 - the contract: never a traceback
        print(f"rulec: internal error: {type(exc).__name__}: {_one_line(exc)}", file=sys.stderr)
        return EXIT_INTERNAL


def _one_line(exc: BaseException) -> str:
    return escape_controls(" ".join(str(exc).split()))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rulec",
        description="Compile technical manuals into an exact, checksummed rule bundle, and "
        "evaluate sensor states against it.",
    )
    parser.add_argument("--version", action="version", version=f"rulec {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    from rulec.compiler.commands import ask as ask_commands
    from rulec.compiler.commands import compile as compile_commands
    from rulec.compiler.commands import eval as eval_commands
    from rulec.compiler.commands import evaluate, fleet, inspect, plot, refine, review

    for commands in (compile_commands, evaluate, inspect, eval_commands, refine, plot,
                     ask_commands, review, fleet):
        commands.register(sub)
    return parser


if __name__ == "__main__":
    sys.exit(main())
