"""``python -m sim.cli``: the same as the ``unmatched-sim`` command."""
from sim.cli import main

main()
