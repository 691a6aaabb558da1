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
    from rulec.compiler.llm.client import LlmConfig
    from rulec.compiler.pipeline import Compiled, CompileResult


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


def extract_for_review(sources: Sequence[Path], extractor: str = "offline",
                       llm: LlmConfig | None = None) -> CompileResult:
    """Read and extract once; a served review applies each new decision to this."""
    from rulec.compiler.pipeline import extract_rules, read_sources

    return extract_rules(read_sources(list(sources)), extractor, llm)


def compile_for_review(sources: Sequence[Path], decisions: Sequence[Decision] = (),
                       extracted: CompileResult | None = None, extractor: str = "offline",
                       llm: LlmConfig | None = None) -> Reviewed:
    """Compile the sources (from an extraction already made, when given) with the
    decisions applied."""
    from rulec.compiler.build import writer
    from rulec.compiler.kb.checks import check_knowledge_base
    from rulec.compiler.pipeline import build

    if extracted is None:
        extracted = extract_for_review(sources, extractor, llm)
    applied = apply_decisions(extracted, list(decisions))
    result = build(applied.result, created_from(sources))
    made = writer.encode(result.payload)
    return Reviewed(result, check_knowledge_base(result), made, list(decisions),
                    applied.stale)
