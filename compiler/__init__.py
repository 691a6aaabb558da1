"""Ground-side compiler: manuals -> rule objects -> knowledge -> msgpack bundle.

The stages, in the order ``pipeline`` runs them: ``read/`` (statements, tables, PDF pages,
views), ``extract/`` (the offline extractor and its condition grammar), ``llm/`` (the
optional LLM extractor, its merge and fidelity check), ``model/`` (rule objects, units,
parameters, the sensors manifest), ``build/`` (boxes, CNF, graph, signing keys and the one
bundle writer).  After a compile: ``kb/`` (the provenance knowledge base, its checks and
the rule-box plot), ``ask/`` (questions in words answered from a bundle's rules),
``eval/`` (the paper's evaluation), ``refine/`` (AGB-RL threshold
refinement).  ``commands/`` holds the thin command-line handlers that ``cli`` dispatches to.
See docs/architecture.md.
"""

from typing import TYPE_CHECKING, Any

from rulec.compiler.version import __version__

if TYPE_CHECKING:
    from rulec.compiler.api import CompiledBundle as CompiledBundle
    from rulec.compiler.api import ask as ask
    from rulec.compiler.api import compile_manuals as compile_manuals

__all__ = ["__version__", "ask", "compile_manuals", "CompiledBundle"]


def __getattr__(name: str) -> Any:
    """The Python API (docs/python-api.md), imported on first use."""
    if name in ("ask", "compile_manuals", "CompiledBundle"):
        from rulec.compiler import api

        return getattr(api, name)
    raise AttributeError(f"module 'rulec.compiler' has no attribute {name!r}")
