"""``python -m cafe``: the café board."""

import sys

from cafe.command import main

sys.exit(main())
