"""The offline extractor: statements -> rule objects, with no model in the loop.

``conditions`` reads one condition (comparisons, durations, and/or/unless) into a tree;
``offline`` classes each statement (rule, needs review, unreadable, descriptive) and
builds its rule object with the reason for every refusal.
"""
