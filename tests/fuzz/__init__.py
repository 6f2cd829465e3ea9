"""The decoder fuzz campaign: every decoder that takes bytes from outside, fed generated inputs.

``targets`` names the decoders and their typed errors, ``mutate`` makes inputs from the kept
corpus, ``corpus_make`` makes that corpus from a real game, ``__main__`` runs a campaign and
prints its figures (``python -m tests.fuzz``); ``test_fuzz`` runs a short fixed sample in CI.
"""
