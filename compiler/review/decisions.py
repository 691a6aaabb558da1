"""The engineer's review decisions: a JSON-lines file, one decision a line, each keyed by
the hash of the statement it is about, with who, when and why.

A decision accepts, rejects or corrects a rule made from a statement, or turns a statement
the extractor could not read into a rule (``create``).  The file is an append-only log:
a later decision on the same statement (and rule) replaces an earlier one, and every
line stays for the reader.  ``apply_decisions`` applies the latest decisions to an
extraction before the bundle is built, so the next compile of the same manuals keeps
them.  A decision whose statement is no longer in the manuals (its words changed, so its
hash did) is not applied: the statement is flagged for review again.

The statement hash is the statement's id (``read.statements.statement_id``): a digest of
the file, the statement's words and which repeat of them it is.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulec.compiler.extract.offline import NEEDS_REVIEW, Problem
from rulec.compiler.model.rules import Rule, rule_from_json, rule_to_json
from rulec.compiler.read.statements import Statement
from rulec.compiler.review.provenance import StatementIndex
from rulec.runtime.errors import RuleSchemaError

if TYPE_CHECKING:
    from rulec.compiler.pipeline import CompileResult

ACTIONS = ("accept", "reject", "correct", "create")
RULE_ACTIONS = ("correct", "create")  # decisions that carry a rule object
FORMAT = "rulec-review-decision"
_DONE = {"accept": "accepted", "reject": "rejected", "correct": "corrected",
         "create": "created"}


@dataclass(frozen=True)
class Decision:
    """One line of the decisions file."""

    action: str
    statement: str  # the statement hash
    file: str
    line: int
    text: str  # the statement as it was when decided
    who: str
    when: str  # ISO 8601, UTC
    why: str
    page: int | None = None
    rule_id: str = ""  # the rule decided on (accept, reject, correct) or made (create)
    rule: Rule | None = None  # correct, create: the rule object that replaces / is added

    @property
    def key(self) -> tuple[str, str]:
        """Decisions with the same key replace one another; a reject covers the statement."""
        return (self.statement, "" if self.action == "reject" else self.rule_id)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT, "action": self.action,
                               "statement": self.statement, "file": self.file,
                               "line": self.line}
        if self.page is not None:
            out["page"] = self.page
        out.update(text=self.text, rule_id=self.rule_id, who=self.who, when=self.when,
                   why=self.why)
        if self.rule is not None:
            out["rule"] = rule_to_json(self.rule)
        return out


def now_utc() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def decision_from_json(obj: Any, at: str) -> Decision:
    """Validate one decision object; errors name ``at`` (file:line)."""
    if not isinstance(obj, dict):
        raise RuleSchemaError(f"{at}: a decision must be a JSON object")
    action = obj.get("action")
    if action not in ACTIONS:
        raise RuleSchemaError(f"{at}: action must be one of {', '.join(ACTIONS)}, "
                              f"not {action!r}")
    for key in ("statement", "file", "text", "who", "when", "why"):
        if not isinstance(obj.get(key), str) or (key != "why" and not obj[key].strip()):
            raise RuleSchemaError(f"{at}: {key!r} must be a non-empty string")
    line, page = obj.get("line"), obj.get("page")
    if not isinstance(line, int) or line < 1:
        raise RuleSchemaError(f"{at}: line must be a positive integer")
    if page is not None and (not isinstance(page, int) or page < 1):
        raise RuleSchemaError(f"{at}: page must be a positive integer")
    rule = None
    if action in RULE_ACTIONS:
        rule = rule_from_json(obj.get("rule"), f"{at}: rule")
        if rule.kind not in ("if_then", "constraint"):
            raise RuleSchemaError(f"{at}: a reviewed rule must be if_then or constraint")
    elif action == "accept" and "rule" in obj:  # the rule as it was accepted
        rule = rule_from_json(obj["rule"], f"{at}: rule")
    elif "rule" in obj:
        raise RuleSchemaError(f"{at}: an {action} decision carries no rule object")
    rule_id = obj.get("rule_id", rule.id if rule is not None else "")
    if not isinstance(rule_id, str) or (action != "reject" and not rule_id):
        raise RuleSchemaError(f"{at}: rule_id must name the rule decided on")
    if rule is not None and rule.id != rule_id and action == "create":
        raise RuleSchemaError(f"{at}: rule_id {rule_id!r} is not the rule's id {rule.id!r}")
    return Decision(action, obj["statement"], obj["file"], line, obj["text"], obj["who"],
                    obj["when"], obj["why"], page, rule_id, rule)


def load_decisions(path: Path) -> list[Decision]:
    """Every decision of the file in order (absent file: none)."""
    if not path.exists():
        return []
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RuleSchemaError(f"{path}: cannot read the decisions: {exc}") from None
    out = []
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise RuleSchemaError(f"{path}:{number}: not JSON: {exc.msg}") from None
        out.append(decision_from_json(obj, f"{path}:{number}"))
    return out


def append_decision(path: Path, decision: Decision) -> None:
    """Add one decision at the end of the log (created when absent)."""
    line = json.dumps(decision.to_json(), ensure_ascii=False, sort_keys=False)
    with path.open("a", encoding="utf-8") as out:
        out.write(line + "\n")


def latest(decisions: list[Decision]) -> list[Decision]:
    """The decisions in force, changes (reject, correct, create) before acceptances.

    The last change of each key wins: a reject covers the statement's every rule, and a
    later correction of one of its rules replaces the reject.  An acceptance confirms the
    rule in force (a corrected one stays corrected); an acceptance after a reject takes
    the rule back; a later change of the rule replaces the acceptance."""
    changes: dict[tuple[str, str], Decision] = {}
    accepts: dict[tuple[str, str], Decision] = {}
    for d in decisions:
        if d.action == "accept":
            changes.pop((d.statement, ""), None)
            accepts[d.key] = d
            continue
        if d.action == "reject":
            for table in (changes, accepts):
                for key in [k for k in table if k[0] == d.statement]:
                    del table[key]
        else:
            changes.pop((d.statement, ""), None)
            accepts.pop(d.key, None)
        changes[d.key] = d
    return [*changes.values(), *accepts.values()]


@dataclass
class Applied:
    """What the decisions did to one extraction."""

    result: CompileResult
    applied: list[Decision] = field(default_factory=list)
    stale: list[Decision] = field(default_factory=list)  # their statement changed


def apply_decisions(result: CompileResult, decisions: list[Decision]) -> Applied:
    """The extraction with the latest decisions applied (a new, frozen result)."""
    index = StatementIndex(result.documents)
    statements = index.by_id
    rules = list(result.rules)
    descriptive = list(result.descriptive)
    reasons = dict(result.descriptive_reasons)
    problems = list(result.problems)
    out = Applied(result)
    for d in latest(decisions):
        st = statements.get(d.statement)
        if st is None:
            out.stale.append(d)
            problems.append(Problem(d.file, d.line, f"the statement changed since it was "
                                    f"reviewed ({d.action} by {d.who}, {d.when}); review it "
                                    "again", d.text, kind=NEEDS_REVIEW, page=d.page))
            continue
        mine = [r for r in rules if d.statement in index.of_rule(r)]
        if d.action == "accept" and d.rule is not None:
            now = next((r for r in mine if r.id == d.rule_id), None)
            if now is None or not _same_rule(now, d.rule):
                out.stale.append(d)
                what = ("no longer yields it" if now is None else
                        "now yields it differently")
                problems.append(Problem(st.file, st.line, f"rule {d.rule_id} was accepted in "
                                        f"review ({d.who}, {d.when}) and the statement {what};"
                                        " review it again", st.text, kind=NEEDS_REVIEW,
                                        page=st.page))
                continue
        elif d.action == "reject":
            rules = [r for r in rules if r not in mine]
            if st not in descriptive:
                descriptive.append(st)
            reasons[st.id] = f"rejected in review by {d.who} ({d.when}): {d.why}"
        elif d.action == "correct":
            target = [r for r in mine if r.id == d.rule_id]
            if not target:
                out.stale.append(d)
                problems.append(Problem(st.file, st.line, f"review corrected rule "
                                        f"{d.rule_id}, which this statement no longer yields;"
                                        " review it again", st.text, kind=NEEDS_REVIEW,
                                        page=st.page))
                continue
            rules[rules.index(target[0])] = _reviewed(d, st)
        elif d.action == "create":
            if any(r.id == d.rule_id for r in rules):
                continue  # the extractor now reads it itself, under the same id
            rules.append(_reviewed(d, st))
            problems = [p for p in problems if not (_at(p, st) and p.fatal and _about(p, st))]
            descriptive = [s for s in descriptive if s.id != st.id]
        out.applied.append(d)
    out.result = dataclasses.replace(result, rules=tuple(rules),
                                     descriptive=tuple(descriptive),
                                     descriptive_reasons=reasons, problems=tuple(problems))
    return out


def _reviewed(d: Decision, st: Statement) -> Rule:
    """The decision's rule, pointing at the statement as it stands now, with a note."""
    assert d.rule is not None
    source = dict(d.rule.source)
    source.update(file=st.file, line=st.line, text=st.text, statement=st.id)
    if st.page is not None:
        source["page"] = st.page
    note = f"{_DONE[d.action]} in review by {d.who} ({d.when}): {d.why}"
    return dataclasses.replace(d.rule, source=source, notes=[*d.rule.notes, note])


def _same_rule(a: Rule, b: Rule) -> bool:
    """Equal as rules: the same condition, action, severity... wherever they were cited."""
    def key(rule: Rule) -> dict[str, Any]:
        obj = rule_to_json(rule)
        obj.pop("source", None)
        obj.pop("notes", None)
        return obj

    return key(a) == key(b)


def _at(problem: Problem, st: Statement) -> bool:
    return (problem.file, problem.line, problem.page) == (st.file, st.line, st.page)


def _about(problem: Problem, st: Statement) -> bool:
    """The report's words are the statement's (as written or as read), or part of them."""
    words = " ".join(problem.text.split())
    return bool(words) and (words in (st.text, " ".join(st.parse_text.split()))
                            or words in st.text or st.text in words)
