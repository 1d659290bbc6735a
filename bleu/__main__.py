"""``python -m bleu``: the same command line as ``bleu-explorer``."""

import sys

from .cli import main

sys.exit(main())
