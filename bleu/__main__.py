"""``python -m bleu``: the same command line as ``bleu-explorer``."""

import sys

from .cli.main import main

sys.exit(main())
