"""``python -m rulec.compiler``: the ``rulec`` command."""

import sys

from rulec.compiler.cli import main

sys.exit(main())
