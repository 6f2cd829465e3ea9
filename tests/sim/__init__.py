"""The seeded whole-table simulator (issue 16): real nodes, a simulated network and clock.

``python -m tests.sim --seeds N --game all|reign|sovereign|sodalis [--seed S]`` -- see
``docs/reliability.md``.  ``net`` is the network, ``plan`` a seed's table and faults,
``world`` one run and its invariants, ``determinism`` what pins a run to its seed.
"""
