"""The import path ``rulec.compiler.knowledge_base`` that earlier documentation named; the
knowledge base is written by ``rulec.compiler.kb.store``."""

from rulec.compiler.kb.store import APPLICATION_ID as APPLICATION_ID
from rulec.compiler.kb.store import KB_SCHEMA_VERSION as KB_SCHEMA_VERSION
from rulec.compiler.kb.store import KB_SUFFIX as KB_SUFFIX
from rulec.compiler.kb.store import SCHEMA as SCHEMA
from rulec.compiler.kb.store import SQLITE_MAGIC as SQLITE_MAGIC
from rulec.compiler.kb.store import TABLES as TABLES
from rulec.compiler.kb.store import KnowledgeBaseError as KnowledgeBaseError
from rulec.compiler.kb.store import Row as Row
from rulec.compiler.kb.store import default_kb_path as default_kb_path
from rulec.compiler.kb.store import knowledge_base_rows as knowledge_base_rows
from rulec.compiler.kb.store import write_knowledge_base as write_knowledge_base
