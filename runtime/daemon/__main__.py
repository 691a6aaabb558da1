"""``python -m rulec.runtime.daemon``: the ``rulec-onboard`` command."""

import sys

from rulec.runtime.daemon.command import main

sys.exit(main())
