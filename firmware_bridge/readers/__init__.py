"""Telemetry readers for formats other than rulec's own frames: CCSDS space packets
(``ccsds``, configured by ``ccsds_config``) and MAVLink messages (``mavlink``)."""


def masked(raw: int, mask: int) -> int:
    """The bits of ``raw`` that ``mask`` selects, shifted down to bit 0: a flag or a state
    index packed in a status word (both readers' ``mask``)."""
    return (raw & mask) >> ((mask & -mask).bit_length() - 1)
