"""``python -m rulec.firmware_bridge.sim``: the ``rulec-sim`` command."""

import sys

from rulec.firmware_bridge.sim.command import main

sys.exit(main())
