"""The bundle: the one thing the ground and the vehicle share.

``format`` packs, signs and frames a payload and reads the frame back (the byte layout of
``docs/bundle-format.md``); ``loader`` validates every section into a ``Bundle``;
``signing`` checks Ed25519 signatures; ``vocabulary`` names the rule kinds, severities
and fault reasons that the compiler, the runtime, the wire and the knowledge base share.

``Bundle`` and ``load_bundle`` are re-exported here: ``from rulec.runtime.bundle import
load_bundle`` is the documented way in.
"""

from rulec.runtime.bundle.loader import Bundle as Bundle
from rulec.runtime.bundle.loader import load_bundle as load_bundle
