"""The review of a compile: every statement and what became of it, as one HTML page
(``page``, ``html``), the engineer's decisions (``decisions``, ``server``) and the
traceability export (``trace``)."""
