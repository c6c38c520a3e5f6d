"""The first-game walkthrough's route (included from ``config.urls``)."""

from django.urls import path

from . import walkthrough

urlpatterns = [path("learn/", walkthrough.learn, name="learn")]
