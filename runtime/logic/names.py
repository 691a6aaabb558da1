"""The words for a bundle's clauses: variable names, literals, rule ids and clause text.

The answer (``result``) and the conflict analysis (``conflicts``) explain themselves with
these and need nothing else of the logic path.
"""

from __future__ import annotations

from rulec.runtime.bundle.loader import Bundle
from rulec.runtime.logic.clauses import ClauseArrays


class ClauseNames:
    """One bundle's clause arrays, with the names that explain them."""

    def __init__(self, bundle: Bundle, arrays: ClauseArrays) -> None:
        self.bundle = bundle
        self.arrays = arrays

    def var_name(self, var: int) -> str:
        return self.bundle.cnf.variables[var - 1].name

    def literal_text(self, lit: int) -> str:
        return self.var_name(lit) if lit > 0 else f"not {self.var_name(-lit)}"

    def rule_id(self, index: int) -> str:
        return self.bundle.rules[index].id

    def clause_text(self, c: int) -> str:
        return " OR ".join(("NOT " if x < 0 else "") + f"[{self.var_name(abs(x))}]"
                           for x in self.arrays.clauses[c])
