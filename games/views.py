from django.shortcuts import render

from .models import GlossaryEntry, RulesSection


def home(request):
    return render(request, "games/home.html")


def rules(request):
    sections = RulesSection.objects.all()
    return render(request, "games/rules.html", {"sections": sections})


def glossary(request):
    entries = GlossaryEntry.objects.all()
    return render(request, "games/glossary.html", {"entries": entries})


def play(request):
    return render(request, "games/play.html")


def teach(request):
    return render(request, "games/teach.html")


def learn(request):
    return render(request, "games/learn.html", {"walkthroughs": []})
