"""The walkthrough player's frames: each step of a walkthrough, a replay or a lesson as
the player (and a lesson sheet, a quiz) draws it: the table picture, the caption, the
rule links and the engine's answer to each press. Shared by every face that shows one.
"""
