"""The import path ``rulec.compiler.rules`` that earlier documentation named; rule objects
live in ``rulec.compiler.model.rules``."""

from rulec.compiler.model.rules import KINDS as KINDS
from rulec.compiler.model.rules import OPS as OPS
from rulec.compiler.model.rules import SCHEMA_VERSION as SCHEMA_VERSION
from rulec.compiler.model.rules import SEVERITIES as SEVERITIES
from rulec.compiler.model.rules import All as All
from rulec.compiler.model.rules import AnyOf as AnyOf
from rulec.compiler.model.rules import Atom as Atom
from rulec.compiler.model.rules import Condition as Condition
from rulec.compiler.model.rules import Not as Not
from rulec.compiler.model.rules import Rule as Rule
from rulec.compiler.model.rules import Step as Step
from rulec.compiler.model.rules import condition_from_json as condition_from_json
from rulec.compiler.model.rules import condition_to_json as condition_to_json
from rulec.compiler.model.rules import dumps_rule as dumps_rule
from rulec.compiler.model.rules import loads_rules as loads_rules
from rulec.compiler.model.rules import rule_from_json as rule_from_json
from rulec.compiler.model.rules import rule_to_json as rule_to_json
