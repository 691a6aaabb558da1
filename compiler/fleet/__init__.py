"""Fleet replay (ground side): every recorded run of a fleet replayed through the
onboard runtime exactly as `rulec replay` does, on a Dask cluster or in one process,
gathered into events, per-rule figures, a diff against the bundle in service and a
review page.  Pipeline: runs (which files, read in chunks) -> replay_file (one file,
the unit of work) -> schedule (Dask or local; worker_plugin) -> summary, diff,
event_table, outputs, report; replay_fleet runs the whole."""
