from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", views.rules, name="rules"),
    path("glossary/", views.glossary, name="glossary"),
    path("play/", views.play, name="play"),
    path("teach/", views.teach, name="teach"),
    path("learn/", views.learn, name="learn"),
    path("learn/<slug:slug>/", views.walkthrough, name="walkthrough"),
]
