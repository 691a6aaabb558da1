"""Fleet replay (ground side): every recorded run of a fleet replayed through the
onboard runtime exactly as `rulec replay` does, on a Dask cluster or in one process,
gathered into events, per-rule figures, a diff against the bundle in service and a
review page.  Pipeline: telemetry (which files) -> runs (chunked reading) ->
replay_file (one file, the unit of work) -> schedule (Dask or local) -> summary, diff,
outputs, report."""
