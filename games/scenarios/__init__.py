"""Walkthrough scenarios: data files played step by step on the real engine.

Pure Python like the engine: the Django side (texts, pages) lives in
``games.frames.walkthroughs``.
"""

from .model import Scenario, ScenarioError, ScenarioStep
from .runner import Branch, PlayedScenario, PlayedStep, play_scenario
from .store import load_all, load_scenario

__all__ = [
    "Branch",
    "PlayedScenario",
    "PlayedStep",
    "Scenario",
    "ScenarioError",
    "ScenarioStep",
    "load_all",
    "load_scenario",
    "play_scenario",
]
