"""``python -m devilsgrip``."""

import sys

from devilsgrip.cli import main

sys.exit(main())
