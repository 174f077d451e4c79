"""Synthetic pictures of dice on a table, with exact labels: the window's demo table, the reader's
training and the tests draw them. Reading a frame needs none of it.

One module per thing drawn: ``scene.py`` (what a frame holds, and random scenes), ``layout.py``
(where dice come to rest), ``table.py`` (the table and its clutter), ``die.py`` (a die, its pips
and its shadow), ``hand.py`` (a hand in the frame), ``light.py`` (the light and its glare),
``camera_effects.py`` (shift, defocus, sensor noise, JPEG), ``perspective.py`` (how the tilted
camera sees the table), ``canvas.py`` (the drawing basics they share) and ``render.py`` (the
picture and its labels)."""
