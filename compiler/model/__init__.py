"""The compiler's data model: rule objects and their JSON form (``rules``), units and
exact conversions (``units``), parameter names and their words (``parameters``) and the
``sensors.toml`` manifest (``manifest``)."""
