"""fairtable: hidden-information tabletop games among friends, with nobody to trust.

The one import name an install of fairtable claims (docs/packaging.md). Its layers live in the
repository's top-level folders and are reached here by links: ``fairtable.engine``,
``fairtable.protocol``, ``fairtable.netplay``, ``fairtable.client``, and ``fairtable.games`` (the
declarations of the games this package plays).
"""
