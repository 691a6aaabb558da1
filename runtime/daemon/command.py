"""`rulec-onboard`'s command line: flags and the TOML file -> ``OnboardConfig`` ->
``--check`` (validate the bundle as the daemon would, print a JSON summary) or the
``Daemon`` with its signal handlers; errors become one line on stderr and an exit status.

Apart from the daemon so that ``Daemon`` is driven from code (tests,
``bench/bench_e2e.py``) without any of this, and the command line reads on its own.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from collections.abc import Callable
from typing import Any

from rulec.runtime.daemon import last_good
from rulec.runtime.daemon.config import OPTIONS, OnboardConfig, build_config, read_config_file
from rulec.runtime.daemon.input import channel_map
from rulec.runtime.daemon.loop import EXIT_OK, Daemon, EventLog, package_version
from rulec.runtime.daemon.reload import engine_loader
from rulec.runtime.errors import RulecError

EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 70

_EPILOG = """\
examples:
  rulec-onboard --bundle engine.rulec --serial /dev/ttyUSB0 --baudrate 921600
  rulec-onboard --bundle engine.rulec --serial /dev/pts/7          # a pty (rulec-sim)
  rulec-onboard --bundle engine.rulec --tcp-listen 7700            # 127.0.0.1:7700
  rulec-onboard --bundle engine.rulec --udp-listen 0.0.0.0:7701 --log /var/log/rulec.jsonl
  rulec-onboard --bundle engine.rulec --stdin csv < examples/scenarios/engine_test.csv
  rulec-onboard --config /etc/rulec/onboard.toml --check           # validate, exit 0/2
  rulec-onboard --config ccsds.toml --input-format ccsds --udp-listen 7702  # space packets
  rulec-onboard --bundle engine.rulec --trust fleet.pub --check    # pre-flight, signed

config file (--config, TOML): every option below is a top-level key named like the
flag without dashes (--heartbeat-s 2 is `heartbeat_s = 2.0`); flags override the file.

signals: SIGHUP reloads the bundle (kept only if it validates) and reopens --log;
SIGTERM/SIGINT flush, close the link and exit 0.  Exit status: 0 after a clean stop
(or --check passed), 2 for a bad configuration or an invalid first bundle.
Log lines and reload semantics: docs/onboard.md."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rulec-onboard",
        description="The onboard daemon: evaluates live telemetry against a rule bundle "
        "and sends advisories back.  Telemetry arrives as TELEMETRY frames (serial, TCP, "
        "UDP), CCSDS space packets or MAVLink (--input-format), or text samples (stdin); "
        "raise/clear events, sensor faults, link changes, reloads and summaries are written "
        "as JSON lines.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--config", metavar="FILE", help="TOML file with any of the options below")
    parser.add_argument(
        "--check",
        action="store_true",
        help="load and validate the bundle as the daemon would, print a "
        "JSON summary and exit (0 valid, 2 not)",
    )
    parser.add_argument("--version", action="version", version=f"rulec-onboard {package_version()}")
    groups: dict[str, argparse._ArgumentGroup] = {}
    for option in OPTIONS:
        group = groups.get(option.group)
        if group is None:
            group = groups[option.group] = parser.add_argument_group(option.group)
        default = "" if option.default is None else f" [default: {option.default}]"
        kind: Callable[[str], Any] = option.kind
        group.add_argument(
            option.flag,
            dest=option.key,
            type=kind,
            default=None,
            metavar=option.metavar,
            help=option.help + default,
        )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        file_values = read_config_file(args.config) if args.config else {}
        flags = {o.key: getattr(args, o.key) for o in OPTIONS}
        config = build_config(file_values, flags, need_input=not args.check)
        if args.check:
            return _check(config)
        log = EventLog(config.log)
        daemon = Daemon(config, log)
    except RulecError as exc:
        print(f"rulec-onboard: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except Exception as exc:  # noqa: BLE001 - never a traceback
        print(f"rulec-onboard: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_INTERNAL
    _install_signals(daemon)
    try:
        status = daemon.run()
        log.close()
        if log.lost:
            print(f"rulec-onboard: error: {log.lost} log line(s) could not be written to "
                  f"{config.log}", file=sys.stderr)
            return EXIT_LOG_LOST if status == EXIT_OK else status
        return status
    except Exception as exc:  # noqa: BLE001 - log it as a line, exit non-zero for systemd
        log.write({"event": "crash", "level": "error", "error": f"{type(exc).__name__}: {exc}"})
        print(f"rulec-onboard: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_INTERNAL
    finally:
        log.close()


EXIT_LOG_LOST = 74  # EX_IOERR: the run went on, but its log lines were lost


def _check(config: OnboardConfig) -> int:
    load = engine_loader(config.trust)  # the daemon's start and reload path
    # the daemon would start from the kept copy when the bundle is refused
    engine, fallback = last_good.load_or_kept(config.bundle, config.last_good, load)
    bundle = engine.bundle
    print(
        json.dumps(
            {
                "ok": True,
                "bundle": str(config.bundle),
                "bundle_id": bundle.meta.get("bundle_id"),
                "digest": bundle.digest,
                "format": bundle.format_version,
                "rules": len(bundle.rules),
                # rules whose boxes and clauses were derived again and agree; null: the
                # bundle has no unit table to derive them with (an older compiler)
                "derived_from_rules": bundle.derived,
                "parameters": [
                    {"name": p.name, "unit": p.unit, "channel": p.channel, "max_age_s": p.max_age_s}
                    for p in bundle.parameters
                ],
                "input": config.input_text if config.has_input else None,
                "signature": bundle.signature.to_json(),
                "warning": bundle.signature.warning(),
                **({"fallback": {"last_good": config.last_good, "refused": fallback}}
                   if fallback is not None else {}),
            },
            ensure_ascii=False,
        )
    )
    if bundle.derived is None:
        print("rulec-onboard: warning: the bundle has no unit table: its boxes were not "
              "derived again from its rules (recompile it with this rulec)", file=sys.stderr)
    if config.has_input and config.input_kind != "stdin" and not channel_map(engine):
        print(
            "rulec-onboard: warning: no parameter has a telemetry channel; frames "
            "cannot carry any value",
            file=sys.stderr,
        )
    return EXIT_OK


def _install_signals(daemon: Daemon) -> None:
    if threading.current_thread() is not threading.main_thread():
        return
    signal.signal(signal.SIGTERM, lambda *_: daemon.request_stop("SIGTERM"))
    signal.signal(signal.SIGINT, lambda *_: daemon.request_stop("SIGINT"))
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, lambda *_: daemon.request_reload("SIGHUP"))


if __name__ == "__main__":
    sys.exit(main())
