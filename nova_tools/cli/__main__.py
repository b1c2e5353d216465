"""`python -m nova_tools.cli` is `nova`."""

from . import main

raise SystemExit(main())
