"""The site's pages under ``/<lang>/``: each address's first segment names the folder
of its code (``glossary/`` and ``start/`` are ``games/rules/`` too)."""

from django.urls import path

from games import views
from games.content.page_cache import cached_page
from games.learn import views as learn_views
from games.offline import views as offline_views
from games.play import views as play_views
from games.replay import views as replay_views
from games.replay.kept import replay_state
from games.rules import views as rules_views
from games.teach import views as teach_views
from games.teach.classes import views as class_views
from games.teach.lessons import views as lesson_views
from games.teach.quiz import views as quiz_views
from games.teach.sheets import views as sheets_views

urlpatterns = [
    path("", cached_page(views.home), name="home"),
    path("rules/", cached_page(rules_views.rules), name="rules"),
    path("glossary/", cached_page(rules_views.glossary), name="glossary"),
    path("play/", cached_page(play_views.play, state=play_views.lobby_state), name="play"),
    path("play/practice/", play_views.play_practice, name="play_practice"),
    path("play/new/", play_views.play_open, name="play_open"),
    path("play/device/", play_views.play_device, name="play_device"),
    path("play/<str:code>/", play_views.play_table, name="play_table"),
    path("replay/<str:code>/", cached_page(replay_views.replay, state=replay_state), name="replay"),
    path(
        "replay/<str:code>/lesson/",
        cached_page(replay_views.replay_lesson, state=replay_state),
        name="replay_lesson",
    ),
    path("teach/", teach_views.teach, name="teach"),
    path("teach/class/", class_views.class_new, name="class_new"),
    path("teach/class/<str:code>/", class_views.class_teacher, name="class_teacher"),
    path("teach/class/<str:code>/tablets/", class_views.class_tablets, name="class_tablets"),
    path("teach/class/<str:code>/lesson/", class_views.class_lesson, name="class_lesson"),
    path(
        "teach/class/<str:code>/tablets/state/",
        class_views.class_tablets_state,
        name="class_tablets_state",
    ),
    path(
        "teach/class/<str:code>/tablets/start/",
        class_views.class_tablets_start,
        name="class_tablets_start",
    ),
    path(
        "teach/class/<str:code>/projector/",
        class_views.class_projector,
        name="class_projector",
    ),
    path("teach/sheet/", sheets_views.sheet, name="sheet"),
    path("teach/sheet.pdf", sheets_views.sheet_pdf, name="sheet_pdf"),
    path("teach/sheet.css", sheets_views.sheet_page_css, name="sheet_page_css"),
    path("teach/lessons/", lesson_views.lessons, name="lessons"),
    path("teach/lessons/<str:code>/edit/<str:key>/", lesson_views.lesson_edit, name="lesson_edit"),
    path("teach/lessons/<str:code>/copy/", lesson_views.lesson_copy, name="lesson_copy"),
    path("lesson/<str:code>/", lesson_views.lesson, name="lesson"),
    path("teach/quiz/", quiz_views.quiz, name="quiz"),
    path("teach/quiz/print/", quiz_views.quiz_print, name="quiz_print"),
    path("learn/", cached_page(learn_views.learn), name="learn"),
    path("learn/<slug:slug>/", cached_page(learn_views.walkthrough), name="walkthrough"),
    path("offline/", cached_page(offline_views.offline), name="offline"),
    path("manifest.webmanifest", offline_views.manifest, name="manifest"),
]
