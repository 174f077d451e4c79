"""scorekeeper: keeps score in real games of Farkle.

Packages, in the order the data flows:

- ``camera``: frames to rolls: frame sources (webcam, video, photos, the demo table), calibration
  profiles, the empty table's finds, settling over frames, the watch loop.
- ``vision``: reading one frame: the ONNX dice reader, its pre- and post-processing, the players'
  corrections kept for training, and what a table taught the reader.
- ``table_session``: between the camera and the game, with no Qt: taking a roll, what to ask, taps,
  each roll's picture, the table's learner and teaching step, the camera game without a window.
- ``rules``: rule sets as data and what a roll scores (pure Python).
- ``game``: the game as an append-only log of events, its state, its files (pure Python).
- ``coach``: the optimal turn policy and its advice.
- ``stats``: table statistics and the dice-fairness test, from the game log.
- ``scoreboard``: what table mode's full-screen board shows, with no Qt.
- ``export``: the score sheets (CSV, HTML, PDF).
- ``serve``: the scoreboard on the players' phones.
- ``ui``: the window (Qt).
- ``cli``: the command line, one module per command.

Beside the game: ``synthetic`` (the scene renderer), ``evaluation`` (measuring readers),
``training`` (training the reader; needs torch) and ``testbed`` (tables with known truth that the
tests and benchmarks play the camera on). ``safe_input`` and ``safe_output`` read and write
users' files within bounds and whole.
"""

__version__ = "0.1.0"
