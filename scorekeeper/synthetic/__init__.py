"""Synthetic pictures of dice on a table, with exact labels (``render.py``): the window's demo table,
the reader's training and the tests draw them. Reading a frame needs none of it."""
