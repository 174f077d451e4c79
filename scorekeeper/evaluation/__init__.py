"""Measuring dice readers: labelled photo folders and their reviewed label fixes (``dataset.py``,
``label_fixes/``), scores (``score.py``), assessments per folder, condition and machine
(``assessment.py``), the rendered ``sample_images/`` (``samples.py``) and the classical OpenCV
baseline (``classical.py``). Reading a frame needs none of it."""
