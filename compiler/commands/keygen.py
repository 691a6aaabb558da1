"""`rulec keygen -o NAME`: a new Ed25519 key pair for signing bundles (``build/keys.py``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from rulec.compiler.build.keys import generate_keypair, public_key_path


def register(subparsers: Any) -> None:
    """Add the `keygen` command to the `rulec` sub-command parsers."""
    p = subparsers.add_parser(
        "keygen", help="a new Ed25519 key pair for signing bundles",
        description="Write a private key to NAME (PEM, mode 0600; keep it on the ground) "
        "and its public key to NAME.pub (give it to the vehicle: rulec-onboard --trust). "
        "Needs the [sign] extra.")
    p.add_argument("-o", "--output", required=True, type=Path, metavar="NAME")
    p.add_argument("--force", action="store_true", help="replace existing key files")
    p.set_defaults(run=run_keygen)


def run_keygen(args: argparse.Namespace) -> int:
    key = generate_keypair(args.output, force=args.force)
    print(f"wrote {args.output} (private, mode 0600) and {public_key_path(args.output)}; "
          f"key id {key.key_id.hex()}", file=sys.stderr)
    return 0
