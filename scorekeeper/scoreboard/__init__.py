"""What the scoreboards show, with no Qt: :mod:`~scorekeeper.scoreboard.table_mode` says what
table mode's full-screen board holds and how big each part is drawn, :mod:`~scorekeeper.scoreboard.banner`
what the banner over the window's scoreboard says; the window draws them."""
