"""After a compile: the provenance knowledge base in SQLite (``store``), the checks run on
a rule set (``checks``: unsatisfiable, never fires, shadowed, overlapping) and the
rule-box figure (``plot``)."""
