"""The paper's evaluation: labelled corpora (``corpus``), the retrieval baselines
(``baselines``) and the runs that score rulec against them (``run``)."""
