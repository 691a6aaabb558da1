"""The compiler as a Python call: manuals in, a bundle and its knowledge base out, with
the same checks as ``rulec compile`` (docs/python-api.md)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rulec.compiler.commands.outputs import refuse_overwriting_inputs
from rulec.compiler.extract.offline import Problem
from rulec.compiler.pipeline import compile_sources

if TYPE_CHECKING:
    from rulec.compiler.ask.compose import AskAnswer
    from rulec.compiler.llm.client import LlmConfig
    from rulec.runtime.bundle.loader import Bundle
    from rulec.runtime.engine.engine import Engine


@dataclass(frozen=True)
class CompiledBundle:
    """What a compile wrote: the bundle, its id and the statements it could not use."""

    bundle: Path
    knowledge_base: Path
    bundle_id: str
    rules: int
    problems: tuple[Problem, ...]


def compile_manuals(sources: Sequence[str | Path], output: str | Path, *,
                    kb: str | Path | None = None) -> CompiledBundle:
    """Compile manuals (folders, .txt, .md, .pdf, reviewed rules .jsonl) into ``output``
    with the offline extractor; the knowledge base goes to ``kb`` (default beside the
    bundle).  An output that is an input is refused (DocumentError)."""
    from rulec.compiler.build import writer
    from rulec.compiler.kb.store import default_kb_path, write_knowledge_base

    paths = [Path(s) for s in sources]
    out = Path(output)
    kb_path = Path(kb) if kb is not None else default_kb_path(out)
    refuse_overwriting_inputs([("output", out), ("kb", kb_path)], paths)
    result = compile_sources(paths, " ".join(p.name or str(p) for p in paths))
    made = writer.encode(result.payload)
    write_knowledge_base(kb_path, result)
    writer.write_encoded(out, made)
    return CompiledBundle(out, kb_path, made.bundle_id, len(result.payload["rules"]),
                          tuple(result.problems))


def ask(bundle: str | Path | Bundle | Engine, question: str, *,
        llm: LlmConfig | None = None) -> AskAnswer:
    """Answer a question in words from a bundle's rules alone, as ``rulec ask`` does: the
    state read from it, the rules cited by id and file:line (``.answer``, ``.to_json()``).
    With ``llm``, a model may reword the answer; the fidelity check keeps the templated
    answer when it adds anything (``.synthesis`` says why)."""
    from rulec.compiler.ask.compose import Answerer
    from rulec.compiler.ask.synthesis import Synthesizer
    from rulec.runtime.engine.engine import Engine

    engine = bundle if isinstance(bundle, Engine) else (
        Engine.from_file(str(bundle)) if isinstance(bundle, str | Path) else Engine(bundle))
    answer = Answerer(engine).ask(question)
    if llm is not None:
        Synthesizer(llm, engine.bundle).reword(answer)
    return answer
