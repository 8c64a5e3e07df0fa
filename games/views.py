"""The home page; every other page lives in the folder of its address's first segment
(``/<lang>/learn/…`` in ``games/learn/``, ``/<lang>/teach/…`` in ``games/teach/``…)."""

from django.shortcuts import render


def home(request):
    return render(request, "home.html")
