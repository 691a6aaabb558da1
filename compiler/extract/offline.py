"""The deterministic offline extractor: statements -> rule objects, no LLM.

Each statement is read in one of a few shapes: an if-then rule ("If C, do A",
"Do A if C"), a constraint that fires when violated ("X must not exceed N",
"Maximum X: N", "Applicants younger than 18 years are not eligible"), an
exclusion ("Do not A and B at the same time"), a step of a numbered procedure,
or a descriptive sentence that yields no rule.  What it cannot read but looks
like a rule is reported with file, line and reason.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from rulec.compiler.extract.conditions import (
    ParsedCondition,
    find_comparisons,
    find_states,
    may_hold_number,
    parse_condition,
    tokenize,
    unread_state,
)
from rulec.compiler.extract.spec_lines import spec_line_sentences
from rulec.compiler.model.parameters import ParameterTable, words_of
from rulec.compiler.model.rules import Atom, Condition, Not, Rule, Step
from rulec.compiler.model.units import Unit, units_compatible
from rulec.compiler.read.statements import PARAGRAPH_MARK, Statement
from rulec.runtime.vocabulary import SEVERITIES

# A word that links a sentence to the one before, ahead of its condition: "On the other
# hand, if the RH is greater than 85% ..., then ...".
_DISCOURSE = re.compile(r"^(?:on the other hand|however|otherwise|in addition|similarly|"
                        r"likewise|conversely|alternatively|further(?:more)?|also),\s*",
                        re.IGNORECASE)
_LEADING_CONDITIONAL = re.compile(
    r"^(?:if|when|whenever|once|while|whilst|should|in case|as soon as|in the event that|"
    r"where|any time|each time)\b\s*",
    re.IGNORECASE,
)
_MID_CONDITIONAL = re.compile(
    r"(?:,\s*|\s+)\b(?:if|when|whenever|once|as soon as|as long as|in case(?: of)?|"
    r"in the event (?:that|of)|upon|"
    r"(?:at any time|any time|every time|each time|should)(?=\s+(?:the|a|an|any|its|this|"
    r"either)\b))\s+",
    re.IGNORECASE,
)
# Where an order applies, said before it without a number: "In the incident section, ...".
_LEADING_PLACE = re.compile(r"^(?:in|at|on|inside|within)\s+(?:the|an?|each|every|any)\s+"
                            r"[^,\d]{1,50},\s+", re.IGNORECASE)
_PHASE_ASIDE = re.compile(r"^,\s*(?:(?:during|in|at|throughout|within|while in|on)\s+[^,\d]{1,60}|"
                          r"when (?:tested|measured|sampled|checked|read)),\s*", re.IGNORECASE)
# The fields of a cause-and-effect entry, by what each says.
_FIELD = re.compile(r"(?:^|(?<=\s))(?P<name>causes?|initiating (?:causes?|events?)|initiators?|"
                    r"triggers?|effects?|actions?|responses?|resets?|notes?|remarks?|"
                    r"comments?)\s*:\s+", re.IGNORECASE)
_FIELD_ROLES = {"cause": "cause", "initiating cause": "cause", "initiating event": "cause",
                "initiator": "cause", "trigger": "cause", "effect": "effect",
                "action": "effect", "response": "effect"}
_MORE_ORDER = re.compile(r",\s*(?:and|then)\s+(?P<order>[^,]+)$", re.IGNORECASE)
_MID_WHILE = re.compile(r"(?:,\s*|\s+)\b(?:while|whilst)\s+", re.IGNORECASE)
# What a safety system does, said as a fact: with a condition, an order all the same.
_INTERLOCK = re.compile(
    r"\b(?:interlocked|inhibited|locked out|blocked|shut (?:off|down|in)|tripped|isolated|"
    r"disabled|prevented)\b", re.IGNORECASE)
_LEADING_UNLESS = re.compile(r"^(?:unless|except when|except if)\b\s*", re.IGNORECASE)
_KEEP = re.compile(r"^(?:always\s+)?(?:keep|maintain|ensure|make sure)\b(?:\s+that\b)?\s*",
                   re.IGNORECASE)
# A prepositional condition before the order: "At vibration above 6 mm/s, schedule ...".
_LEADING_CONTEXT = re.compile(r"^(?:at|for|upon|on|with|in the event of|in case of)\s+",
                              re.IGNORECASE)
_UNLESS = re.compile(r"(?:,\s*|\s+)\b(unless|except when|except if|except while)\b\s+",
                     re.IGNORECASE)
_RULE_WORDS = re.compile(
    r"\b(must|shall|should|require[sd]?|needs? to|has to|have to|not (?:be )?(?:eligible|"
    r"permitted|allowed|permissible)|impermissible|prohibited|forbidden|do not|don't|never|"
    r"cannot|can't|may not|may at (?:most|least)|"
    r"(?:nobody|no one|no-one|no person|no personnel)\s+(?:may|is allowed to|is permitted to)|"
    r"is to|are to|is not to|are not to|is limited|are limited|maximum|minimum|limit|avoid)\b"
    # "max." / "min." as limits, not the minute of "mL/min", "5 min" or "per min"
    r"|(?<![/\d])(?<!\d )(?<!per )\b(?:max|min)\b\.?",
    re.IGNORECASE,
)
_MAX_MIN = re.compile(
    r"^(?:the\s+)?(?P<kind>maximum|max\.?|upper limit(?: of| for)?|minimum|min\.?|"
    r"lower limit(?: of| for)?)\s+(?P<phrase>[^:=]+?)\s*(?::|=|(?<!\d),(?=\s*[+\-−]?\d)|\bis\b|"
    r"\bshall be\b|\bmust be\b|\bof\b)\s*(?P<rest>[+\-−]?\d.*)$",
    re.IGNORECASE,
)
# "Oil temperature: maximum 245 °F", "EGT limit: 950 °C", "Cell voltage (min): 3.0 V"
_MAX_MIN_AFTER = re.compile(
    r"^(?:the\s+)?(?P<phrase>[^:=()]+?)\s*(?:[:,(]\s*)?(?P<kind>maximum|max\.?|upper limit|"
    r"limit|minimum|min\.?|lower limit)\s*\)?\s*(?::|=|\bis\b|\bof\b)?\s*"
    r"(?P<rest>[+\-−]?\d.*)$",
    re.IGNORECASE,
)
# "Superheat: 25 K maximum", "Dryness value: 0.95 min.": the kind word after the value
_MAX_MIN_TRAILING = re.compile(
    r"^(?:the\s+)?(?P<phrase>[^:=()\d]+?)\s*:\s*(?P<rest>[+\-−]?\d[^:()]*?)\s*\(?"
    r"(?P<kind>maximum|max\.?|minimum|min\.?)\)?\.?$",
    re.IGNORECASE,
)
# A remark in brackets without a number ("The isolator pressure (relative to the filling
# room) shall ...") stands between a parameter and its comparison; it is read past.
# One-word brackets stay: "Cell voltage (min): 3.0 V", "oil temperature (OT)".
# A bracketed exception, condition or inhibition ("(except during proof testing)") stays.
_PARENTHETICAL = re.compile(
    r"\s*\((?!\s*(?:except|unless|only|if|when|while|during|provided|inhibited)\b)"
    r"(?=[^()\d]*\s)[^()\d]*\)", re.IGNORECASE)
# The basis of a concentration, said after its name: "Oxygen content (v/v) of 19.5-23.5%".
_BASIS = re.compile(r"\s*\((?:v/v|w/w|w/v|m/m|vol\.?|wt\.?|mol)\)", re.IGNORECASE)
# A clause's own number: "(3) If the pool temperature ...", "b) ...", "6.3.2   If the
# particle count ..." (a section number before a capital, not a value like "0.5 µm").
_ENUMERATOR = re.compile(
    r"^(?:(?:\((?:\d{1,3}|[a-z]|[ivx]{1,4})\)){2,3}|\(?(?:\d{1,3}|[a-z]|[ivx]{1,4})\)|(?:[A-Z]\.)?\d{1,2}(?:\.\d{1,2}){1,4}\.?"
    r"(?=\s+[A-Z(])|[A-Z](?:\.\d{1,2}){1,4}\.?(?=\s+[A-Z(]))\s+")
# An entry of such a list: "a) Potassium: less than 2.8 mmol/L or greater than 6.2 mmol/L".
_LABELLED_LIMIT = re.compile(
    r"^(?P<label>[^:]{1,60}?)\s*:\s*(?P<cond>(?:less than|greater than|more than|fewer than|"
    r"lower than|higher than|below|above|under|over|at least|at most|not more than|"
    r"not less than|no more than|no less than|between|outside|from|[<>≤≥])\s*[+\-−]?\d.*)$",
    re.IGNORECASE)
# An order whose object carries the condition: "Report INR results from 4.5 to 5.0 to the
# anticoagulation clinic", "Discard units stored above 8 °C".
_ORDER_FIRST = re.compile(
    r"^(?:report|notify|inform|call|page|alert|escalate|reject|discard|quarantine|isolate|"
    r"segregate|flag|record|log|repeat|retest|investigate|recheck|evacuate|withdraw|"
    r"replace|remove|return|stop|switch off|shut down|disconnect|ask|request|instruct)\b",
    re.IGNORECASE)
# An order allowed only under a condition applies when the condition fails: "may only be
# applied when ...", "Only release a batch when ...".
_ONLY = re.compile(r"(?:^only\b|\b(?:may|can|shall|must|should|is to|are to)\s+only\b)",
                   re.IGNORECASE)
# An alarm's name in square brackets before its text: "[VENOUS PRESSURE HIGH] Should ...".
_BRACKET_LABEL = re.compile(r"^\[[^\]\d]{2,60}\]\s+")
# "Dialysate temperature: min. 35.0 °C, max. 39.0 °C": both limits on one line.
_MIN_MAX_PAIR = re.compile(
    r"^(?P<phrase>[^:]{2,60}?)\s*:\s*(?:min(?:imum)?\.?)\s*(?P<lo>[+\-−]?\d[^,;]*?)\s*[,;]\s*"
    r"(?:max(?:imum)?\.?)\s*(?P<hi>[+\-−]?\d.*)$", re.IGNORECASE)
_LEADER = re.compile(r"\s*(?:\.{3,}|…+)\s*")  # dotted leaders of a limitations list
# "is or becomes less than": the verb that moves is the one meant.
_EITHER_VERB = re.compile(r"\b(?:is|are) or (?P<verb>becomes?|falls?|drops?|rises?|gets?|"
                          r"goes|go)\b", re.IGNORECASE)
# "Under no circumstances may the chamber pressure exceed 3.0 bar": an inverted "never".
_LEADING_NEVER = re.compile(
    r"^(?:under no circumstances|at no time|in no case|on no account)\s*,?\s+"
    r"(?:may|must|shall|should|can|will)\s+(?!not\b)", re.IGNORECASE)
# An abbreviation in brackets after a limitation line's parameter ("Rotor speed (NR),
# power on, maximum ..... 104 %"): its words stay in the name, its brackets go.
# Words in brackets reach it only when they name a parameter ("(Heated Bed)").
_NAME_ABBREVIATION = re.compile(
    r"\s*\((?P<abbr>[A-Za-z][A-Za-z0-9/-]{0,9}(?: [A-Za-z][A-Za-z0-9/-]{0,12}){0,2})\)(?=[\s,:])")
# An initialism in brackets after the words it abbreviates ("an 8-hour time-weighted
# average sound level (TWA) of 85 decibels"): the name said twice, read once.
_INITIALISM = re.compile(r"\s*\((?P<abbr>[A-Z]{2,6})s?\)(?=[\s,.;:])")
# A short tag before a limitation line ("I-33: Maximum ...", "Limit: Minimum ..."): the
# line's own kind word and the parameter's name follow it.
_LIMIT_TAG = re.compile(
    r"^[^:\s][^:]{0,29}?\s*:\s+(?=(?:the\s+)?(?:maximum|minimum|max\.?|min\.?|"
    r"upper limit|lower limit)\s+[^\d\s+\-−])", re.IGNORECASE)  # "X: maximum 120 °C" stays
# A bracket of instrument tags after a parameter's name ("chamber pressure (PT-104/PT-105)",
# "(TT-310)"): their numbers are no values.  Read past unless a tag is itself an alias.
_TAG_BRACKET = re.compile(
    r"\s*\((?P<tags>[A-Z][A-Z0-9]{0,5}-\d{1,5}[A-Z]?"
    r"(?:\s*[/,&]\s*[A-Z][A-Z0-9]{0,5}-\d{1,5}[A-Z]?)*)\)")
_TAG_SEPARATOR = re.compile(r"\s*[/,&]\s*")
# What every kind word of _MAX_MIN, _MAX_MIN_AFTER and _MIN_MAX_PAIR holds.
_LIMIT_WORD = re.compile(r"max|min|limit", re.IGNORECASE)
_LEADING_COMPARISON = re.compile(
    r"^(?:above|below|over|under|beyond|at or above|at or below|less than|more than|"
    r"between|outside)\s+[+\-−]?\d", re.IGNORECASE)
_EXCLUSION_IMPERATIVE = re.compile(
    r"^(?:do not|don't|never|you must not|must not)\s+(?P<a>.+?)\s+and\s+(?P<b>.+?)\s+"
    r"(?:at the same time|simultaneously|together|concurrently|at once)\W*$",
    re.IGNORECASE,
)
_EXCLUSION_PASSIVE = re.compile(
    r"^(?P<a>.+?)\s+and\s+(?P<b>.+?)\s+(?:must|shall|should|may|can)\s*(?:not|never)\s+"
    r"(?P<verb>(?:be\s+)?\w+)(?:\s+\w+)?\s+(?:at the same time|simultaneously|together|"
    r"concurrently|at once)\W*$",
    re.IGNORECASE,
)
_EXCLUSION_COEXIST = re.compile(
    r"^(?P<a>.+?)\s+(?:cannot|must not|shall not|may not)\s+(?:coexist|be combined) with\s+"
    r"(?P<b>.+?)\W*$|^(?P<a2>.+?)\s+and\s+(?P<b2>.+?)\s+are mutually exclusive\W*$",
    re.IGNORECASE,
)
# A requirement id before a statement ("REQ-BMS-010: If ..."), kept as its rule's id.
# Each part is at most 10 characters, so an id is at most 54 and a "-N" suffix that
# makes it unique stays inside the schema's 64.
_REQUIREMENT_ID = re.compile(
    r"^\s*\[?(?P<id>[A-Z][A-Z0-9]{1,9}(?:[-_.][A-Z0-9]{1,10}){1,4})\]?\s*[:.)\-–]?\s+")
# A markdown quote's ">" at the start of each of its lines ("> **WARNING:** Never allow
# ... while the BOG /\n> compressor load is above 50 %"); a ">" before a number compares.
_QUOTE_MARK = re.compile(r"(?:^|(?<=\s))>\s+(?=[^\d\s+\-−.,])")
_MARKUP = re.compile(r"(\*\*|__|`|\*(?=\S)|(?<=\S)\*)")
_SEVERITY_PREFIX = re.compile(r"^(warning|caution|note|advisory|alarm|alert|danger)\s*[:!-]\s*",
                              re.IGNORECASE)
# An alarm's name in capitals before its conditional text: "PAW HIGH – If the peak
# airway pressure exceeds 40 mbar, ...".  Taken off only when a conditional opener
# follows, so a parameter named in capitals ("N1: 104 % maximum") is never dropped.
# A dash after the name ("PAW HIGH (high priority) - A peak airway pressure exceeding ...")
# is taken before any sentence; a colon only before a conditional opener.
_ALARM_LABEL = re.compile(
    r"^(?!(?:NOTE|INFO|TIP|SEE)\b)[A-Z][A-Za-z0-9/&]*(?:[ -][A-Z0-9/&]+)*\s*"
    r"(?:(?:[–—]|\s-)\s+(?=[A-Z])|(?:[–—:]|\s-)\s+"
    r"(?=(?i:if|when|whenever|should|in case|in the event|unless|except)\b))")
# Prefixes that make a bare condition a rule: "Alarm: discharge pressure above 13 bar."
_ALERT_PREFIXES = frozenset({"warning", "caution", "alarm", "alert", "danger"})
# What a condition's subject "is" or "does" when the sentence names a hazard rather than an
# order: "Temperatures over 105 °C are critical", "Vibration above 7 mm/s indicates a fault".
# "indicates", "triggers"... make a rule only when what follows names trouble or an order
# follows (";", ":"): "Levels above 90 % indicate the tank is nearly full" stays a fact.
_CONSEQUENCE = re.compile(
    r"\b(?:(?:indicates?|signals?|denotes?|signif(?:y|ies)|triggers?|sets? off|raises?|"
    r"initiates?|causes?|results? in|leads? to|activates?|points? to|suggests?|constitutes?|"
    r"(?:is|are)\s+(?:an?\s+)?(?:\w+\s+)?(?:indicators?|indications?|signs?|symptoms?))\b"
    r"(?=[^.;:]*?\b(?:fault|failure|malfunction|leak\w*|blockage|problem|danger\w*|"
    r"hazard\w*|overheat\w*|overload\w*|damage\w*|wear|abnormal|critical|emergency|"
    r"alarm|warning|error|defect\w*|contamination|loss|unsafe|trip|shut ?down|"
    r"slow ?down|deviation|excursion|out of spec\w*)\b|[^.]*[;:])|"
    r"warrants?|calls? for|(?:trips?|blocks?|inhibits?|locks? out|refuses? to \w+|aborts?|"
    r"terminates?|interrupts?|halts?|stops?|cancels?)\s+(?:the|any|all|every|an?)\b|"
    r"(?:will|does|do|can|shall)\s+not\s+(?:start|run|open|begin|proceed|restart|energi[sz]e)\b|"
    r"(?:cannot|won't|can't)\s+(?:start|run|open|begin|proceed|restart|be started)\b|"
    r"(?:is|are)\s+(?:alarmed|annunciated)\b|"
    r"(?:is|are)\s+(?:considered\s+|regarded as\s+|treated as\s+|"
    r"(?:signall?ed|flagged|annunciated|reported|classified|handled|logged|recorded|counted|"
    r"registered)\s+as\s+)?(?:an?\s+)?"
    r"(?:critical|dangerous|hazardous|unsafe|abnormal|unacceptable|not acceptable|"
    r"out of (?:spec\w*|tolerance|limits?)|"
    r"(?:[\w-]+\s+){0,2}(?:alarm|fault|failure|emergency|warning|trip|hazard)s?\b))",
    re.IGNORECASE)
def _word_forms(*stems: str) -> str:
    """One severity vocabulary whatever the verb's form: "trip", "trips", "tripped",
    "tripping" rate alike ("... trips the main motor" is as severe as "trip the main
    motor")."""
    forms = []
    for stem in stems:
        if stem.startswith("="):  # a noun or an adverb: as written ("fire", not "fired")
            forms.append(stem[1:])
            continue
        if " " in stem or stem.endswith("*"):
            forms.append(stem.rstrip("*") + (r"\w*" if stem.endswith("*") else ""))
            continue
        doubled = stem + stem[-1] if re.fullmatch(r".*[^aeiou][aeiou][bdgkmnprt]", stem) else stem
        base = stem[:-1] if stem.endswith("e") else stem
        forms.append(rf"{stem}|{stem}s|{stem}es|{doubled}ed|{doubled}ing|{base}ed|{base}ing"
                     if not stem.endswith("y") else
                     rf"{stem}|{stem[:-1]}ies|{stem[:-1]}ied|{stem}ing")
    return "|".join(forms)


_WARNING_WORDS = re.compile(
    r"\b(" + _word_forms("=emergency", "=immediate", "=immediately", "shut ?down",
                         "shuts down", "shutting down", "abort", "evacuat*",
                         "=rapid response", "danger*", "=critical", "scram", "trip", "=fire",
                         "=explosion", "=cardiac arrest") + r")\b", re.IGNORECASE)
_CAUTION_WORDS = re.compile(
    r"\b(" + _word_forms("=caution", "notify", "alert", "alarm", "=fault", "reduce", "stop",
                         "lock", "reject", "=not eligible", "=must", "=shall", "=do not",
                         "=never", "limit", "close", "increase", "decrease", "call",
                         "require", "refer") + r")\b", re.IGNORECASE)
# A statement that gives an example, or says what one might have to do, states no rule:
# "For example, if during a flight the small UA experiences a battery fire, the remote
# pilot may need to climb the small UA above 400' AGL."
_EXAMPLE = re.compile(r"^(?:for example|for instance|e\.\s?g\.|as an example|example:)|"
                      r"\b(?:may|might|could) (?:need|have) to\b", re.IGNORECASE)
# Positive signs of a descriptive statement: history, typical values, definitions.
_CHANGE_WORDS = ("raised|lowered|increased|reduced|decreased|changed|revised|amended|"
                 "relaxed|tightened|lifted|moved|replaced")
_NOT_A_STOP = r"(?:[^.;]|(?<=\d)\.(?=\d))"  # any character but a full stop ("38.5" has none)
_HISTORY = re.compile(
    rf"\b(?:was|were|has been|have been|had been)\s+(?:\w+\s+){{0,2}}?(?:{_CHANGE_WORDS})\b|"
    rf"\b(?:{_CHANGE_WORDS})\b{_NOT_A_STOP}{{0,80}}?\bfrom\s+{_NOT_A_STOP}{{0,40}}?\d"
    rf"{_NOT_A_STOP}{{0,40}}?\bto\s+{_NOT_A_STOP}{{0,40}}?\d|"
    r"^(?:until|before|since|prior to)\s+(?:19|20)\d\d\b|"
    rf"\b(?:19|20)\d\d-\d\d-\d\d\b.{{0,200}}\b(?:added|deleted|removed|introduced|"
    rf"{_CHANGE_WORDS})\b", re.IGNORECASE)
_TYPICAL = re.compile(r"\b(?:typical(?:ly)?|normally|usually|nominal(?:ly)?|approx\.|"
                      r"approximately|on average|in normal operation)\b", re.IGNORECASE)
_DEFINITION = re.compile(r"\b(?:means|is defined as|are defined as|refers to)\b", re.IGNORECASE)
# A sentence that defines a term: "*Low-stress pipeline* means a hazardous liquid pipeline
# that is operated ... at a stress level of 20 percent or less of ...".  Its comparisons say
# what the term covers, never when something must be done ("by means of" is no definition).
_DEFINES_A_TERM = re.compile(
    r"^(?:[^,;:.]{1,120}?)\b(?:means|is defined as|are defined as|refers to)\b(?! of\b)|"
    # the term lost before it ("means a hazardous liquid pipeline that is operated ..."),
    # never the noun of "Means shall be provided to ..."
    r"^(?-i:means)\s+(?:a|an|the|any|each|all)\b",
    re.IGNORECASE)
# An exception or a condition the statement leaves to another paragraph, or to someone's
# decision: the rule cannot be read from this sentence alone.
_CROSS_EXCEPTION = re.compile(
    r"\b(?:except|unless|other than)\s+(?:as\s+)?(?:(?:otherwise\s+)?(?:specified|provided|"
    r"described|permitted|allowed|authori[sz]ed|approved|required|noted|set forth)\s+"
    r"(?:in|by|under)\s+(?:paragraph|section|§|subpart|part|appendix|table)|"
    r"otherwise\s+(?:authori[sz]ed|approved|permitted|specified|provided))|"
    r"\bother than as described in\b", re.IGNORECASE)
# Who or what a comparison after the rule word is said of: "shall notify each employee
# exposed at or above ...", "for all employees whose noise exposures equal or exceed ...":
# the comparison says when the order applies.
_WHO_IS = re.compile(r"\b(?:exposed(?: to)?|subjected to|whose|who (?:is|are|has|have))\b"
                     r"[^,;:]{0,80}$", re.IGNORECASE)
_MODAL = re.compile(r"\b(?:shall|must|should|may|will)\b", re.IGNORECASE)
_PURPOSE = re.compile(r"\b(?:so as |in order )?to (?:avoid|limit|prevent|minimi[sz]e)\b",
                      re.IGNORECASE)
# Rule words besides those of _RULE_WORDS that make a sentence look like a rule.
_RULE_LIKE_EXTRA = re.compile(
    r"\b(?:mandatory|required|not to exceed|no\s+(?:\w+\s+){1,6}?(?:shall|may|must|will)\b|"
    r"(?:are|is) not (?:permitted|allowed)|ensure)\b|"
    r"^no\b(?=.*\b(?:permitted|allowed|authori[sz]ed)\b)|"
    # "Operation with an oil temperature above 90 °C is permitted for up to 5 minutes": a
    # time limit said as a permission
    r"\b(?:permitted|allowed|acceptable|authori[sz]ed)\s+(?:only\s+)?for\s+(?:up to|a maximum "
    r"of|no more than|not more than|at most|not longer than|no longer than)\b", re.IGNORECASE)
_PROHIBITION = re.compile(r"^(?:do not|don't|never|avoid)\b|"
                          r"^no\s+(?:[\w-]+\s+){1,6}?(?:shall|may|must|will|can)\b|"
                          r"^no\b[^.;]*\b(?:is|are)\s+(?:permitted|allowed|authori[sz]ed)\b",
                          re.IGNORECASE)
# "Engine starts are not permitted at an outside air temperature below -35 °C": what is
# not permitted comes before its condition, nothing after it.
_NOT_PERMITTED = re.compile(r"\b(?:not (?:be )?(?:permitted|allowed|permissible)|"
                            r"impermissible|prohibited|forbidden)\b", re.IGNORECASE)
_ARTICLE = re.compile(r"^(the|a|an|all|any|both|each)\b", re.IGNORECASE)
# Small patterns of the functions below, compiled once.
_DIGIT = re.compile(r"\d")
_SPACES = re.compile(r"\s+")
_MD_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_NEGATION = re.compile(r"\b(not|never|cannot|prohibited|forbidden)\b", re.IGNORECASE)
_COMMA_CUT = re.compile(r",(?!\d{3})\s*")
_COMMA = re.compile(r",(?!\d{3})")
_CLAUSE_END = re.compile(r",(?!\d{3})\s*|\s+then\s+")
_JOINED_CLAUSE = re.compile(r"(and|or|while|with|unless|either|nor)\b", re.IGNORECASE)
_LEADING_NUMBER = re.compile(r"[+\-−]?\d")
_PERMITTED_RANGE = re.compile(
    r"^(?:the\s+)?(?:permitted|permissible|allowed|allowable)\s+(?P<phrase>[^:]{2,60}?)\s*:\s*"
    r"(?P<range>[+\-−]?\d[^:]*?(?:\s+to\s+|\s*[–-]\s*)[+\-−]?\d[^:]*)$", re.IGNORECASE)
_AT_READING = re.compile(r"\s+at an?\s+(?=[^,;]*\d)", re.IGNORECASE)
_ARROW = re.compile(r"(?<=\s)(?:-{1,2}>|→|⇒|=>)(?=\s)")
# An order after a semicolon, when what comes before names the condition in its subject:
# "A stack temperature lower than 300 °F risks acid corrosion; open the bypass damper".
_SEMICOLON_ORDER = re.compile(
    r";\s*(?:then\s+)?(?:open|close|reduce|increase|decrease|raise|lower|stop|start|restart|"
    r"check|inspect|verify|confirm|inform|notify|call|page|alert|report|record|log|"
    r"quarantine|discard|reject|isolate|segregate|withdraw|remove|replace|clean|repair|"
    r"adjust|set|reset|restore|switch|turn|shut|trip|vent|purge|drain|evacuate|sound|"
    r"investigate|repeat|retest|recheck|contact|escalate|hold|keep|maintain|ensure|"
    r"take|apply|give|administer|initiate|activate|deactivate|disconnect|transfer|move|"
    r"return|wait|limit|throttle|suspend|abort|halt|cease|divert|bypass|tag|label|"
    r"do not|don't|never)\b", re.IGNORECASE)
_CONSEQUENCE_SPLIT = re.compile(r"\s*[;:]\s*|\s*[,.]\s*(?=then\b)|\s+[-–—]\s+")
_THEN = re.compile(r"^(then)\s+", re.IGNORECASE)
_LEADING_BRACKET = re.compile(r"^(?:\([^)]*\)\s*)")
_TRAILING_RELATIVE = re.compile(r"\b(with|having|who have|whose|that have|where)\s*$",
                                re.IGNORECASE)
_LEADING_BE = re.compile(r"^be\s+")


# What became of a statement that yielded no rule of its own, besides descriptive.
UNREADABLE = "unreadable"  # it says a rule, and part of it could not be read
NEEDS_REVIEW = "needs review"  # it looks like a rule and no shape of rule reads it
NOTE = "note"  # the rule was made; something about it is worth a look


@dataclass
class Problem:
    """A statement that looks like a rule but could not be read (or a note on one)."""

    file: str
    line: int
    reason: str
    text: str
    fatal: bool = True  # False: a note (the rule was still made)
    kind: str = ""  # UNREADABLE, NEEDS_REVIEW or NOTE; "" takes it from `fatal`
    page: int | None = None

    def __post_init__(self) -> None:
        if not self.kind:
            self.kind = UNREADABLE if self.fatal else NOTE

    def __str__(self) -> str:
        page = f" (page {self.page})" if self.page is not None else ""
        return f"{self.file}:{self.line}{page}: {self.reason}: {self.text[:90]}"

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"file": self.file, "line": self.line}
        if self.page is not None:
            out["page"] = self.page
        out.update(kind=self.kind, reason=self.reason, text=self.text)
        return out


@dataclass
class Extraction:
    rules: list[Rule] = field(default_factory=list)
    descriptive: list[Statement] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    # why each descriptive statement is one, by statement key (statement_key)
    reasons: dict[str, str] = field(default_factory=dict)

    def describe(self, st: Statement, reason: str) -> None:
        """A statement that yields no rule, and why (kept in the knowledge base)."""
        self.descriptive.append(st)
        self.reasons[statement_key(st)] = reason


def statement_key(st: Statement) -> str:
    """A statement's key among the statements of one compile."""
    return st.id or f"{st.file}:{st.line}:{st.page or 0}"


def extract(
    statements: list[Statement], params: ParameterTable, used_ids: set[str] | None = None
) -> Extraction:
    """Turn the statements of one document into rule objects; `used_ids` is shared by the
    documents of one bundle so a statement repeated in two manuals gets two ids."""
    out = Extraction()
    used_ids = IdSet() if used_ids is None else used_ids
    procedure_items = _procedure_blocks(statements)
    list_titles = _list_titles(statements)
    lead_ins, lead_items = _lead_ins(statements)
    ruling = _ruling_leads(statements)
    refused: Statement | None = None  # the statement before, when it made no rule
    for index, st in enumerate(statements):
        if index in lead_ins:
            continue  # judged once its items are read (below)
        if index in lead_items:
            lead = lead_items[index]
            led = _under_lead_in(st, statements[lead], lead_ins[lead], params, out)
            if led is None:
                continue
            st = led
        if index in procedure_items or st.kind == "heading" and not _limit_line(st.text) and (
                not _spec_parts(st, params)):
            continue
        if st.kind == "title" and not _conditional_title(st.text):
            _title_not_read(st, params, out)
            continue
        if refused is not None and _PRONOUN_ORDER.match(_clean(st.text)) and (
                refused.file == st.file and st.line - refused.line <= 1):
            # "If a certificate holder conducting flag operations schedules ..., it shall
            # give him a rest period ...  It shall also provide ...": who "it" is, and what
            # narrows it, was said in the sentence before, which no rule reads
            out.problems.append(Problem(
                st.file, st.line, "its subject is said in the sentence before, which made no "
                "rule", st.text, kind=NEEDS_REVIEW, page=st.page))
            continue
        following = _following_step(statements, index)
        made = len(out.rules)
        for part in _compound_parts(st, params, used_ids):
            _extract_statement(part, params, out, used_ids, list_titles.get(index), following,
                               ruling.get(index, ""))
        refused = st if len(out.rules) == made else None
    for index, kind in sorted(lead_ins.items()):
        _judge_lead_in(statements, index, kind, lead_items, params, out, used_ids)
    for title, items in _procedures(statements, procedure_items):
        source = _source(title)
        rule = Rule(
            id=unique_id(hashed_id("P", title.text), used_ids), kind="procedure", source=source,
            title=_clean(title.text).rstrip(":").strip(),
            steps=tuple(Step(_clean(s.text), _source(s)) for s in items),
        )
        out.rules.append(rule)
    return out


# ---------------------------------------------------------------- compound statements


# "For airplanes of 6,000 pounds or less, for the speed at which ..., a blue radial line":
# a second scope after the first, which no comparison reads, is no action.
_ANOTHER_SCOPE = re.compile(r"^(?:for|in|on|at)\s+(?:the|a|an|each|any|all)\b", re.IGNORECASE)
def _second_scope(action: str, parsed: ParsedCondition) -> bool:
    """"For airplanes of 6,000 pounds or less maximum weight, for the speed at which ...,
    a blue radial line": after the condition (and the name said after its number) comes a
    second scope, part of the condition that no comparison reads."""
    rest = action.strip()
    label = parsed.atoms[-1].label if parsed.atoms else ""
    head, comma, tail = rest.partition(",")
    if label and comma and label.lower() in head.lower() and len(head.split()) <= len(
            label.split()) + 2:
        rest = comma + tail  # "maximum line pressure, for the ...": the name said after it
    return rest.startswith(",") and bool(_ANOTHER_SCOPE.match(rest[1:].lstrip()))


# Certification language: what must be established, determined or demonstrated.
_ESTABLISHED = re.compile(
    r"\b(?:must|shall|should|is to|are to)\s+(?:also\s+)?be\s+(?:established|determined|"
    r"demonstrated|substantiated|selected|specified)\b", re.IGNORECASE)
# A word that opens a condition: a sentence with one is no account of the past.
_CONDITION_WORD = re.compile(r"\b(?:if|when|whenever|while|unless|once|should)\b",
                             re.IGNORECASE)


# An order whose subject is a pronoun: who it is was said before.
_PRONOUN_ORDER = re.compile(r"^(?:It|He|She|They)\s+(?:shall|must|may|will|should)\b")


def _compound_parts(st: Statement, params: ParameterTable, used_ids: set[str]
                    ) -> list[Statement]:
    """One statement that says two rules, as two readings of the same text:
    "X is supervised by the relay: alarm above 120 °C, trip above 130 °C" and "X above
    200 µm must be reported, and the unit is to be shut down in case X exceeds 300 µm".
    Otherwise the statement itself."""
    text = st.parse_text or st.text
    proviso = _PROVISO.search(text)
    if proviso:
        # "... may be tempered ... for not to exceed 48 hours ...: Provided, That no portion
        # of the defrosted liquid shall exceed 50 °F.": the proviso is a requirement of its
        # own, read apart from the clause it qualifies
        head = text[:proviso.start()].rstrip(" :;,.") + "."
        tail = _sentence_case(text[proviso.end():].strip())
        return [part for half in (head, tail)
                for part in _compound_parts(replace(st, parse_text=half), params, used_ids)]
    spec = _spec_parts(st, params)
    if spec:
        return spec
    if ":" in text:
        listed = _listed_triggers(_clean(text))
        if listed:
            return [replace(st, parse_text=sentence) for sentence in listed]
    joined = _AND_CLAUSE.search(text) if ", and " in text else None
    if joined is None:
        return [st]
    halves = [text[:joined.start()], _sentence_case(text[joined.end():])]
    if not all(_has_condition_comparison(half) for half in halves):
        return [st]
    parts = [replace(st, parse_text=half) for half in halves]
    for part in parts:
        trial = Extraction()
        _extract_statement(part, params, trial, set(used_ids))
        if len(trial.rules) != 1 or any(p.fatal for p in trial.problems):
            return [st]
    return parts


# The proviso of a regulation: ": Provided, That ...", "; Provided further, That ...".
_PROVISO = re.compile(r"[:;,.]?\s*\bProvided(?:,\s*|\s+)(?:further|however)?,?\s*[Tt]hat\b,?\s*")


# What a spec line without a colon needs: a word that says which side a limit bounds.
_SPEC_KIND = re.compile(r"max|min|limit|exceed|at least|at most|[<>≤≥]", re.IGNORECASE)


def _spec_parts(st: Statement, params: ParameterTable) -> list[Statement]:
    """A spec or limitation line's pairs of label and limits, each said as a constraint
    ("Pump speed: max. 1,900 rpm; oil temperature: max. 70 °C"); [] when the line is not
    one, or is one limitation line that _max_min reads as it is."""
    raw = st.parse_text or st.text
    if ":" not in raw and not _SPEC_KIND.search(raw) or not re.search(r"\d", raw):
        return []  # neither a label nor a kind word: no spec line (most statements)
    text = _ENUMERATOR.sub("", _clean(raw))
    sentences = spec_line_sentences(text, params)
    if len(sentences) == 1 and _max_min(text.rstrip(".")) is not None:
        return []
    return [replace(st, parse_text=sentence) for sentence in sentences]


_AND_CLAUSE = re.compile(r",\s+and\s+(?=(?:the|a|an|this|it|all|any)\s)", re.IGNORECASE)
# "...: alarm above 120 °C, trip above 130 °C": what acts, and the reading it acts at
_LISTED_TRIGGER = re.compile(
    r"^(?P<what>[A-Za-z][\w ()-]{0,40}?)\s+(?P<cmp>(?:above|below|over|under|at or above|"
    r"at or below|greater than|less than|higher than|lower than|≥|≤|>=|<=|>|<)\s*[+\-−]?\d.*)$",
    re.IGNORECASE)
_TRIGGER_WORD = re.compile(r"\b(?:alarm|trip|shut ?down|stop|warning|interlock|runback)\b",
                           re.IGNORECASE)
_ANY_BRACKET = re.compile(r"\s*\([^()]*\)")
_SUBJECT_VERB = re.compile(r"\s+(?:is|are|will be|shall be)\s", re.IGNORECASE)


def _listed_triggers(body: str) -> list[str]:
    """The rules of "<subject> is supervised ...: <function> <comparison>, ..." (two or
    more, each naming an alarm or trip), as sentences; [] when the body is not one."""
    head, _, items = body.rstrip(".").partition(":")
    parts = [item.strip() for item in re.split(r"[,;]\s*|\s+and\s+", items) if item.strip()]
    found = [_LISTED_TRIGGER.match(item) for item in parts]
    if len(found) < 2 or not all(m and _TRIGGER_WORD.search(m.group("what")) for m in found):
        return []
    verb = _SUBJECT_VERB.search(head)
    subject = _ANY_BRACKET.sub("", head[:verb.start()] if verb else head).strip()
    if not subject:
        return []
    return [f"If {subject} is {m.group('cmp')}, {m.group('what')}." for m in found if m]


# ---------------------------------------------------------------- procedures


def _procedure_blocks(statements: list[Statement]) -> dict[int, int]:
    """Indexes of numbered items that are procedure steps (not rules), -> block number."""
    steps: dict[int, int] = {}
    by_block: dict[int, list[int]] = {}
    for i, st in enumerate(statements):
        if st.kind == "item" and st.number is not None:
            by_block.setdefault(st.block, []).append(i)
    for block, indexes in by_block.items():
        plain = [i for i in indexes if not _looks_like_rule(statements[i].text)]
        if len(plain) >= 2:
            for i in plain:
                steps[i] = block
    return steps


def _procedures(
    statements: list[Statement], steps: dict[int, int]
) -> list[tuple[Statement, list[Statement]]]:
    out: list[tuple[Statement, list[Statement]]] = []
    seen: set[int] = set()
    of_block: dict[int, list[Statement]] = {}  # each block's steps in order, grouped once
    for k in sorted(steps):
        of_block.setdefault(steps[k], []).append(statements[k])
    for i in sorted(steps):
        block = steps[i]
        if block in seen:
            continue
        seen.add(block)
        items = of_block[block]
        title = None
        for k in range(i - 1, -1, -1):
            if statements[k].kind in ("title", "heading"):
                if _names_something(statements[k]):
                    title = statements[k]
                break
            if statements[k].kind == "sentence":
                break
        # without a title, the first step that says something names the procedure
        title = title or next((item for item in items if _names_something(item)), None)
        if title is not None:
            out.append((title, items))
    return out


# ---------------------------------------------------------------- regulatory structure

# A lead-in that its enumerated items complete: "(b) (1) When 1.0 percent or more methane
# is present in a working place ...—", "No person may operate ... unless—",
# "(d) (1) The provisions of this paragraph apply if—".
# A lead-in whose items are its exceptions: "... cannot be higher than 400 feet above
# ground level, unless the small unmanned aircraft:".
_EXCEPTION_LEAD = re.compile(r"\b(?:unless|except(?: when| if| that)?|provided that)\b[^.;]{0,80}"
                             r"(?:[—–]|--|:|\s-)\s*$", re.IGNORECASE)
# A lead-in that its items complete with a number: "must be no less than:".
_COMPARISON_LEAD = re.compile(
    r"\b(?:no|not)\s+(?:less|more|lower|higher|greater|fewer)\s+than$|\bat (?:least|most)$|"
    r"\bin excess of$|\bexceed(?:s|ing)?$|"
    r"\b(?:not|never)\s+(?:to\s+)?exceed$|\b(?:less|more|lower|higher|greater|fewer) than$",
    re.IGNORECASE)
# A lead-in over a list of upper limits, and one entry of it ("Carbon monoxide (CO)—2.5
# percent").
_LIMIT_LIST_LEAD = re.compile(
    r"\b(?:in excess of|exceed|above|more than)\s+(?:the\s+)?(?:[\w-]+\s+){0,3}?"
    r"(?:listed below|below|following|as follows)$", re.IGNORECASE)
_LIMIT_ENTRY = re.compile(r"^(?P<name>[^—–:;]{2,60}?)\s*[—–:]\s*(?P<value>[+\-−]?\.?\d[^;]*)$")
_LEAD_IN_END = re.compile(r"(?:[—–]|--|:|\s-)\s*$")
_PAREN_ENUMERATOR = re.compile(rf"^\s*{PARAGRAPH_MARK}\s*")
_CONDITION_LEAD = re.compile(
    r"^(?:if|when|whenever|while|where|in case|in the event that|unless|except)\b|"
    r"\b(?:if|when|unless|except when|whenever|while)\s*(?:[—–]|--|:|\s-)\s*$",
    re.IGNORECASE)


def _marks(text: str) -> list[str]:
    """The bracketed enumerators a statement starts with: "(b) (1) When" -> ["b", "1"]."""
    marks: list[str] = []
    rest = text
    while (m := _PAREN_ENUMERATOR.match(rest)) is not None:
        marks.append(m.group(1))
        rest = rest[m.end():]
    return marks


def _mark_kind(mark: str) -> str:
    if mark.isdigit():
        return "digit"
    if mark.isupper():
        return "upper"
    if re.fullmatch(r"[ivxl]+", mark) and mark not in ("v", "x", "l"):
        return "roman"
    return "letter"


# How a lead-in's items complete it (see _under_lead_in).
COMPARISON, LIMITS, WHEN, CONDITIONS, PROHIBITION, ORDERS = (
    "comparison", "limits", "when", "conditions", "prohibition", "orders")
# "If C, one of the following methods must be used ...:": the lead-in is a rule of its
# own (its condition and its order); its items are the ways the order may be met.
_ORDER_AFTER_CONDITION = re.compile(r"^[^,]+,\s+[^,]*?\b(?:must|shall|should)\b",
                                    re.IGNORECASE)


def _lead_in_kind(text: str) -> str | None:
    """How the items after a statement ending in a dash or colon complete it, or None
    when it is only a title ("Specification:")."""
    lead = _lead_text(text)
    if _COMPARISON_LEAD.search(lead):
        return COMPARISON
    if _LIMIT_LIST_LEAD.search(lead):
        return LIMITS
    if _LEADING_CONDITIONAL.match(lead) and not re.search(r"\b(?:if|unless)$", lead, re.I):
        return ORDERS if _ORDER_AFTER_CONDITION.match(lead) else WHEN
    if _CONDITION_LEAD.search(text) or _EXCEPTION_LEAD.search(text):
        return CONDITIONS
    if _PROHIBITION.match(lead):
        return PROHIBITION
    return None


def _lead_ins(statements: list[Statement]) -> tuple[dict[int, str], dict[int, int]]:
    """(lead-in index -> how its items complete it, item index -> its lead-in's index):
    the bracketed items after a statement ending in a dash or colon, enumerated one level
    down from it."""
    lead_ins: dict[int, str] = {}
    items: dict[int, int] = {}
    for i, st in enumerate(statements):
        text = st.text.strip()
        if not _LEAD_IN_END.search(text) or i + 1 >= len(statements):
            continue
        how = _lead_in_kind(text)
        if how is None:
            continue  # a title, read as before
        own = _marks(text)
        level = _mark_kind(own[-1]) if own else ""
        first = _marks(statements[i + 1].text)
        kind = _mark_kind(first[0]) if first else ""
        j = i + 1
        while j < len(statements) and statements[j].file == st.file and kind != level:
            marks = _marks(statements[j].text)
            if not marks or len(marks) > 1 or _mark_kind(marks[0]) != kind:
                break  # the next paragraph of the lead-in's own level, or a new list
            items[j] = i
            j += 1
        if j > i + 1:
            lead_ins[i] = how
    return lead_ins, items


def _under_lead_in(item: Statement, lead_in: Statement, how: str, params: ParameterTable,
                   out: Extraction) -> Statement | None:
    """The item as its lead-in completes it, with the item's own provenance; None when
    the lead-in makes it one condition of a rule the items make only together (listed
    for review when it looks like a rule, else descriptive)."""
    lead = _lead_text(lead_in.text)
    body = _clean(item.text)
    while _PAREN_ENUMERATOR.match(body):
        body = _PAREN_ENUMERATOR.sub("", body, count=1)
    body = re.sub(r"[;,]?\s*(?:and|or)?\s*$", "", body.rstrip(" .;")).strip()
    lowered = f"{body[:1].lower()}{body[1:]}"
    if how == COMPARISON:
        # "must be no less than:" + "(1) 500 feet below the cloud; and": each item a limit
        return replace(item, parse_text=f"{lead} {body}.")
    if how == LIMITS:
        # "the following gases shall not be permitted to accumulate in excess of the
        # concentrations listed below:" + "(1) Carbon monoxide (CO)—2.5 percent"
        limit = _LIMIT_ENTRY.match(body)
        if limit is None:
            return item
        name = re.sub(r"\s*\([^)]*\)", "", limit.group("name")).strip()
        return replace(item, parse_text=f"The {name} shall not exceed {limit.group('value')}.")
    if how == WHEN:  # "When C—" + "(ii) A" reads "When C, A"
        return replace(item, parse_text=f"{lead}, {lowered}.")
    if how == ORDERS:
        _review_or_describe(item, body, params, out,
                            "one of the ways the order of its lead-in may be met")
        return None
    if how in (PROHIBITION, COMPARISON):
        scope = _unmeasured_scope(lead, params)
        if scope:
            # "Diving operations involving liveboating shall not be conducted:": the rule
            # is for what the qualifier names, which no parameter measures
            out.problems.append(Problem(
                item.file, item.line, f"the lead-in limits the rule to what no parameter "
                f"measures ({scope!r})", item.text, kind=NEEDS_REVIEW, page=item.page))
            return None
    if how == PROHIBITION:
        # "No person may act ... as a crewmember of a civil aircraft—" + "(4) While having
        # an alcohol concentration of 0.04 or greater ...": each item one prohibition
        return replace(item, parse_text=f"{lead} {lowered}.")
    # CONDITIONS: "The provisions of this paragraph apply if—", "... unless the aircraft:"
    if _rule_like(f"{lead} {body}", params):  # the rule word in one, the reading in the other
        out.problems.append(Problem(
            item.file, item.line, f"one condition of the lead-in {lead[:60]!r}, read with "
            "the other items only", item.text, kind=NEEDS_REVIEW, page=item.page))
    else:
        out.describe(item, "a condition of its lead-in, not a rule of its own")
    return None


# A subject narrowed by a participle or relative clause: "Diving operations involving
# liveboating", "Aircraft using ...", "operations in which ...".
_SCOPE = re.compile(r"\b(?:involving|using|engaged in|that (?:involve|use)s?|"
                    r"which (?:involve|use)s?|in which|where)\b[^,;]*", re.IGNORECASE)


def _unmeasured_scope(lead: str, params: ParameterTable) -> str:
    """The qualifier of a lead-in's subject that no parameter measures ("involving
    liveboating"), or ""."""
    scope = _SCOPE.search(_MODAL.split(lead, maxsplit=1)[0])
    if scope and not params.named_in(scope.group(0)) and not params.infer:
        return scope.group(0).strip()
    return ""


def _order_for_whom(cond_text: str, parsed: ParsedCondition) -> bool:
    """Whether a rule word comes before the comparison and the comparison is said of whom
    or what the order concerns ("shall train each employee who is exposed to noise at or
    above ...", "shall make hearing protectors available to all employees exposed to ...")."""
    before = cond_text[:parsed.comparison_start]
    return bool(_MODAL.search(before) and _WHO_IS.search(before)
                and not _NEGATION.search(before))


def _judge_lead_in(statements: list[Statement], index: int, how: str,
                   lead_items: dict[int, int], params: ParameterTable, out: Extraction,
                   used_ids: set[str]) -> None:
    """A lead-in whose items made rules is descriptive (they carry them); one whose items
    made none, and that looks like a rule, is listed for review, never dropped: so is one
    whose items are its exceptions."""
    st = statements[index]
    if how == ORDERS:
        # the lead-in's own rule: "If C, one of the following methods must be used ..."
        _extract_statement(replace(st, parse_text=f"{_lead_text(st.text)}."), params, out,
                           used_ids)
        return
    if how == CONDITIONS and _EXCEPTION_LEAD.search(st.text.strip()) and _rule_like(
            st.text, params):
        out.problems.append(Problem(
            st.file, st.line, "its exceptions are the items that follow: the rule is read "
            "only with them", st.text, kind=NEEDS_REVIEW, page=st.page))
        return
    lines = {(statements[i].file, statements[i].line) for i, lead in lead_items.items()
             if lead == index}
    made = any((r.source.get("file"), r.source.get("line")) in lines for r in out.rules)
    if not made and _rule_like(_clean(st.text), params):
        out.problems.append(Problem(st.file, st.line, "a lead-in whose items say no rule that "
                                    "could be read", st.text, kind=NEEDS_REVIEW, page=st.page))
    else:
        out.describe(st, "a lead-in: the items that follow say its rules")


def _lead_text(text: str) -> str:
    """A lead-in's words: its enumerators and its closing dash or colon taken off."""
    lead = _clean(text)
    while _PAREN_ENUMERATOR.match(lead):
        lead = _PAREN_ENUMERATOR.sub("", lead, count=1)
    return _LEAD_IN_END.sub("", _ENUMERATOR.sub("", lead)).strip()


def _names_something(st: Statement) -> bool:
    """A bare ":" (a "Step 4::" line, a title of only a colon) names nothing."""
    return bool(_clean(st.text).rstrip(":").strip())


def _max_min(body: str) -> re.Match[str] | None:
    """A limitation line: "Maximum fuel temperature: +54 °C", also with dotted leaders
    and after a tag ("I-33: Maximum hydrogen outlet pressure: 32 bar")."""
    if not _LIMIT_WORD.search(body):
        return None  # no kind word: neither pattern can match (trying them costs ~10 µs)
    body = _LIMIT_TAG.sub("", _LEADER.sub(": ", body), count=1)
    if "(" in body:
        body = _NAME_ABBREVIATION.sub(_abbreviation_words, body)
    return _MAX_MIN.match(body) or _MAX_MIN_AFTER.match(body) or _MAX_MIN_TRAILING.match(body)


def _abbreviation_words(match: re.Match[str]) -> str:
    """" (NR)" -> " NR"; a bracketed kind word ("Cell voltage (min): 3.0 V") stays."""
    abbr = match.group("abbr")
    return match.group(0) if _LIMIT_WORD.match(abbr) else " " + abbr


def _limit_line(text: str) -> bool:
    """A short line laid out like a heading that states a limit ("Maximum N1 .... 104 %")."""
    return _max_min(_clean(text).rstrip(".")) is not None


def _list_titles(statements: list[Statement]) -> dict[int, str]:
    """Items of a list whose title says what its entries mean ("The following results
    are critical results and shall be telephoned ...:"), by index -> that order."""
    out: dict[int, str] = {}
    title: str | None = None
    block = -1
    for i, st in enumerate(statements):
        if st.kind == "title":
            text = _ENUMERATOR.sub("", _clean(st.text)).rstrip(":").strip()
            title = text if _RULE_WORDS.search(text) or _CONSEQUENCE.search(text) or (
                _CAUTION_WORDS.search(text)) else None
            block = -1
        elif st.kind == "item" and title is not None and block in (-1, st.block):
            block = st.block
            out[i] = title
        else:
            title = None
    return out


def _conditional_title(text: str) -> bool:
    """A list introduced by a condition is a rule that starts it: "If the system A
    pressure drops below 1,500 psi for more than 10 seconds, accomplish the following:"."""
    cleaned = _DISCOURSE.sub("", _clean(text))
    return bool(_LEADING_CONDITIONAL.match(cleaned)) and _has_comparison(cleaned)


def _ruling_leads(statements: list[Statement]) -> dict[int, str]:
    """Items under a lead-in with a rule word up to two levels above them ("The diving
    supervisor shall insure that—" / "(a) SCUBA diving is not conducted—" / "(2) At depths
    greater than 130 fsw;"), by index -> the lead-in's words: an item that reads a
    parameter there is listed for review, never a silent miss."""
    out: dict[int, str] = {}
    for index, item in enumerate(statements):
        if item.kind != "item":
            continue
        above = [st for st in statements[max(0, index - 12):index]
                 if st.kind != "item" and st.file == item.file][-2:]
        if not above or not _LEAD_IN_END.search(above[-1].text.strip()):
            continue
        lead = " ".join(_clean(st.text) for st in above)
        if _RULE_WORDS.search(lead):
            out[index] = lead
    return out


def _title_not_read(st: Statement, params: ParameterTable, out: Extraction) -> None:
    """A title no rule is read from: listed for review when it looks like a rule (a rule
    word and a reading of a parameter), so that it is never a silent miss."""
    body = _clean(st.text).rstrip(":").strip()
    named = _rule_like(body, params) if _DIGIT.search(body) else ""
    if named and _descriptive_reason(body) is None:
        out.problems.append(Problem(
            st.file, st.line, f"a title that looks like a rule on {named}: the rule it "
            "introduces is not read", st.text, kind=NEEDS_REVIEW, page=st.page))


def _looks_like_rule(text: str) -> bool:
    cleaned = _clean(text)
    if _LEADING_CONDITIONAL.match(cleaned) or _MID_CONDITIONAL.search(cleaned):
        return _has_comparison(cleaned)
    return bool(_RULE_WORDS.search(cleaned) or _CONSEQUENCE.search(cleaned)) and (
        _has_comparison(cleaned))


# ---------------------------------------------------------------- one statement


# A paragraph's run-in heading in italics before its first sentence ("(e) *MCL for
# uranium.* The maximum contaminant level for uranium is 30 µg/L."): a title, no part
# of the sentence.
_RUN_IN_HEADING = re.compile(
    r"^((?:\s*\((?:\d{1,3}|[a-z]{1,2}|[ivxl]{1,5})\))*)\s*([*_]{1,2})[^*_\n]{1,100}?\.\2\s+"
    r"(?=[A-Z(])")


@functools.lru_cache(maxsize=4096)
def _statement_body(text: str, kept: frozenset[str] = frozenset()
                    ) -> tuple[str | None, str | None, str]:
    """(requirement id, severity word, body) of a statement's text: its markup, clause
    number, label and prefixes taken off; `kept`: brackets that stay, as they name a
    parameter ("Maximum operating temperature (Heated Bed), 120C").  Cached, as every
    step is a pure function of the text (a fuzzing campaign reads the same sentences over
    and over)."""
    text = _PARENTHETICAL.sub(lambda m: m.group(0) if m.group(0).strip() in kept else "",
                              _clean(_RUN_IN_HEADING.sub(r"\1 ", text)))
    if "(" in text:
        text = _BASIS.sub("", text)
    if "(" in text:
        text = _INITIALISM.sub(_without_initialism, text)
    text = _BRACKET_LABEL.sub("", _ENUMERATOR.sub("", text))
    req = requirement_id(text)
    req_id = None
    if req:
        req_id, text = req.group("id"), text[req.end():]
    severity_word = None
    prefix = _SEVERITY_PREFIX.match(text)
    if prefix:
        severity_word = prefix.group(1).lower()
        text = text[prefix.end():]
    label = _ALARM_LABEL.match(text)
    if label:
        text = text[label.end():]
        severity_word = severity_word or "alarm"  # a named alarm: its condition is a rule
    text = _EITHER_VERB.sub(r"\g<verb>", text)
    discourse = _DISCOURSE.match(text)
    if discourse and _LEADING_CONDITIONAL.match(text, discourse.end()):
        text = text[discourse.end():]
    never = _LEADING_NEVER.match(text)
    if never:
        text = "Do not let " + text[never.end():]
    return req_id, severity_word, text.rstrip().rstrip(".!;:").rstrip()


def _naming_brackets(text: str, params: ParameterTable) -> frozenset[str]:
    """The brackets of a text that are part of a parameter's alias, with the word before
    them ("operating temperature (Heated Bed)") or alone ("(Heated Bed)")."""
    if "(" not in text or params.infer:
        return frozenset()
    kept = set()
    for match in _PARENTHETICAL.finditer(text):
        bracket = match.group(0).strip()
        before = text[max(0, match.start() - 40):match.start()].split()[-3:]
        phrases = [bracket[1:-1]] + [" ".join(before[-n:] + [bracket]) for n in (1, 2, 3)]
        if any(params.knows(phrase) for phrase in phrases):
            kept.add(bracket)
    return frozenset(kept)


def _without_initialism(match: re.Match[str]) -> str:
    """"" when the bracketed capitals are the initials, in order, of the words just before
    them (hyphenated parts count: "time-weighted average" -> TWA); the match otherwise."""
    before = match.string[:match.start()]
    parts = re.findall(r"[A-Za-z]+", before[-120:])
    initials = "".join(part[0].upper() for part in parts)
    abbr = match.group("abbr")
    for size in range(len(abbr), len(parts) + 1):
        window = initials[-size:]
        if window.startswith(abbr[0]) and _in_order(abbr, window):
            return ""
        if size > len(abbr) + 3:
            break
    return match.group(0)


def _in_order(letters: str, text: str) -> bool:
    """Whether `letters` appear in `text` in order (not necessarily side by side)."""
    rest = iter(text)
    return all(letter in rest for letter in letters)


def _without_tag_brackets(body: str, params: ParameterTable) -> str:
    """The body without its brackets of instrument tags, unless a tag names a parameter."""
    def drop(match: re.Match[str]) -> str:
        tags = _TAG_SEPARATOR.split(match.group("tags"))
        return match.group(0) if any(params.knows(tag) for tag in tags) else ""
    return _TAG_BRACKET.sub(drop, body)


def _following_step(statements: list[Statement], index: int) -> str:
    """What a statement ending in a colon leads into: the text of the next statement when
    that is a list item ("● IF CAB ALT ABOVE 14 000 FT:" / "- PAX OXY MASKS .... MAN ON"),
    with its dotted leaders read as a colon; "" otherwise."""
    st = statements[index]
    if not st.text.rstrip().endswith(":") or index + 1 >= len(statements):
        return ""
    step = statements[index + 1]
    if step.kind != "item" or step.file != st.file:
        return ""
    return _LEADER.sub(": ", _clean(step.text)).strip(" .")


def _extract_statement(
    st: Statement, params: ParameterTable, out: Extraction, used_ids: set[str],
    list_title: str | None = None, following: str = "", lead: str = "",
) -> None:
    """The rule one statement says, if any; `following`: the list item after a statement
    that ends in a colon, the action of a condition said alone ("IF ... ABOVE N:")."""
    text = st.parse_text or st.text
    req_id, severity_word, body = _statement_body(text, _naming_brackets(text, params))
    if "(" in body:
        body = _without_tag_brackets(body, params)
    if _EXAMPLE.search(body):
        out.describe(st, "an example or a hypothetical, not a rule")
        return
    if _ESTABLISHED.search(body) and not _CONDITION_WORD.search(body):
        # "A maximum ambient temperature ... of at least 100 degrees F must be established",
        # "VFE must be established so that it does not exceed ...": a value the designer
        # must fix or show, not a limit on a reading
        _review_or_describe(st, body, params, out,
                            "a value to be established or shown, not a limit on a reading")
        return
    if ":" not in body and _HISTORY.search(body) and not _MODAL.search(body) and not (
            _CONDITION_WORD.search(body)):
        # "The limit was raised from 80 °C to 85 °C in revision B": what a limit was
        out.describe(st, "revision history, not a limit")
        return
    defined = _DEFINES_A_TERM.match(body)
    if defined and not _MODAL.search(defined.group(0)):
        out.describe(st, "a definition")
        return
    inhibit: tuple[str, tuple[str, ...]] | None = None
    said = _INHIBITED.search(body) if "inhibit" in body.lower() else None
    if said:
        inhibit = _inhibiting_phase(said.group("phases"), params)
        if inhibit is None:
            out.problems.append(Problem(
                st.file, st.line, f"an inhibition whose phase is not read: "
                f"{said.group(0).strip(' ,()')!r}", st.text, kind=NEEDS_REVIEW, page=st.page))
            return
        body = (body[:said.start()] + body[said.end():]).strip()

    exclusion = _exclusion(body)
    if exclusion is not None:
        rule = Rule(
            id=unique_id(req_id or hashed_id("R", st.text), used_ids), kind="exclusion",
            source=_source(st), severity=_severity(body, "exclusion", severity_word),
            actions=exclusion,
        )
        out.rules.append(rule)
        return

    if list_title and _unmeasured_scope(list_title, params):
        list_title = None  # "Diving operations involving liveboating shall not ...:"
    labelled = _LABELLED_LIMIT.match(body) if list_title else None
    shape = (("if_then", f"{labelled.group('label')} is {labelled.group('cond')}", list_title,
              False) if labelled and list_title else _body_shape(body))
    if shape is None and list_title:
        shape = _listed_condition(body, list_title)
    if shape is None and severity_word in _ALERT_PREFIXES and _has_comparison(body):
        shape = ("alert", body, "", True)
    if shape is None and _RULE_WORDS.search(body) and _names_a_state(body, params):
        # "Wheel stops shall be provided ... during loading or unloading operations": an
        # order for as long as a state (or phase) holds, no number in it
        shape = ("if_then", body, "", True)
    if shape is None:
        _not_a_rule(st, body, params, out, lead=lead)
        return
    kind, cond_text, action, subject_mode = shape
    parsed = parse_condition(cond_text, params.resolve, _by_unit(params),
                             trailing_action=subject_mode, known=params.knows, table=params)
    if parsed.condition is not None and kind == "if_not":
        parsed.condition, kind = Not(parsed.condition), "if_then"
    elif parsed.condition is not None and kind == "keep":
        parsed.requirement = True  # "Keep X below N" states what must hold
        kind = "constraint"
    if parsed.condition is None and kind == "order":
        _not_a_rule(st, body, params, out, "an order that names no reading", lead=lead)
        return
    if parsed.condition is None:
        if kind in ("if_then", "if_not", "keep") or parsed.atoms or parsed.needs_review:
            reason = "; ".join(parsed.problems) or "condition not understood"
            out.problems.append(Problem(st.file, st.line, reason, st.text, page=st.page,
                                        kind=NEEDS_REVIEW if parsed.needs_review else UNREADABLE))
        else:
            _not_a_rule(st, body, params, out, "; ".join(parsed.problems), lead=lead)
        return
    condition: Condition = parsed.condition
    if subject_mode:
        action = _remainder_action(cond_text, parsed)
        if not (parsed.requirement or parsed.violation) and _second_scope(action, parsed):
            _not_a_rule(st, body, params, out, "a second scope after the condition is not read",
                        lead=lead)
            return
        if parsed.requirement or parsed.violation:
            kind = "constraint"
        elif kind in ("alert", "order"):
            kind, action = "if_then", body
        elif _PROHIBITION.match(body) or (
                not action.strip(" .") and _NOT_PERMITTED.search(body)):
            kind, action = "constraint", body
        elif _RULE_WORDS.search(action):
            kind = "constraint" if _NEGATION.search(action) else "if_then"
        elif _CONSEQUENCE.search(action):
            kind, action = "if_then", _ordered_action(action) or body
        elif not action.strip(" .") and _CONSEQUENCE.search(body):
            # "The system refuses to start a sequence for which the SAR is above 4 W/kg":
            # the condition is named in the object of what the system does
            kind, action = "if_then", body
        elif _predicate_then_order(cond_text, parsed):
            kind, action = "if_then", _ordered_action(action)
        elif _order_for_whom(cond_text, parsed):
            # "The employer shall notify each employee exposed at or above an 8-hour
            # time-weighted average of 85 decibels of the results": the order, for whoever
            # the comparison holds of
            kind, action = "if_then", body
        else:
            _not_a_rule(st, body, params, out, "a comparison stated as a fact, not an order",
                        lead=lead)
            return
    modal = _MODAL.search(cond_text) if subject_mode and kind == "if_then" else None
    before = cond_text[:parsed.comparison_start]
    if modal and modal.start() < parsed.comparison_start and not parsed.requirement and not (
            _NEGATION.search(before)) and not _WHO_IS.search(before) and not (
                _phase_of_an_order(before, parsed, params)):
        # "All active workings shall be ventilated by a current of air containing not less
        # than 19.5 volume per centum of oxygen": after its rule word, a comparison may say
        # what must hold as well as when the rule applies
        out.problems.append(Problem(
            st.file, st.line, "a comparison after the rule word: what must hold, or when the "
            "rule applies, is not said", st.text, kind=NEEDS_REVIEW, page=st.page))
        return
    if parsed.requirement:
        condition = Not(condition)
        kind, action = "constraint", body
    elif parsed.violation:
        kind, action = "constraint", body
    if kind == "constraint" and not action:
        action = body
    if not action and following and kind == "if_then" and not subject_mode:
        action = following
    if not action:
        out.problems.append(Problem(st.file, st.line, "no action found", st.text, page=st.page))
        return
    if kind == "if_then" and not subject_mode and _has_condition_comparison(
            _ORDER_UNTIL.sub(" ", action)):
        # "For an employee removed due to a blood lead level at or above 50 µg/dl when
        # ... is below 40 µg/dl": a comparison said with the order is a condition too
        out.problems.append(Problem(
            st.file, st.line, f"a comparison outside the condition, in {action[:60]!r}: "
            "it is not read", st.text, kind=NEEDS_REVIEW, page=st.page))
        return
    left_out = _action_left_out(action, st.text, params) if kind == "if_then" else ""
    if left_out:
        out.problems.append(Problem(st.file, st.line, left_out, st.text, kind=NEEDS_REVIEW,
                                    page=st.page))
        return
    rule = Rule(
        id=unique_id(req_id or hashed_id("R", st.text), used_ids),
        kind=kind,
        source=_source(st),
        severity=_severity(body, kind, severity_word),
        condition=condition,
        action=action,
        template="{condition}: " + _sentence_case(action) + ".",
    )
    if parsed.duration is not None:
        rule.duration_s = parsed.duration.seconds
        rule.duration_inclusive = parsed.duration.inclusive
    rule.inhibit = inhibit
    exception = _CROSS_EXCEPTION.search(body)
    if exception:
        out.problems.append(Problem(
            st.file, st.line, f"an exception stated elsewhere ({exception.group(0)!r}): the rule "
            "is read only with that text", st.text, kind=NEEDS_REVIEW, page=st.page))
        return
    rule.notes.extend(parsed.problems)
    for note in parsed.problems:
        out.problems.append(Problem(st.file, st.line, note, st.text, fatal=False, page=st.page))
    out.rules.append(rule)


_ACTION_EXCEPTION = re.compile(
    r"^\W*(?:except|unless|excluding)\b|\b(?:except\s+for|other\s+than|excluding)\b",
    re.IGNORECASE)
_BRACKET_EXCEPTION = re.compile(r"\(\s*(?:other\s+than|except|excluding)\b[^)]*\)",
                                re.IGNORECASE)
# "..., inert gas, or air is the test medium, a leak test must be made ...": a clause of the
# condition (a finite copula) before the order, the split made at a comma of a list
_CONDITION_IN_ACTION = re.compile(
    r"^(?:[^,;]*,\s+){0,2}?[^,;]*?\b(?:is|are|was|were)\b[^,;]*,\s+(?:[a-z]+\s+){0,4}"
    r"(?:must|shall|should)\b",
    re.IGNORECASE)
_PERMISSION = re.compile(r"\bmay\b(?!\s+(?:not|only|never|have|has|also\s+have)\b)",
                         re.IGNORECASE)  # "may have frozen": what may have happened
_PROHIBITING = re.compile(
    r"\b(?:nobody|no\s+one|none)\b|\bno\s+(?:[a-z]+\s+){1,3}(?:may|shall|must)\b|"
    r"\b(?:may|shall|must|do|does|can)\s+not\b|\bcannot\b|\bnever\b", re.IGNORECASE)


def _action_left_out(action: str, text: str, params: ParameterTable) -> str:
    """Why the action of an if-then reading holds part of its condition, or "": an
    exception ("Except for helicopters; and", "(other than a helicopter)"), a permission
    ("A helicopter may be operated clear of clouds ... if ..."), which no state makes a rule
    to fire, or a prohibition that names a state no comparison reads ("No person may take
    off or land an aircraft under special VFR")."""
    found = _ACTION_EXCEPTION.search(action) or _BRACKET_EXCEPTION.search(text)
    if found:
        return f"an exception is not read: {found.group(0).strip(' ()')!r}"
    inside = _CONDITION_IN_ACTION.search(action)
    if inside:
        return f"part of the condition is in the action: {inside.group(0)[:60]!r}"
    prohibition = _PROHIBITING.search(action)
    if _PERMISSION.search(action) and not prohibition and not re.search(
            r"\b(?:shall|must|should|required)\b", action, re.IGNORECASE):
        return f"a permission, not a rule that fires: {action[:60]!r}"
    if prohibition:
        return unread_state(tokenize(action), [], params)
    return ""


def _phase_of_an_order(before: str, parsed: ParsedCondition, params: ParameterTable) -> bool:
    """"Wheel stops shall be provided ... during loading or unloading operations": only
    phases after the rule word, which say when the order applies; but "The cabin door
    shall be closed during takeoff" names a state the order requires, which is not read."""
    if not all(a.phase for a in parsed.atoms):
        return False
    words = f" {' '.join(words_of(before))} "
    for name in params.named_in(before):
        info = params.params[name]
        said = [*info.states, *(w for ws in info.phrases.values() for w in ws)]
        if any(f" {' '.join(words_of(w))} " in words for w in said):
            return False  # "The cabin door shall be closed during takeoff": a state required
    return True


# "(inhibited during takeoff and landing)", ", inhibited in cruise": ECAM-style phases
# that hold the rule's raise.
_INHIBITED = re.compile(r"\s*[,(]?\s*\b(?:(?:is|are|being)\s+)?inhibited\s+(?P<phases>(?:during|in|"
                        r"throughout)\s+[^,;.()]+)\)?", re.IGNORECASE)


def _inhibiting_phase(text: str, params: ParameterTable) -> tuple[str, tuple[str, ...]] | None:
    """(phase parameter, states) that "during takeoff and landing" names, or None when the
    words are not one phase parameter's states, whole."""
    tokens = tokenize(text)
    found, _ = find_states(tokens, params)
    if len(found) != 1 or not found[0].phase or found[0].param is None or (
            found[0].last != len(tokens) - 1):
        return None
    return found[0].param, found[0].states


def _names_a_state(body: str, params: ParameterTable) -> bool:
    """Whether a statement compares a discrete parameter with a state."""
    if not any(info.states for info in params.params.values()):
        return False
    found, _ = find_states(tokenize(body), params)
    return bool(found)


def _not_a_rule(st: Statement, body: str, params: ParameterTable, out: Extraction,
                hint: str = "", lead: str = "") -> None:
    """A statement no shape of rule reads: descriptive, with the reason it is one, or, when
    it looks like a rule (a rule word, and a number in the unit of a parameter it names;
    or so with the lead-in ``lead`` it is an entry of), listed as needing review: never a
    silent miss."""
    reason = _descriptive_reason(body)
    if reason is None:
        named = _rule_like(body, params)
        if not named and lead and _rule_like(f"{lead} {body}", params):
            out.problems.append(Problem(
                st.file, st.line, f"an entry of the lead-in {lead[:60]!r}, which is not read "
                "with it", st.text, kind=NEEDS_REVIEW, page=st.page))
            return
        if named:
            why = f"looks like a rule on {named}, but no reading accounts for the whole sentence"
            if hint:
                why += f" ({hint})"
            out.problems.append(Problem(st.file, st.line, why, st.text, kind=NEEDS_REVIEW,
                                        page=st.page))
            return
        reason = "no rule word and a reading together" if _DIGIT.search(body) else (
            "no number to compare with")
    out.describe(st, reason)


def _review_or_describe(st: Statement, body: str, params: ParameterTable, out: Extraction,
                        why: str) -> None:
    """A statement no rule is made of, for a known reason: listed for review when it looks
    like a rule, descriptive with that reason otherwise."""
    if _rule_like(body, params):
        out.problems.append(Problem(st.file, st.line, why, st.text, kind=NEEDS_REVIEW,
                                    page=st.page))
    else:
        out.describe(st, why)


def _descriptive_reason(body: str) -> str | None:
    """Why a statement is positively descriptive, or None when nothing says it is."""
    if _HISTORY.search(body):
        return "revision history, not a limit"
    if _TYPICAL.search(body):
        return "a typical or nominal value, not a limit"
    if _DEFINITION.search(body):
        return "a definition"
    return None


def _rule_like(body: str, params: ParameterTable) -> str:
    """The parameter a rule-like statement names ("" when it is not rule-like): a rule
    word, and a number whose unit fits a parameter the text names (with no sensors.toml,
    any comparison with a number)."""
    words = _PURPOSE.sub(" ", body)  # "... to avoid a pressure bump": a purpose, no order
    if not (_RULE_WORDS.search(words) or _RULE_LIKE_EXTRA.search(words)):
        return ""
    if not may_hold_number(body):
        return _compared_with_a_reference(body, params)
    numbers = [t for t in tokenize(body) if t.kind == "num"]
    if not numbers:
        return _compared_with_a_reference(body, params)
    if params.infer:
        return "a reading"  # no sensors.toml: any number may be one
    for name in params.named_in(body):
        unit = params.unit_of(name)
        for tok in numbers:
            if tok.unit is None or unit is None or units_compatible(tok.unit, unit):
                return name
    for tok in numbers:  # "mandatory in areas at or above 85 dBA": named by its unit alone
        if tok.unit is not None and not tok.unit.is_plain:
            measured = params.measured_in(tok.unit)
            if measured:
                return measured[0].name
    return ""


def _compared_with_a_reference(body: str, params: ParameterTable) -> str:
    """A rule word, a parameter the text names, and a comparison with a value given
    elsewhere ("a cold inflation pressure less than that specified for the load", "when
    the sound levels exceed those shown in Table G-16"): a rule, not a description, so
    it is listed for review, never dropped."""
    if params.infer or not _REFERENCE_COMPARISON.search(body):
        return ""
    named = [n for n in params.named_in(body) if not params.params[n].states]
    return named[0] if named else ""


_REFERENCE_COMPARISON = re.compile(
    r"\b(?:(?:less|more|greater|lower|higher|fewer)\s+than|exceeds?|exceeding|below|above|"
    r"at\s+least|at\s+most)\s+(?:that|those|the\s+(?:values?|limits?|levels?)|"
    r"specified|shown|listed|given)\b", re.IGNORECASE)


@functools.lru_cache(maxsize=4096)
def _body_shape(body: str) -> tuple[str, str, str, bool] | None:
    """_shape(body), cached (a pure function of the body).  _shape itself is not, so that
    it recurses as deep as before, one Python frame a level."""
    return _shape(body)


def _shape(body: str) -> tuple[str, str, str, bool] | None:
    """(kind, condition text, action text, action-follows-condition) or None if descriptive."""
    lead = _LEADING_CONDITIONAL.match(body)
    unless_text = ""
    unless_lead = _LEADING_UNLESS.match(body)
    if unless_lead:
        return _leading_unless(body[unless_lead.end():])
    keep = _KEEP.match(body)
    if keep and _has_comparison(body):
        return "keep", body[keep.end():], body, False
    if lead:
        rest = body[lead.end():]
        aside = _PHASE_ASIDE.match(rest)
        if aside:  # "If, during the holding time, C, A": a phase that names no reading
            rest = rest[aside.end():]
        cond, action = _split_condition_action(rest)
        unless = _UNLESS.search(action)
        if unless:
            unless_text = " unless " + action[unless.end():]
            action = action[:unless.start()]
        return "if_then", cond + unless_text, _strip_then(action), False
    mid = _MID_CONDITIONAL.search(body)
    if mid and mid.start() > 0 and _has_comparison(body[mid.end():]):
        action, cond = body[:mid.start()].strip(" ,"), body[mid.end():]
        if body[mid.start():mid.end()].lstrip().startswith(","):
            # "The controller shall, if the wind speed exceeds 25 m/s, stop the rotor."
            cond, rest = _split_condition_action(cond)
            action = f"{action} {_strip_then(rest)}".strip() if rest else action
        semicolon = cond.find(";")
        if semicolon > 0 and not _has_condition_comparison(cond[semicolon + 1:]):
            # "Haemolysis must be suspected when C; check the pump head ...": what
            # follows the semicolon is a second order, not more of the condition
            cond, action = cond[:semicolon], f"{action}; {cond[semicolon + 1:].strip()}"
        more = _MORE_ORDER.search(cond)
        if more and not _has_comparison(more.group("order")):
            # "Suspect hyperthermia if C, and give dantrolene 2.5 mg/kg": the order goes on
            cond, action = cond[:more.start()], f"{action} and {more.group('order')}"
        if _ONLY.search(action):  # "The brake may only be applied when X is below 2 rpm"
            return "if_not", cond, action, False
        return "if_then", cond, action, False
    during = _MID_WHILE.search(body)
    if during and during.start() > 0 and (
            _RULE_WORDS.search(body[:during.start()])
            or _INTERLOCK.search(body[:during.start()])) and not _has_comparison(
            body[:during.start()]) and _has_comparison(body[during.end():]):
        # "Process gas flow is interlocked off while the chamber temperature is under
        # 750 °C", "The valve shall be closed while ...": an order (or a safety action)
        # for as long as the condition holds.
        return "if_then", body[during.end():], body[:during.start()].strip(" ,"), False
    trigger = _trailing_trigger(body)
    if trigger:
        return trigger
    if _LEADING_COMPARISON.match(body):
        # "Above 25,000 ft, reduce the airspeed to 280 kt."
        cond, action = _split_condition_action(body)
        if action:
            return "if_then", cond, _strip_then(action), False
        return "if_then", body, "", True
    pair = _MIN_MAX_PAIR.match(_LEADER.sub(": ", body)) if _LIMIT_WORD.search(body) else None
    if pair:
        lo, hi = pair.group("lo"), pair.group("hi")
        cond = f"{pair.group('phrase')} must remain between {lo} and {hi}"
        return "constraint", cond, body, False
    permitted = _PERMITTED_RANGE.match(body) if ":" in body else None
    if permitted and _has_comparison(f"within {permitted.group('range')}"):
        # "Permitted magnet room temperature: 18 °C to 22 °C": violated outside
        cond = f"{permitted.group('phrase')} must remain within {permitted.group('range')}"
        return "constraint", cond, body, False
    maxmin = _max_min(body)
    if maxmin:
        upper = not maxmin.group("kind").lower().startswith(("min", "lower"))
        verb = "must not exceed" if upper else "must not fall below"
        cond = f"{maxmin.group('phrase')} {verb} {maxmin.group('rest')}"
        return "constraint", cond, _LEADER.sub(": ", body), False
    context = _LEADING_CONTEXT.match(body)
    if context:
        cond, action = _split_condition_action(body[context.end():])
        if not action:
            # "With a chilled water temperature above 14 °C the duty cycle is limited to
            # 50 %": no comma, so the condition ends with its first comparison
            cond, action = _after_first_comparison(body[context.end():])
        if action and _has_comparison(cond) and not _ANOTHER_SCOPE.match(action):
            return "if_then", cond, _strip_then(action), False
    fields = _cause_effect(body) if ":" in body else None
    if fields:
        return "if_then", fields[0], fields[1], False
    labelled = _condition_colon_action(body)
    if labelled:
        return "if_then", labelled[0], labelled[1], False
    order_unless = _order_unless(body)
    if order_unless:
        return order_unless
    if _ORDER_FIRST.match(body) and _has_condition_comparison(body):
        return "order", body, "", True  # "Report INR results from 4.5 to 5.0 to the clinic"
    if (_RULE_WORDS.search(body) or _CONSEQUENCE.search(body) or _PROHIBITION.match(body)
            or (";" in body and _SEMICOLON_ORDER.search(body))) and _has_comparison(body):
        return "if_then", body, "", True
    place = _LEADING_PLACE.match(body)
    if place:  # "In the incident section, keep the air velocity at or above 2.5 m/s."
        return _shape(body[place.end():])
    return None


def _after_first_comparison(text: str) -> tuple[str, str]:
    """(text up to its first comparison's end, the rest) when the rest is a limit, an order
    or a safety action with no condition of its own ("At 30 °C the viscosity drops to
    5 cP" stays a fact); else (text, "")."""
    tokens = tokenize(text)
    atoms = find_comparisons(tokens, set())
    if not atoms:
        return text, ""
    cut = tokens[atoms[0].last].end
    rest = text[cut:].strip(" ,")
    if not rest or _has_condition_comparison(rest) or not (
            _RULE_WORDS.search(rest) or _INTERLOCK.search(rest)):
        return text, ""
    return text[:cut], rest


def _trailing_trigger(body: str) -> tuple[str, str, str, bool] | None:
    """ "The thermostat switches off the heater at a shelf temperature above 42 °C": what a
    system does, then the reading it does it at, ending the sentence.  Not a requirement
    ("Plasma shall be stored at a freezer temperature of -25 °C or lower") and not a value
    the sentence goes on to describe ("O2 at a firing rate above 50 % is 3 %")."""
    at = _AT_READING.search(body)
    if at is None or at.start() == 0:
        return None
    action, cond = body[:at.start()].strip(" ,"), body[at.end():]
    if _RULE_WORDS.search(action) or _has_comparison(action) or not _ends_in_comparison(cond):
        return None
    return "if_then", cond, action, False


@functools.lru_cache(maxsize=4096)
def _ends_in_comparison(text: str) -> bool:
    """Whether `text` holds one comparison (no bare `is N`), ending it (a closing bracket
    or full stop aside)."""
    tokens = tokenize(text)
    atoms = find_comparisons(tokens, set())
    if len(atoms) != 1 or atoms[0].op == "==":
        return False
    return not [t for t in tokens[atoms[0].last + 1:] if t.kind != "punct"]


def _leading_unless(rest: str) -> tuple[str, str, str, bool]:
    """ "Unless C, do A" fires when C does not hold; "Unless C, A happens when D" when D
    holds and C does not: the clause after the comma is read as a sentence of its own."""
    cond, action = _split_condition_action(rest)
    if not action:  # the order has its own comparisons: cut at the first comma
        cut = _COMMA_CUT.search(rest)
        if cut:
            cond, action = rest[:cut.start()], rest[cut.end():]
    inner = _shape(action) if action else None
    if inner is not None and inner[0] == "if_then" and inner[2] and not inner[3]:
        return "if_then", f"{inner[1]} unless {cond}", inner[2], False
    return "if_not", cond, _strip_then(action), False


def _order_unless(body: str) -> tuple[str, str, str, bool] | None:
    """ "Do not operate the flaps unless the airspeed is below 230 kt": an order with no
    condition of its own, limited by `unless C`, applies when C does not hold."""
    unless = _UNLESS.search(body)
    if unless is None or unless.start() == 0:
        return None
    order, cond = body[:unless.start()].strip(" ,"), body[unless.end():]
    if _has_comparison(order) or not _has_comparison(cond) or any(
            t.kind == "num" and t.unit is not None for t in tokenize(order)):
        return None  # a quantity in the order ("at depths deeper than 190 fsw") is read
        # with it or the sentence is refused, never dropped
    return "if_not", cond, order, False


def _condition_colon_action(body: str) -> tuple[str, str] | None:
    """ "Bearing temperature >= 98 °C: trip the pump." -> (condition, order); so too a
    cause-and-effect line, "Pass flow below 40 m³/h -> check the charge pumps"."""
    arrow = _ARROW.search(body)
    if arrow:
        head, sep, tail = body[:arrow.start()].rstrip(), arrow.group(0), body[arrow.end():]
    else:
        head, sep, tail = body.partition(":")
    tail = tail.strip()
    if not sep or not tail or _LEADING_NUMBER.match(tail):
        return None
    if not _has_comparison(head) or _has_comparison(tail):
        return None
    return head, tail


# A list title that says what its entries require, not what they set off.
_REQUIREMENT_TITLE = re.compile(
    r"\b(?:shall|must)\s+(?:(?:at least|also|not)\s+)?(?:meet|include|contain|have|comply|"
    r"satisfy|conform|remain|be kept|be maintained)\b", re.IGNORECASE)


def _listed_condition(body: str, title: str) -> tuple[str, str, str, bool] | None:
    """An entry of a list whose title gives the order ("... initiates a master fuel trip on
    any one of the following causes:"), naming its condition alone or after a label:
    "C1  Fuel gas pressure low-low (2oo3): fuel gas pressure below 5 psig"."""
    label, colon, rest = body.partition(":")
    cond = rest if colon and _has_comparison(rest) and not _has_comparison(label) else body
    if not _has_comparison(cond) or _ONLY.search(title):
        # "Mixed-gas diving shall be conducted only when: ... (ii) A closed bell is used at
        # depths greater than 300 fsw": entries that permit, read together only
        return None
    if _REQUIREMENT_TITLE.search(title) and not _CONSEQUENCE.search(title):
        # "Compressed breathing air shall meet at least the requirements ..., to include:
        # (C) Carbon monoxide (CO) content of 10 ppm or less;": each entry must hold
        return "keep", cond, title, False
    return "if_then", cond, title, False


def _predicate_then_order(cond_text: str, parsed: ParsedCondition) -> bool:
    """ "An X of more than N makes the units unsuitable; quarantine them": the comparison
    sits in the subject, a predicate follows it, and after the semicolon an order (a
    comparison after a copula, "Normal X is 15 to 22 psig; check ...", is no condition)."""
    after = cond_text[parsed.end:]
    predicate, semicolon, _ = after.partition(";")
    return bool(semicolon) and bool(predicate.strip(" ,")) and bool(
        _SEMICOLON_ORDER.match(after[len(predicate):]))


def _ordered_action(consequence: str) -> str:
    """The order after a consequence: "indicates a fault; stop the pump" -> "stop the pump"."""
    parts = _CONSEQUENCE_SPLIT.split(consequence, maxsplit=1)
    return _strip_then(parts[1]) if len(parts) == 2 and parts[1].strip() else ""


# How long an order lasts is not a condition: "..., keep the doors closed for at least
# 20 minutes", "wait for 5 minutes", "within 2 hours".
_ACTION_DURATION = re.compile(
    r"\b(?:for|within|during|after)\s+(?:at least|at most|more than|less than|not less than|"
    r"no less than|up to|a minimum of|a maximum of|another|a further)?\s*\d[\d,.]*\s*"
    r"(?:ms|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?)\b", re.IGNORECASE)


# The value an order sets is not a condition: "..., the operator shall reduce the reactor
# power to 50 % or less", "..., raise the speed to 3,000 rpm".
_ORDER_TARGET = re.compile(
    r"\b(?:reduc|increas|rais|lower|limit|adjust|decreas|restrict|throttl|ramp|chang|set|"
    r"bring|brought|return|restor|run)\w*\b[^,;]*?\bto\s+(?:at most\s+|at least\s+|"
    r"not more than\s+|no more than\s+|below\s+|under\s+|above\s+)?[+\-−]?\d[\d,.]*"
    r"(?:\s*[^\s,;]+)?(?:\s+or\s+(?:less|more|lower|higher|below|above))?", re.IGNORECASE)


# How long an order goes on is not a condition either: "..., reduce the firing rate until
# it is back below 1,000 °F".
_ORDER_UNTIL = re.compile(r"\buntil\b[^,;]*", re.IGNORECASE)


# A clause cut after its joining word goes on past the comma: "or, equivalently, ...".
_OPEN_JOIN = re.compile(r"\b(?:and|or|nor)(?:,\s*[a-z]+ly)?$", re.IGNORECASE)


def _split_condition_action(rest: str) -> tuple[str, str]:
    """Where the condition ends: the first comma after which no comparison follows."""
    for match in _CLAUSE_END.finditer(rest):
        if _OPEN_JOIN.search(rest, 0, match.start()):
            continue  # "... 85 decibels or, equivalently, a dose of fifty percent"
        after = rest[match.end():]
        segment = _COMMA.split(after, maxsplit=1)[0]
        unless = _UNLESS.search(segment)
        if unless:
            segment = segment[:unless.start()]
        if "until" in segment.lower():
            segment = _ORDER_UNTIL.sub(" ", segment)
        if _JOINED_CLAUSE.match(segment.strip()):
            continue
        if _has_condition_comparison(segment):
            continue
        return rest[:match.start()], after
    return rest, ""


def _strip_then(action: str) -> str:
    return _THEN.sub("", action.strip()).strip(" ,")


def _remainder_action(cond_text: str, parsed: ParsedCondition) -> str:
    """`Patients with X above N require Y` -> `Patients require Y`; when the comparison
    ends the sentence, what stands before it: `The engine must not be started with X
    below N` -> `The engine must not be started`."""
    after = cond_text[parsed.end:].strip(" ,")
    after = _LEADING_BRACKET.sub("", after)
    subject = cond_text[:parsed.start].strip()
    subject = _TRAILING_RELATIVE.sub("", subject).strip(" ,")
    if not after.strip(" .;"):
        # "A load whose F0 is lower than 15 min must not be released, unless ...": the
        # order stands between the condition and its unless-clause
        after = _before_unless(cond_text, parsed.start) or after
    if after and subject and not _ARTICLE.match(after):
        return f"{subject} {after}"
    return after or subject


def _cause_effect(body: str) -> tuple[str, str] | None:
    """(cause, effect) of a cause-and-effect entry written as fields ("CE-03  DISCHARGE
    TEMPERATURE HIGH-HIGH  Cause: ... 165 °C or higher  Effect: NSD of the unit  Reset:
    control room  Note: ..."); fields other than the cause (a reset, a note with the
    history of the setting) are no part of the condition."""
    found = [m for m in _FIELD.finditer(body) if m.group("name")[0].isupper()]
    fields: dict[str, str] = {}
    for k, match in enumerate(found):
        end = found[k + 1].start() if k + 1 < len(found) else len(body)
        role = _FIELD_ROLES.get(match.group("name").lower().rstrip("s"), "other")
        fields.setdefault(role, body[match.end():end].strip(" ;,."))
    cause, effect = fields.get("cause", ""), fields.get("effect", "")
    if not (cause and effect and _has_comparison(cause)):
        return None
    return cause, effect


def _before_unless(cond_text: str, start: int) -> str:
    """The words between the last comparison before an unless-clause and the clause."""
    unless = _UNLESS.search(cond_text, start)
    if unless is None:
        return ""
    head = cond_text[:unless.start()]
    tokens = tokenize(head)
    atoms = find_comparisons(tokens, set())
    return head[tokens[atoms[-1].last].end:].strip(" ,") if atoms else ""


@functools.lru_cache(maxsize=4096)
def _exclusion(body: str) -> tuple[str, ...] | None:
    if _DIGIT.search(body) and _has_comparison(body):
        return None
    match = _EXCLUSION_IMPERATIVE.match(body)
    if match:
        a, b = match.group("a").strip(), match.group("b").strip()
        verb = a.split()[0] if a.split() else ""
        if _ARTICLE.match(b) and verb and not _ARTICLE.match(a):
            b = f"{verb} {b}"
        return (a, b)
    match = _EXCLUSION_PASSIVE.match(body)
    if match:
        verb = _LEADING_BE.sub("", match.group("verb"))
        return (f"{verb} {match.group('a').strip()}", f"{verb} {match.group('b').strip()}")
    match = _EXCLUSION_COEXIST.match(body)
    if match:
        a = match.group("a") or match.group("a2")
        b = match.group("b") or match.group("b2")
        return (a.strip(), b.strip())
    return None


@functools.lru_cache(maxsize=4096)
def _has_comparison(text: str) -> bool:
    """Whether `text` holds a comparison with a number.  Cached (a pure function of the
    text): finding a statement's shape tokenises the same clauses several times over."""
    if not may_hold_number(text):
        return False  # tokenising it would find no number, so no comparison
    return bool(find_comparisons(tokenize(text), set()))


@functools.lru_cache(maxsize=4096)
def _has_condition_comparison(text: str) -> bool:
    """A comparison other than an order's duration or the value it sets."""
    return _has_comparison(_ORDER_TARGET.sub(" ", _ACTION_DURATION.sub(" ", text)))


def _by_unit(params: ParameterTable) -> Callable[[Unit], tuple[str, str] | None]:
    def resolve(unit: Unit) -> tuple[str, str] | None:
        return params.resolve_by_unit(unit)

    return resolve


# ---------------------------------------------------------------- small parts


@functools.lru_cache(maxsize=4096)
def _clean(text: str) -> str:
    text = _QUOTE_MARK.sub("", text)
    text = _MARKUP.sub("", text)
    text = _MD_LINK.sub(r"\1", text)  # markdown links
    return _SPACES.sub(" ", text.replace("\u00a0", " ")).strip()


@functools.lru_cache(maxsize=4096)
def _severity(text: str, kind: str, explicit: str | None) -> str:
    if explicit is not None and explicit in SEVERITIES:
        return explicit
    if explicit == "alert":
        return "caution"
    if explicit in ("alarm", "danger"):
        return "warning"
    if _WARNING_WORDS.search(text):
        return "warning"
    if kind in ("constraint", "exclusion") or _CAUTION_WORDS.search(text):
        return "caution"
    return "advisory"


def _sentence_case(text: str) -> str:
    text = text.strip().rstrip(".")
    return text[:1].upper() + text[1:] if text else text


def _source(st: Statement) -> dict[str, object]:
    out: dict[str, object] = {"file": st.file, "line": st.line, "text": st.text}
    if st.page is not None:
        out["page"] = st.page
    if st.section:
        out["section"] = st.section
    if st.id:
        out["statement"] = st.id
    return out


def requirement_id(text: str) -> re.Match[str] | None:
    """The requirement id leading a statement (`REQ-BMS-010: If ...`; a digit in it, so a
    capitalised word is none), its `id` group the id and its end where the text goes on."""
    req = _REQUIREMENT_ID.match(text)
    return req if req and _DIGIT.search(req.group("id")) else None


def hashed_id(prefix: str, text: str) -> str:
    """`prefix-` + 8 hex digits of the SHA-256 of the statement (whitespace folded, lower
    case): the same statement gets the same id wherever it moves."""
    folded = _SPACES.sub(" ", text).strip().lower()
    return f"{prefix}-{hashlib.sha256(folded.encode('utf-8')).hexdigest()[:8]}"


class IdSet(set[str]):
    """The ids a bundle uses, with the next suffix of each id remembered: a manual that
    repeats one statement a thousand times costs a thousand steps, not half a million."""

    def __init__(self, ids: set[str] | None = None) -> None:
        super().__init__(ids or ())
        self.next_suffix: dict[str, int] = {}


def unique_id(rule_id: str, used: set[str]) -> str:
    """`rule_id`, or `rule_id-2`, `-3`... when a bundle already uses it; records it."""
    nexts = used.next_suffix if isinstance(used, IdSet) else {}
    candidate, n = rule_id, nexts.get(rule_id, 2)
    if candidate in used:
        candidate = f"{rule_id}-{n}"
        while candidate in used:
            n += 1
            candidate = f"{rule_id}-{n}"
        nexts[rule_id] = n + 1
    used.add(candidate)
    return candidate


def atoms_of(condition: Condition) -> list[Atom]:
    """Every comparison in a condition tree, in reading order."""
    if isinstance(condition, Atom):
        return [condition]
    if isinstance(condition, Not):
        return atoms_of(condition.item)
    return [a for item in condition.items for a in atoms_of(item)]
