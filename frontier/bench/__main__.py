"""``python -m frontier.bench [--markdown] [--plot IMAGE] FILE...``: tabulate records."""

import sys

from .records import main

sys.exit(main())
