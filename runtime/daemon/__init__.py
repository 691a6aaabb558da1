"""``rulec-onboard``: the daemon that runs the engine on the vehicle.

``loop`` is the ``Daemon`` (read, decode, evaluate, answer, housekeeping), ``command`` its
command line, ``config`` the options and ``sensors`` mapping, ``input`` the link and the
frame readers, ``tx`` the frames written back, ``log`` the JSON-lines log and counters,
``reload`` the validated hot reload, ``lane`` the C fast lane.
"""
