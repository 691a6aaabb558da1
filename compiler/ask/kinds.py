"""What a question asks: the paper's five kinds of query, told apart by their words.

- ``applies``: what applies (what to do) in the state the question gives;
- ``steps``: the ordered steps of a procedure;
- ``what_if``: what happens if a value is reached, or at what value a parameter triggers
  (the nearest boundaries);
- ``concern``: which rules concern a parameter (or an action);
- ``allowed``: is this state (or action) allowed.

The words decide first (a question that gives values never asks for steps: "only 3
units left - what's the procedure?" asks what applies); a question with none of them
asks what applies when it gives values, and which rules concern the parameters it
names otherwise.
"""

from __future__ import annotations

import re

KINDS = ("applies", "steps", "what_if", "concern", "allowed")

_STEPS = re.compile(
    r"\b(steps?|procedures?|checklists?|sequence|instructions?)\b|"
    r"\bhow (do|can|should|must|would) (i|we|you|one|the operator|staff)\b|"
    r"\bhow to\b|\bin what order\b|\bwhat do i do to\b|\bwalk (me|us) through\b|"
    r"\bguide (me|us) through\b", re.IGNORECASE)
_CONCERN = re.compile(
    r"\b(which|what|any|list|show)\b.{0,30}\b(rules?|limits?|requirements?|statements?|"
    r"thresholds?|constraints?|conditions?|guidance|policies|policy)\b.{0,30}"
    r"\b(concern|concerns|about|for|on|apply to|involve|involves|mention|mentions|govern|"
    r"governs|cover|covers|relate|relates|regarding|exist)\b|"
    r"\bwhat does the (manual|document|guideline|policy|standard) say\b|"
    r"\b(tell me about|everything about|rules? (about|for|on|concerning|regarding))\b",
    re.IGNORECASE)
_WHAT_IF = re.compile(
    r"\bwhat (happens|would happen|will happen|occurs|if|should happen)\b|"
    r"\bat what\b|"
    r"\b(when|where) does\b.{0,60}\b(trigger|fire|start|kick in|apply|become)\b|"
    r"\bhow (high|low|far|much|many)\b.{0,40}\b(before|until|can)\b|"
    r"\b(next|nearest|closest) (threshold|limit|boundary)\b|\btrigger(s|ed)? at\b|"
    r"\bsuppose\b|\bimagine\b|\bhypothetically\b", re.IGNORECASE)
_ALLOWED = re.compile(
    r"\b(allowed|permitted|permissible|acceptable|ok|okay|safe|fine|compliant|legal|eligible|"
    r"within (the )?limits?|in limits|authori[sz]ed)\b|"
    r"(^|[:;,.]\s*)(can|may|could|should) (i|we|you|the|a|an|they|he|she|it|this)\b|"
    r"\bam i allowed\b|"
    r"\bis it (ok|okay|safe|fine)\b", re.IGNORECASE)


def question_kind(question: str, has_values: bool) -> str:
    """The kind of a question (one of ``KINDS``)."""
    if _STEPS.search(question) and not _CONCERN.search(question) and not has_values:
        return "steps"  # with a state given, "what's the procedure?" asks what applies
    if _CONCERN.search(question) and not has_values:
        return "concern"
    if _WHAT_IF.search(question):
        return "what_if"
    if _ALLOWED.search(question):
        return "allowed"
    return "applies" if has_values else "concern"
