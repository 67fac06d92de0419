"""``python -m frontier.bench [--markdown] FILE...``: tabulate benchmark records."""

import sys

from .records import main

sys.exit(main())
