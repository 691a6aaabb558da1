"""`rulec compile` (manuals -> bundle and knowledge base) and `rulec extract` (manuals ->
reviewable rule objects): the pipeline's stages run by ``pipeline.compile_sources``, the
bundle written by ``build.writer``; `rulec keygen` makes the key pair `--sign` takes."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rulec.compiler.build.keys import generate_keypair, public_key_path
from rulec.compiler.commands.outputs import (
    is_stdout,
    refuse_overwriting_inputs,
    refuse_two_on_stdout,
)
from rulec.compiler.llm.flags import add_llm_arguments

EXIT_STRICT = 3  # --strict and a statement that looks like a rule is unreadable


def register(sub: Any) -> None:
    """Add `compile`, `extract` and `keygen` to the `rulec` sub-command parsers."""
    _register_keygen(sub)
    p = sub.add_parser("compile", help="manuals (folders, .txt, .md, rules .jsonl) -> bundle",
                       description="Compile manuals into a bundle.  A folder may hold a "
                       "sensors.toml that applies to its documents.")
    _sources_and_output(p, "BUNDLE")
    p.add_argument("-q", "--quiet", action="store_true", help="print no summary")
    p.add_argument("--kb", type=Path, metavar="PATH",
                   help="where to write the provenance knowledge base (SQLite; default "
                   "BUNDLE.kb.sqlite beside the bundle)")
    p.add_argument("--sign", type=Path, metavar="KEY",
                   help="sign the bundle with this Ed25519 private key (from rulec keygen; "
                   "needs the [sign] extra)")
    add_llm_arguments(p)
    p.set_defaults(run=run_compile)

    p = sub.add_parser("extract", help="manuals -> reviewable rule objects (JSON lines)",
                       description="Write the rule objects as JSON lines with provenance; "
                       "edit them and give the file back to `rulec compile`.")
    _sources_and_output(p, "RULES.jsonl")
    add_llm_arguments(p)
    p.set_defaults(run=run_extract)


def _sources_and_output(p: argparse.ArgumentParser, output: str) -> None:
    """The options compile and extract share: what to read, where to write, how to judge."""
    p.add_argument("sources", nargs="+", type=Path, metavar="SRC")
    p.add_argument("-o", "--output", required=True, type=Path, metavar=output,
                   help="where to write ('-': standard output); never one of the inputs")
    p.add_argument("--strict", action="store_true",
                   help="fail (exit 3) when any statement that looks like a rule is unreadable "
                   "or needs review")
    p.add_argument("--json", action="store_true",
                   help="print what became of every statement as one JSON object on stdout")
    p.add_argument("--decisions", type=Path, metavar="FILE",
                   help="apply the review decisions of this file (from `rulec review "
                   "--serve`, docs/review.md): accepted, rejected, corrected and added "
                   "rules; a decision on a statement that changed since is flagged for "
                   "review again")


def run_compile(args: argparse.Namespace) -> int:
    from rulec.compiler.build import writer
    from rulec.compiler.build.keys import load_signing_key
    from rulec.compiler.kb.checks import check_knowledge_base
    from rulec.compiler.kb.store import default_kb_path, write_knowledge_base
    from rulec.compiler.llm.client import CACHE_DIR_NAME, config_from_args
    from rulec.compiler.pipeline import compile_sources

    to_stdout = is_stdout(args.output)
    kb_path = args.kb if to_stdout else args.kb or default_kb_path(args.output)
    refuse_two_on_stdout(args.output, args.json)
    refuse_overwriting_inputs([("-o", args.output), ("--kb", kb_path)],
                              [*args.sources, *([args.sign] if args.sign else []),
                               *([args.decisions] if args.decisions else [])])
    key = load_signing_key(args.sign) if args.sign else None  # a bad key fails before work
    decisions = _decisions(args.decisions)
    applying = _Applying(decisions)
    kb_dir = (kb_path or Path(".")).parent
    llm = config_from_args(args, default_cache=kb_dir / CACHE_DIR_NAME)
    result = compile_sources(list(args.sources),
                             " ".join(s.name or str(s) for s in args.sources),
                             extractor=args.extractor, llm=llm,
                             progress=_progress(args.sources, args.quiet),
                             amend=applying if decisions else None)
    errors = result.errors
    findings = check_knowledge_base(result)
    summary = summary_json(result)
    if decisions:
        summary["decisions"] = applying.summary()
    if not args.quiet:
        _report(result, summary)
        applying.report()
        _report_findings(findings)
    if args.strict and errors:
        _print_json(args, summary, written=False)
        _strict_failure(errors)
        return EXIT_STRICT
    made = writer.encode(result.payload, key)  # a bundle the runtime refuses stops here
    if kb_path is not None:
        write_knowledge_base(kb_path, result)  # first: the bundle changes only if both do
    if to_stdout:
        sys.stdout.buffer.write(made.data)
        sys.stdout.buffer.flush()
    else:
        writer.write_encoded(args.output, made)
    if not args.quiet:
        kb_said = f" and {kb_path}" if kb_path is not None else " (no knowledge base: --kb)"
        where = "the bundle to stdout" if to_stdout else str(args.output)
        print(f"wrote {where} ({made.describe()}){kb_said}", file=sys.stderr)
    summary.update(bundle=str(args.output), bundle_id=made.bundle_id,
                   knowledge_base=str(kb_path) if kb_path is not None else None,
                   checks=[str(f) for f in findings])
    _print_json(args, summary, written=True)
    return 0


def _decisions(path: Path | None) -> list[Any]:
    """The decisions file of ``--decisions``; naming one that does not exist is an error."""
    if path is None:
        return []
    from rulec.compiler.review.decisions import load_decisions
    from rulec.runtime.errors import DocumentError

    if not path.is_file():
        raise DocumentError(f"{path}: no such decisions file")
    return load_decisions(path)


class _Applying:
    """The pipeline's ``amend`` for review decisions, keeping what they did to report it."""

    def __init__(self, decisions: list[Any]) -> None:
        self.decisions = decisions
        self.applied = 0
        self.stale = 0

    def __call__(self, result: Any) -> Any:
        from rulec.compiler.review.decisions import apply_decisions

        done = apply_decisions(result, self.decisions)
        self.applied, self.stale = len(done.applied), len(done.stale)
        return done.result

    def summary(self) -> dict[str, int]:
        return {"in_file": len(self.decisions), "applied": self.applied, "flagged": self.stale}

    def report(self) -> None:
        if self.decisions:
            print(f"review decisions: {self.applied} applied, {self.stale} on statements "
                  "that changed since (flagged: needs review)", file=sys.stderr)


LONG_INPUT_BYTES = 1_000_000  # inputs above this say each stage on stderr as it ends


def _progress(sources: list[Path], quiet: bool) -> Any:
    """A line on stderr per stage for a long input (a compile of many megabytes should
    not be silent for a minute), None otherwise."""
    if quiet:
        return None
    total = 0
    for src in sources:
        files = src.rglob("*") if src.is_dir() else [src]
        total += sum(f.stat().st_size for f in files if f.is_file())
    if total < LONG_INPUT_BYTES:
        return None
    return lambda line: print(f"rulec: {line}", file=sys.stderr, flush=True)


def _print_json(args: argparse.Namespace, summary: dict[str, Any], written: bool) -> None:
    if args.json:
        print(json.dumps({**summary, "written": written}, ensure_ascii=False))


def _strict_failure(errors: list[Any]) -> None:
    print(f"rulec: error: {len(errors)} statement(s) unreadable or needing review "
          f"(--strict); first: {errors[0]}", file=sys.stderr)


def run_extract(args: argparse.Namespace) -> int:
    from rulec.compiler.llm.client import CACHE_DIR_NAME, config_from_args
    from rulec.compiler.model.rules import dumps_rule
    from rulec.compiler.pipeline import collect_rules
    from rulec.runtime.errors import DocumentError

    refuse_two_on_stdout(args.output, args.json)
    refuse_overwriting_inputs([("-o", args.output)],
                              [*args.sources, *([args.decisions] if args.decisions else [])])
    applying = _Applying(_decisions(args.decisions))
    llm = config_from_args(args, default_cache=args.output.parent / CACHE_DIR_NAME)
    result = collect_rules(list(args.sources), extractor=args.extractor, llm=llm)
    if applying.decisions:
        result = applying(result)
    summary = summary_json(result)
    if applying.decisions:
        summary["decisions"] = applying.summary()
    _report(result, summary)
    applying.report()
    if args.strict and result.errors:
        _print_json(args, summary, written=False)
        _strict_failure(result.errors)
        return EXIT_STRICT
    text = "".join(dumps_rule(rule) + "\n" for rule in result.rules)
    if is_stdout(args.output):
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        try:
            args.output.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise DocumentError(f"{args.output}: cannot write: {exc.strerror or exc}") from None
    print(f"wrote {len(result.rules)} rule objects to {args.output}", file=sys.stderr)
    _print_json(args, {**summary, "rule_objects": str(args.output)}, written=True)
    return 0


def _report_findings(findings: list[Any]) -> None:
    """The knowledge-base checks (compiler/kb/checks.py): reported, never fatal."""
    counts: dict[str, int] = {}
    for finding in findings:
        counts[finding.kind] = counts.get(finding.kind, 0) + 1
    summary = ", ".join(f"{n} {k}" for k, n in sorted(counts.items())) or "no findings"
    print(f"knowledge-base checks: {summary}", file=sys.stderr)
    for finding in findings:
        print(f"  check: {finding}", file=sys.stderr)


def summary_json(result: Any) -> dict[str, Any]:
    """What became of every statement: rules by kind, and each statement that yielded
    none with its class and reason (unreadable, needs review, descriptive)."""
    from rulec.compiler.extract.offline import NEEDS_REVIEW, NOTE, UNREADABLE

    kinds: dict[str, int] = {}
    for rule in result.rules:
        kinds[rule.kind] = kinds.get(rule.kind, 0) + 1
    descriptive = []
    for st in result.descriptive:
        item: dict[str, Any] = {"file": st.file, "line": st.line}
        if st.page is not None:
            item["page"] = st.page
        item.update(text=st.text, reason=result.descriptive_reason(st))
        descriptive.append(item)
    return {
        "documents": len(result.documents),
        "rules": kinds,
        "counts": {"rules": len(result.rules), UNREADABLE: len(result.of_kind(UNREADABLE)),
                   NEEDS_REVIEW: len(result.of_kind(NEEDS_REVIEW)),
                   "descriptive": len(result.descriptive), NOTE: len(result.of_kind(NOTE))},
        "problems": [p.to_json() for p in in_line_order(result.problems)],
        "descriptive": descriptive,
    }


def in_line_order(problems: Any) -> list[Any]:
    """Problems by file, then page and line, as an engineer reads the manual."""
    return sorted(problems, key=lambda p: (p.file, p.page or 0, p.line))


def _report(result: Any, summary: dict[str, Any]) -> None:
    """The summary line and every statement that is not a rule, on stderr."""
    from rulec.compiler.extract.offline import NEEDS_REVIEW, UNREADABLE

    counts = summary["counts"]
    kinds = ", ".join(f"{n} {k}" for k, n in sorted(summary["rules"].items())) or "no rules"
    print(f"{summary['documents']} document(s): {kinds}; "
          f"{counts['descriptive']} descriptive statement(s); "
          f"{counts[UNREADABLE]} unreadable; {counts[NEEDS_REVIEW]} need(s) review",
          file=sys.stderr)
    for problem in in_line_order(result.problems):
        print(f"  {problem.kind}: {problem}", file=sys.stderr)
    if result.llm_requests or result.llm_cache_hits or result.rejected:
        print(f"llm: {result.llm_requests} request(s), {result.llm_cache_hits} cached "
              f"answer(s), {len(result.rejected)} rule(s) rejected by the fidelity filter, "
              f"{len(result.disagreements)} disagreement(s)", file=sys.stderr)
    for rejection in result.rejected:
        print(f"  {rejection}", file=sys.stderr)
    for disagreement in result.disagreements:
        print(f"  disagreement: {disagreement}", file=sys.stderr)


def _register_keygen(subparsers: Any) -> None:
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
