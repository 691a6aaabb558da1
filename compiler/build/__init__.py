"""From rule objects to a bundle: axis-aligned boxes (``boxes``), CNF clauses (``cnf``),
the rule graph (``graph``), signing keys (``keys``), and the one bundle writer that packs,
signs and frames a payload for compile, refine and eval (``writer``)."""
