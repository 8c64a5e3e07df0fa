"""The Teach page: what a teacher can make (class tables, quizzes, lesson sheets)."""

from django.shortcuts import render


def teach(request):
    return render(request, "teach/teach.html")
