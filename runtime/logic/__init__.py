"""The logic path: a bundle's rules as CNF, unit propagation to what a state implies, and
the conflicts and derivations that explain it.

``path`` holds ``LogicPath`` (the entry point), ``clauses`` the clause arrays read from the
bundle, ``propagation`` the propagation loop (C or Python), ``cone`` the SAT checks on a
conflict's cone, ``conflicts`` the minimal conflicting sets, ``result`` what a query gets
back.
"""
