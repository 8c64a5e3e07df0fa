"""The "Read the rules" face: the rules, the glossary and "Play in two minutes", made
from the translated content (``games.content``).
"""
