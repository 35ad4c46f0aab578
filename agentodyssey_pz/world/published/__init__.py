"""AgentOdyssey's published games, read from the user's own copy of AgentOdyssey.

Layer: world core. The games' content (world definitions, quest and tutorial data, the objects and
NPCs a quest brings in) is never part of this repository: it is read at run time from the
`agentodyssey` distribution (`pip install --no-deps agentodyssey==0.1.0`) or from a checkout named
by `AGENTODYSSEY_HOME` (`locate`). JSON is read as JSON and Python data with `ast` (`pyconst`):
nothing of AgentOdyssey is imported, executed or unpickled. The mechanics are our own code, in the
bundled rule packs a game selects.
"""
