"""The compile a review shows: the pipeline's own stages (read, extract, build) with the
engineer's decisions applied between extract and build, exactly as ``rulec compile
--decisions`` applies them, plus the knowledge-base checks and the bundle as the runtime
loads it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulec.compiler.review.decisions import Decision, apply_decisions

if TYPE_CHECKING:
    from rulec.compiler.build.writer import BundleBytes
    from rulec.compiler.kb.checks import Finding
    from rulec.compiler.pipeline import Compiled, Sources


@dataclass
class Reviewed:
    """One compile for review: result, findings, encoded bundle, decisions in force."""

    result: Compiled
    findings: list[Finding]
    made: BundleBytes
    decisions: list[Decision] = field(default_factory=list)  # the whole log, in order
    stale: list[Decision] = field(default_factory=list)  # on statements that changed

    def data(self) -> dict[str, Any]:
        from rulec.compiler.review.page import page_data

        return page_data(self.result, self.findings, self.made.bundle, self.made.bundle_id,
                         self.decisions, self.stale)


def created_from(sources: Sequence[Path]) -> str:
    """The bundle's ``created_from``, as ``rulec compile`` writes it."""
    return " ".join(s.name or str(s) for s in sources)


def compile_for_review(sources: Sequence[Path], decisions: Sequence[Decision] = (),
                       read: Sources | None = None) -> Reviewed:
    """Compile the sources (already read ones when given) with the decisions applied."""
    from rulec.compiler.build import writer
    from rulec.compiler.kb.checks import check_knowledge_base
    from rulec.compiler.pipeline import build, extract_rules, read_sources

    read = read if read is not None else read_sources(list(sources))
    applied = apply_decisions(extract_rules(read), list(decisions))
    result = build(applied.result, created_from(sources))
    made = writer.encode(result.payload)
    return Reviewed(result, check_knowledge_base(result), made, list(decisions),
                    applied.stale)
