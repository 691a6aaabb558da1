"""The `--extractor` and `--llm-*` flags, apart from the client so that building the
`rulec` parser does not import the extractor (a query starts faster)."""

from __future__ import annotations

import argparse
from pathlib import Path

__all__ = ["CACHE_DIR_NAME", "ENV_KEY", "ENV_MODEL", "ENV_URL", "add_llm_arguments"]

ENV_URL = "RULEC_LLM_URL"
ENV_MODEL = "RULEC_LLM_MODEL"
ENV_KEY = "RULEC_LLM_API_KEY"
CACHE_DIR_NAME = "rulec-llm-cache"  # the default cache folder, beside the knowledge base


def add_llm_arguments(parser: argparse.ArgumentParser) -> None:
    """The `--extractor` and `--llm-*` flags of `rulec compile` / `rulec extract`."""
    group = parser.add_argument_group("LLM extractor (docs/llm-extractor.md)")
    group.add_argument("--extractor", choices=("offline", "llm", "both"), default="offline",
                       help="offline (default, deterministic), llm (an OpenAI-compatible "
                       "endpoint), or both (merged; disagreements reported, offline wins)")
    group.add_argument("--llm-url", metavar="URL",
                       help=f"chat-completions base URL, e.g. http://localhost:8080/v1 "
                       f"(default ${ENV_URL})")
    group.add_argument("--llm-model", metavar="NAME", help=f"model name (default ${ENV_MODEL})")
    group.add_argument("--llm-key-env", metavar="VAR", default=ENV_KEY,
                       help=f"environment variable holding the API key (default {ENV_KEY})")
    group.add_argument("--llm-concurrency", metavar="N", type=int, default=4,
                       help="requests in flight at once (default 4)")
    group.add_argument("--llm-timeout", metavar="SECONDS", type=float, default=120.0,
                       help="per-request socket timeout (default 120)")
    group.add_argument("--llm-retries", metavar="N", type=int, default=2,
                       help="retries on 5xx, 429, timeouts and connection errors (default 2)")
    group.add_argument("--llm-cache", metavar="DIR", type=Path,
                       help="answer cache (default: beside the knowledge base / output)")
