"""Teachers' own lessons: the builder (``/<lang>/teach/lessons/``) and the lesson page
(``/<lang>/lesson/CODE/``, played with the walkthrough player)."""
