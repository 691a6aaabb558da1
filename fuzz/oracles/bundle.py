"""Oracle for the bundle loader (``load_bundle`` / ``decode_bundle``).

The first byte of an input picks how the rest reaches the loader: even, the rest is a
msgpack payload framed with a correct header and SHA-256 (so mutations get past the
digest and reach the unpacker and the schema checks); odd, the rest is a whole bundle
file as it lies on disk (header mutations).  Properties:
- only ``BundleError`` escapes, whatever the bytes;
- a bundle that loads re-packs canonically: ``pack_payload`` of its payload decodes to
  a payload that packs to the same bytes and loads to the same rules and parameters.
Time and memory bounds are the engine's (``-timeout``, ``-rss_limit_mb``).
"""

from __future__ import annotations

from rulec.runtime.bundle.format import decode_bundle, frame_payload, pack_payload
from rulec.runtime.bundle.loader import Bundle, load_bundle
from rulec.runtime.errors import BundleError

from .failure import expect


def bundle_bytes(data: bytes) -> bytes:
    """The bundle file an input stands for (see the module docstring)."""
    if data and data[0] & 1:
        return bytes(data[1:])
    return frame_payload(bytes(data[1:]))


def _shape(bundle: Bundle) -> tuple[object, ...]:
    return (
        tuple(r.id for r in bundle.rules),
        tuple(p.name for p in bundle.parameters),
        bundle.boxes.n_boxes,
        bundle.cnf.n_clauses,
        bundle.graph.n_edges,
    )


def check_bundle(data: bytes) -> None:
    """Run the bundle-loader oracle on one input; raise ``OracleFailure`` on a breach."""
    raw = bundle_bytes(data)
    try:
        bundle = load_bundle(raw)
    except BundleError:
        return
    payload = decode_bundle(raw)
    packed = pack_payload(payload)
    again = frame_payload(packed)
    expect(pack_payload(decode_bundle(again)) == packed, "re-packed payload is not canonical")
    expect(_shape(load_bundle(again)) == _shape(bundle), "re-packed bundle loads differently")
