"""Telemetry readers for formats other than rulec's own frames: CCSDS space packets
(``ccsds``, configured by ``ccsds_config``) and MAVLink messages (``mavlink``)."""
